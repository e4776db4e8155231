// gpu500/core/atomic_file.hpp — the one rule for every file the program writes (`--json`,
// `--output`, `--timing`, `--tune-output`, the OUT of `convert` and `generate`):
//   - a regular file (or a new name) is written to a temporary file beside it (same directory, so
//     the same file system and rights) and renamed over it once complete, keeping the old file's
//     permission bits: a reader never sees a half-written file, a crash leaves the old file;
//   - a symbolic link is followed and its final target replaced that way (the link stays);
//   - a character device (/dev/null, a terminal), a FIFO, or a descriptor's file (/dev/stdout,
//     /dev/fd/N, /proc/self/fd/N) is written through directly: it cannot be replaced;
//   - anything else (a directory, a socket, a block device) is refused (usage_error, exit 2).
// A temporary file is removed when the write fails, and when SIGINT, SIGTERM or SIGHUP ends the
// process (watch/unwatch; the handler re-raises the signal with its default action).
#pragma once

#include <string>
#include <vector>

namespace gpu500::atomic_file {

/// Where and how one output path is written.
struct target {
  std::string path;  ///< the file written: the given path, or the final target of its links
  std::string tmp;   ///< the temporary file beside it; empty when written directly
  int mode = -1;     ///< permission bits the replaced file had (-1: a new file)
  [[nodiscard]] bool direct() const { return tmp.empty(); }
  /// The name to open for writing: the temporary file, or the path itself when direct.
  [[nodiscard]] const std::string& open_path() const { return direct() ? path : tmp; }
};

/// Applies the rule to `path`; throws usage_error naming `what` (e.g. "--json") for an empty
/// name, a directory, a socket, a block device, or a path that cannot be examined.
[[nodiscard]] target resolve(const std::string& path, const std::string& what);

/// Throws usage_error naming `what` unless `path` can be written under the rule (its directory
/// exists and takes a new file; a direct file is writable). Commands call it while parsing, so
/// that a bad output path fails before any work.
void check_writable(const std::string& path, const std::string& what);

/// Publishes a finished write: renames the temporary file over the target with the old mode
/// (nothing for a direct target). On failure removes the temporary file and throws gpu500::error
/// "cannot write <noun>'<path>' (<reason>)".
void commit(const target& t, const std::string& noun = "");

/// Removes an unfinished temporary file (nothing for a direct target) and stops watching it.
void discard(const target& t);

/// Writes `content` to `path` under the rule (resolve, write, commit); throws gpu500::error.
void write_whole(const std::string& path, const std::string& content, const std::string& noun = "");

/// Registers a temporary file for removal should SIGINT, SIGTERM or SIGHUP end the process
/// (installs the handler on first use; a signal the process ignores stays ignored). At most 16
/// files at once; more are written without the guard.
void watch(const std::string& tmp);
void unwatch(const std::string& tmp);

/// A file named on the command line: what names it ("--graph", "OUT") and its path.
struct named_path {
  std::string what, path;
};
/// Throws usage_error "<what> and <what> are the same file ('<path>')" when an output is the same
/// file as an input or as another output: the same device and inode after following links, or,
/// for an output not yet there, the same name in the same directory. Character devices
/// (/dev/null, a terminal) may be named twice among outputs. Empty paths (not given) are skipped.
void check_distinct(const std::vector<named_path>& inputs, const std::vector<named_path>& outputs);

}  // namespace gpu500::atomic_file
