// The atomic output file's rule (see gpu500/core/atomic_file.hpp): the temporary name and the
// rename that publishes it.
#include "gpu500/core/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "gpu500/core/error.hpp"

namespace gpu500::atomic_file {

std::string temp_path(const std::string& path) { return path + ".tmp" + std::to_string(::getpid()); }

void commit(const std::string& tmp, const std::string& path, const std::string& noun) {
  if (std::rename(tmp.c_str(), path.c_str()) == 0) return;
  const std::string why = std::strerror(errno);
  std::remove(tmp.c_str());
  throw error("cannot write " + noun + "'" + path + "' (" + why + ")");
}

}  // namespace gpu500::atomic_file
