// gpu500/core/atomic_file.hpp — the one rule for writing an output file atomically: write a
// temporary file beside the target (same directory, so the same file system and rights), then
// rename it over the target once complete. A reader never sees a half-written file, and a crash
// leaves the old file (or none) in place. Used by json::write_file / check_writable and by the
// graph-file writers.
#pragma once

#include <string>

namespace gpu500::atomic_file {

/// The temporary name beside `path` that an atomic write of `path` uses (unique per process).
[[nodiscard]] std::string temp_path(const std::string& path);

/// Renames the finished temporary file `tmp` over `path`; on failure removes `tmp` and throws
/// gpu500::error "cannot write <noun>'<path>' (<reason>)".
void commit(const std::string& tmp, const std::string& path, const std::string& noun = "");

}  // namespace gpu500::atomic_file
