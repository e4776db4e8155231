#include <gtest/gtest.h>
TEST(Hpl, Placeholder) {}
