// Unit tests of the output file rule (gpu500/core/atomic_file.hpp): a regular file replaced whole
// with its mode kept, a symbolic link followed (the link kept), a FIFO written through, other
// kinds refused; an output that is an input or another output refused.
#include <gtest/gtest.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "gpu500/core/atomic_file.hpp"
#include "gpu500/core/error.hpp"

using namespace gpu500;
namespace fs = std::filesystem;

namespace {

std::string scratch(const std::string& name) {
  const fs::path d = fs::path(::testing::TempDir()) / ("atomic_file_" + std::to_string(::getpid()));
  fs::create_directories(d);
  const fs::path p = d / name;
  std::error_code ec;
  fs::remove(p, ec);
  return p.string();
}

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(AtomicFile, ReplacingARegularFileKeepsItsMode) {
  const std::string p = scratch("mode.txt");
  std::ofstream(p) << "old\n";
  ASSERT_EQ(::chmod(p.c_str(), 0600), 0);
  atomic_file::write_whole(p, "new\n");
  EXPECT_EQ(slurp(p), "new\n");
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
}

TEST(AtomicFile, ASymlinkIsFollowedAndKept) {
  const std::string real = scratch("real.txt"), link = scratch("link.txt");
  std::ofstream(real) << "old\n";
  fs::create_symlink("real.txt", link);  // relative, as a user makes it
  atomic_file::write_whole(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(slurp(real), "new\n");
  // A dangling link creates its target.
  const std::string target = scratch("later.txt"), dangling = scratch("dangling.txt");
  fs::create_symlink(target, dangling);
  atomic_file::write_whole(dangling, "x");
  EXPECT_TRUE(fs::is_symlink(dangling));
  EXPECT_EQ(slurp(target), "x");
  for (const auto& e : fs::directory_iterator(fs::path(real).parent_path()))
    EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
}

TEST(AtomicFile, AFifoIsWrittenThrough) {
  const std::string p = scratch("fifo");
  ASSERT_EQ(::mkfifo(p.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(p); });
  EXPECT_TRUE(atomic_file::resolve(p, "--json").direct());
  atomic_file::write_whole(p, "through\n");
  reader.join();
  EXPECT_EQ(got, "through\n");
  EXPECT_TRUE(fs::is_fifo(p));
  EXPECT_TRUE(atomic_file::resolve("/dev/null", "--json").direct());
  EXPECT_TRUE(atomic_file::resolve("/dev/stdout", "--json").direct());
}

TEST(AtomicFile, OtherKindsAreRefused) {
  EXPECT_THROW((void)atomic_file::resolve(::testing::TempDir(), "--json"), usage_error);
  EXPECT_THROW(atomic_file::check_writable(::testing::TempDir(), "--json"), usage_error);
  const std::string s = scratch("sock");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  ASSERT_LT(s.size(), sizeof a.sun_path);
  std::copy(s.begin(), s.end(), a.sun_path);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  try {
    atomic_file::check_writable(s, "--json");
    ADD_FAILURE() << "a socket was accepted";
  } catch (const usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a socket"), std::string::npos) << e.what();
  }
  ::close(fd);
}

TEST(AtomicFile, AnOutputThatIsAnInputOrAnotherOutputIsRefused) {
  const std::string in = scratch("in.txt"), link = scratch("in_link.txt"), out = scratch("out.json");
  std::ofstream(in) << "0 1\n";
  fs::create_symlink(in, link);
  EXPECT_THROW(atomic_file::check_distinct({{"--graph", in}}, {{"--json", in}}), usage_error);
  EXPECT_THROW(atomic_file::check_distinct({{"--graph", in}}, {{"--json", link}}), usage_error);
  EXPECT_THROW(atomic_file::check_distinct({}, {{"--json", out}, {"--output", out}}), usage_error);  // not there yet
  EXPECT_NO_THROW(atomic_file::check_distinct({{"--graph", in}}, {{"--json", out}, {"--output", out + "2"}}));
  EXPECT_NO_THROW(atomic_file::check_distinct({}, {{"--json", "/dev/null"}, {"--output", "/dev/null"}}));
  EXPECT_NO_THROW(atomic_file::check_distinct({{"-i", ""}}, {{"--json", ""}, {"--timing", ""}}));
}
