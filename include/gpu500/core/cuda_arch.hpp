// gpu500/core/cuda_arch.hpp — can this build's CUDA code run on a given GPU?
//
// CMake's CUDA_ARCHITECTURES list (config.hpp's GPU500_CUDA_ARCHITECTURES, e.g. "90" or "80 90")
// says what the program embeds, per entry:
//   "XY"          SASS (machine code) for sm_XY and PTX for compute_XY
//   "XY-real"     SASS only             "XY-virtual"  PTX only
//   "XYa"         (with -real/-virtual as above) arch-specific code: runs on compute capability X.Y only
// A device of compute capability M.N runs SASS built for sm_XY when M == X and N >= Y, and PTX
// built for compute_XY when M.N >= X.Y (the driver compiles it when the program loads). So a build
// for 90 runs on a 9.0 GPU natively and on a newer one through PTX, and never on an 8.x GPU.
// "native", "all" and "all-major" name no numbers: such a build is assumed to fit.
//
// check_cuda_devices() turns a misfit into one clear line before any kernel runs, instead of a
// "no kernel image is available" error from the first launch.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpu500 {

struct cuda_arch_entry {
  int major = 0, minor = 0;
  bool sass = true, ptx = true;
  bool specific = false;  ///< "a" suffix: this exact compute capability only
};

/// The entries of a CMake CUDA_ARCHITECTURES list (separated by ';', ',' or spaces). The keywords
/// native/all/all-major and anything unreadable set *unknown (when given) and add no entry.
[[nodiscard]] std::vector<cuda_arch_entry> parse_cuda_architectures(std::string_view list, bool* unknown = nullptr);

enum class cuda_fit {
  sass,     ///< machine code for this device is embedded
  ptx,      ///< only PTX the driver compiles at load time (slower start, runs)
  none,     ///< nothing this device can run
  unknown,  ///< the list names no numbers (native, all): assumed to run
};

/// How a device of compute capability major.minor runs a build for `built`.
[[nodiscard]] cuda_fit cuda_arch_fit(std::string_view built, int major, int minor);

/// "sm_90" or "sm_80, sm_90" (the list as a reader names it; "native" etc. as given).
[[nodiscard]] std::string cuda_architectures_text(std::string_view built);

/// The one line for a device this build cannot run, e.g. "CUDA device 0 (NVIDIA T4) is sm_75,
/// but this gpu500 was built for sm_90 only ...": what to do included.
[[nodiscard]] std::string cuda_arch_mismatch(int ordinal, const std::string& name, int major, int minor,
                                             std::string_view built);

/// Throws gpu500::error with cuda_arch_mismatch for the first visible CUDA device that this build
/// (GPU500_CUDA_ARCHITECTURES) cannot run; nothing without CUDA or without a device.
void check_cuda_devices();

}  // namespace gpu500
