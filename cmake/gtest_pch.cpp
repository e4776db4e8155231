// The stand-in program gpu500_gtest_pch (cmake/functions.cmake): it exists to precompile
// <gtest/gtest.h> once, with the test suites' options, for every suite to reuse.
int main() { return 0; }
