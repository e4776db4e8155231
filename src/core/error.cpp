// Out-of-line pieces of the error vocabulary.
#include "gpu500/core/error.hpp"

namespace gpu500::detail {

void throw_expects(const char* cond, const std::string& msg, const char* file, int line) {
  throw ::gpu500::error(msg + " (" + cond + " failed at " + file + ":" + std::to_string(line) + ")");
}

}  // namespace gpu500::detail
