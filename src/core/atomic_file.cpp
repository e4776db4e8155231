// The output file rule (see gpu500/core/atomic_file.hpp): how a path is classified (links
// followed by hand, so that a dangling link names the file it will create), the temporary name
// and the rename that publishes it, the signal handler that removes unfinished temporary files,
// and the check that no output is an input or another output.
#include "gpu500/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "gpu500/core/error.hpp"

namespace gpu500::atomic_file {

namespace {

std::string dir_of(const std::string& p) {
  const auto slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : p.substr(0, slash);
}

bool starts_with(const std::string& s, const char* head) { return s.rfind(head, 0) == 0; }

/// Follows the symbolic links from `p` to the name they end at (which may not exist yet).
/// `via_fd` is set when a link went through a descriptor's name (/proc/<pid>/fd, /dev/fd).
std::string follow_links(std::string p, bool& via_fd) {
  via_fd = starts_with(p, "/proc/") || starts_with(p, "/dev/fd/");
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char buf[4096];
    const ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
    if (n <= 0) return p;
    const std::string to(buf, static_cast<std::size_t>(n));
    p = to[0] == '/' ? to : dir_of(p) + "/" + to;
    via_fd = via_fd || starts_with(p, "/proc/") || starts_with(p, "/dev/fd/");
  }
  return p;
}

const char* kind_name(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISBLK(m)) return "a block device";
  return "not a regular file, a character device or a FIFO";
}

// Temporary files a signal must remove: fixed slots, as a signal handler may not allocate.
constexpr int slots = 16;
char watched[slots][4096];
std::atomic<int> watched_used[slots];
std::mutex watch_mutex;

