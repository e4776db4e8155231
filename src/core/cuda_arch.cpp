// Whether this build's CUDA code runs on a GPU (gpu500/core/cuda_arch.hpp): the rule on host
// numbers alone (unit-tested without a GPU) and the check of the visible devices.
#include "gpu500/core/cuda_arch.hpp"

#include <algorithm>
#include <cctype>

#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"

namespace gpu500 {

namespace {

// One entry such as "90", "86-real", "90a-virtual"; false when it is not of that form.
bool parse_entry(std::string_view s, cuda_arch_entry* e) {
  cuda_arch_entry r;
  if (s.size() > 5 && s.substr(s.size() - 5) == "-real") r.ptx = false, s.remove_suffix(5);
  else if (s.size() > 8 && s.substr(s.size() - 8) == "-virtual") r.sass = false, s.remove_suffix(8);
  if (!s.empty() && (s.back() == 'a' || s.back() == 'f')) {
    r.specific = s.back() == 'a';
    s.remove_suffix(1);
  }
  if (s.size() < 2 || s.size() > 4) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  const int n = std::stoi(std::string(s));
  r.major = n / 10;
  r.minor = n % 10;
  *e = r;
  return true;
}

// The items of a list separated by ';', ',' or spaces (CMake writes ';', config.hpp spaces).
std::vector<std::string_view> items_of(std::string_view list) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < list.size()) {
    const std::size_t end = std::min(list.find_first_of(";, ", i), list.size());
    if (end > i) out.push_back(list.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

}  // namespace

std::vector<cuda_arch_entry> parse_cuda_architectures(std::string_view list, bool* unknown) {
  std::vector<cuda_arch_entry> out;
  bool unknown_seen = false;
  for (const std::string_view item : items_of(list)) {
    cuda_arch_entry e;
    if (parse_entry(item, &e)) out.push_back(e);
    else unknown_seen = true;
  }
  if (unknown) *unknown = unknown_seen;
  return out;
}

cuda_fit cuda_arch_fit(std::string_view built, int major, int minor) {
  bool unknown = false;
  const auto entries = parse_cuda_architectures(built, &unknown);
  bool ptx = false;
  for (const auto& e : entries) {
    const bool exact = e.major == major && e.minor == minor;
    if (e.sass && (exact || (!e.specific && e.major == major && e.minor <= minor))) return cuda_fit::sass;
    if (e.ptx && (exact || (!e.specific && (e.major < major || (e.major == major && e.minor <= minor))))) ptx = true;
  }
  if (ptx) return cuda_fit::ptx;
  return unknown ? cuda_fit::unknown : cuda_fit::none;
}

std::string cuda_architectures_text(std::string_view built) {
  std::string out;
  for (const std::string_view item : items_of(built)) {
    if (!out.empty()) out += ", ";
    cuda_arch_entry e;
    out += parse_entry(item, &e) ? "sm_" + std::string(item) : std::string(item);
  }
  return out.empty() ? "nothing" : out;
}

std::string cuda_arch_mismatch(int ordinal, const std::string& name, int major, int minor, std::string_view built) {
  const std::string sm = std::to_string(major) + std::to_string(minor);
  return "CUDA device " + std::to_string(ordinal) + " (" + name + ") is sm_" + sm + ", but this gpu500 was built for " +
         cuda_architectures_text(built) +
         ", which it cannot run (machine code runs on GPUs of its own major version, PTX on the same or newer ones); configure with "
         "-DCMAKE_CUDA_ARCHITECTURES=" + sm + " (or native) and build again, hide the device with CUDA_VISIBLE_DEVICES, "
         "or run with --backend cpu";
}

void check_cuda_devices() {
  if (!GPU500_HAVE_CUDA) return;
  // Once per process: the commands ask each time they resolve --backend.
  static const std::string problem = [] {
    for (const auto& d : cuda_devices())
      if (cuda_arch_fit(GPU500_CUDA_ARCHITECTURES, d.sm_major, d.sm_minor) == cuda_fit::none)
        return cuda_arch_mismatch(d.ordinal, d.name, d.sm_major, d.sm_minor, GPU500_CUDA_ARCHITECTURES);
    return std::string();
  }();
  if (!problem.empty()) throw error(problem);
}

}  // namespace gpu500