extern "C" void remove_watched_and_reraise(int sig) {
  for (int i = 0; i < slots; ++i)
    if (watched_used[i].load(std::memory_order_acquire)) ::unlink(watched[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);  // delivered with the default action once the handler returns
}

void install_handlers() {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // nohup stays nohup
    struct sigaction sa {};
    sa.sa_handler = remove_watched_and_reraise;
    sigemptyset(&sa.sa_mask);
    for (const int other : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&sa.sa_mask, other);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace

target resolve(const std::string& path, const std::string& what) {
  if (path.empty()) throw usage_error(what + ": empty file name");
  struct stat st {};
  bool via_fd = false;
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return {path, "", -1};
    if (!S_ISREG(st.st_mode))
      throw usage_error(what + ": '" + path + "' is " + kind_name(st.st_mode) +
                        " (an output is a regular file, a character device or a FIFO)");
    const std::string final_path = follow_links(path, via_fd);
    if (via_fd) return {path, "", -1};  // /dev/stdout redirected to a file: write through
    return {final_path, final_path + ".tmp" + std::to_string(::getpid()), static_cast<int>(st.st_mode & 07777)};
  }
  if (errno != ENOENT) throw usage_error(what + ": cannot write '" + path + "' (" + std::strerror(errno) + ")");
  const std::string final_path = follow_links(path, via_fd);  // a new file, or a dangling link's target
  return {final_path, final_path + ".tmp" + std::to_string(::getpid()), -1};
}

void check_writable(const std::string& path, const std::string& what) {
  const target t = resolve(path, what);
  if (t.direct()) {
    if (::access(t.path.c_str(), W_OK) != 0)
      throw usage_error(what + ": cannot write '" + path + "' (" + std::strerror(errno) + ")");
    return;
  }
  struct stat st {};
  const std::string dir = dir_of(t.path);
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw usage_error(what + ": directory '" + dir + "' does not exist");
  // Try the temporary file the final write will use: the same rights are needed.
  const int fd = ::open(t.tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw usage_error(what + ": cannot write '" + path + "' (" + std::strerror(errno) + ")");
  ::close(fd);
  ::unlink(t.tmp.c_str());
}

void commit(const target& t, const std::string& noun) {
  if (t.direct()) return;
  // Watched until renamed: a signal between the two finds no file to remove, which is harmless.
  if ((t.mode < 0 || ::chmod(t.tmp.c_str(), static_cast<mode_t>(t.mode)) == 0) &&
      std::rename(t.tmp.c_str(), t.path.c_str()) == 0) {
    unwatch(t.tmp);
    return;
  }
  const std::string why = std::strerror(errno);
  discard(t);
  throw error("cannot write " + noun + "'" + t.path + "' (" + why + ")");
}

void discard(const target& t) {
  if (t.direct()) return;
  ::unlink(t.tmp.c_str());
  unwatch(t.tmp);
}

void write_whole(const std::string& path, const std::string& content, const std::string& noun) {
  const target t = resolve(path, noun.empty() ? "output" : noun);
  watch(t.tmp);
  std::FILE* f = std::fopen(t.open_path().c_str(), "w");
  if (f == nullptr) {
    const std::string why = std::strerror(errno);
    discard(t);
    throw error("cannot write " + noun + "'" + path + "' (" + why + ")");
  }
  const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) {
    const std::string why = std::strerror(errno);
    discard(t);
    throw error("error while writing " + noun + "'" + path + "' (" + why + ")");
  }
  commit(t, noun);
}

void watch(const std::string& tmp) {
  if (tmp.empty() || tmp.size() >= sizeof watched[0]) return;
  const std::lock_guard<std::mutex> lock(watch_mutex);
  static const bool installed = (install_handlers(), true);
  (void)installed;
  for (int i = 0; i < slots; ++i) {
    if (watched_used[i].load(std::memory_order_relaxed)) continue;
    std::memcpy(watched[i], tmp.c_str(), tmp.size() + 1);
    watched_used[i].store(1, std::memory_order_release);
    return;
  }
}

void unwatch(const std::string& tmp) {
  const std::lock_guard<std::mutex> lock(watch_mutex);
  for (int i = 0; i < slots; ++i)
    if (watched_used[i].load(std::memory_order_relaxed) && tmp == watched[i]) {
      watched_used[i].store(0, std::memory_order_release);
      return;
    }
}

namespace {

struct identity {
  bool exists = false, chardev = false;
  dev_t dev = 0;
  ino_t ino = 0;
  std::string name;  ///< for a file not yet there: its directory's real path and its name
};

identity identify(const std::string& path) {
  identity id;
  if (path.empty()) return id;  // not given
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    id.exists = true;
    id.chardev = S_ISCHR(st.st_mode);
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  bool via_fd = false;
  const std::string final_path = follow_links(path, via_fd);
  char buf[PATH_MAX];
  const std::string dir = dir_of(final_path);
  if (::realpath(dir.c_str(), buf) == nullptr) return id;  // the writer names the missing directory
  id.name = std::string(buf) + "/" + final_path.substr(final_path.rfind('/') + 1);
  return id;
}

bool same(const identity& a, const identity& b) {
  if (a.exists != b.exists) return false;
  return a.exists ? a.dev == b.dev && a.ino == b.ino : !a.name.empty() && a.name == b.name;
}

}  // namespace

void check_distinct(const std::vector<named_path>& inputs, const std::vector<named_path>& outputs) {
  std::vector<identity> in_ids, out_ids;
  for (const auto& f : inputs) in_ids.push_back(identify(f.path));
  for (const auto& f : outputs) out_ids.push_back(identify(f.path));
  const auto refuse = [](const named_path& a, const named_path& b) {
    throw usage_error(a.what + " and " + b.what + " are the same file ('" + b.path + "')");
  };
  for (std::size_t o = 0; o < outputs.size(); ++o) {
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (in_ids[i].exists && same(in_ids[i], out_ids[o])) refuse(inputs[i], outputs[o]);
    for (std::size_t k = 0; k < o; ++k)
      if (!out_ids[o].chardev && same(out_ids[k], out_ids[o])) refuse(outputs[k], outputs[o]);
  }
}

}  // namespace gpu500::atomic_file
