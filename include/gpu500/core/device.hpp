// gpu500/core/device.hpp — what accelerators this process can see, and backend selection.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu500/core/types.hpp"

namespace gpu500 {

struct device_info {
  int ordinal = 0;
  std::string name;
  int sm_major = 0, sm_minor = 0;
  int multiprocessors = 0;
  std::int64_t global_memory = 0;  ///< bytes
  std::int64_t free_memory = 0;    ///< bytes, at the time of the query
  std::int64_t l2_bytes = 0;
  double memory_bandwidth_gbs = 0;  ///< theoretical, from clock and bus width (0 when unknown)
};

/// CUDA devices visible to this process (empty without the CUDA backend or without a GPU).
std::vector<device_info> cuda_devices();

/// True when the CUDA backend is compiled in and a device is present.
bool cuda_available();

/// Parse "auto|cpu|cuda|opencl"; throws usage_error otherwise.
backend parse_backend(const std::string& s, bool allow_opencl = false);
/// The backend "auto" means here: cuda when available, else cpu.
backend resolve_auto_backend();
const char* backend_name(backend b);

/// Physical memory of this host in bytes (0 when unknown).
std::int64_t host_total_memory();
/// The bytes this process may still allocate on the host: the smallest of the host's available
/// memory (MemAvailable), the room its cgroup leaves (cgroup v2: memory.max - memory.current;
/// v1: memory.limit_in_bytes - memory.usage_in_bytes; the process's cgroup and every ancestor)
/// and the room its address-space limit leaves (RLIMIT_AS less the address space in use).
std::int64_t host_available_memory();
/// A byte count in decimal units with three significant digits: "74.5 GB", "512 MB", "12 bytes".
std::string human_bytes(double bytes);
/// Throws resource_error "<what> needs 74.5 GB, 21.3 GB available" when `need` bytes exceed
/// host_available_memory() (no check when it is unknown). `need` is a double so that the
/// product of large counts cannot overflow; it is a lower bound of what the caller is about to
/// allocate. With GPU500_MEMORY_REPORT=1 in the environment each check also prints
/// "gpu500 memory: estimate NEED resident RSS (what)" on stderr, and the program its peak at exit,
/// so that a test can hold every estimate against the peak measured (tests/smoke/memory_estimates.sh).
void check_host_memory(double need, const std::string& what);
/// This process's resident set now and at its peak (VmRSS, VmHWM), in bytes (0 when unknown).
std::int64_t resident_memory();
std::int64_t peak_resident_memory();
/// Whether the environment variable `name` is set, not empty and not "0" (a diagnostic switch
/// such as GPU500_MEMORY_REPORT=1).
bool env_flag(const char* name);
/// Whether GPU500_MEMORY_REPORT asks for the estimates and the peak on stderr.
bool memory_report_requested();
/// The report line of check_host_memory, for a check made otherwise (one agreed over ranks).
void note_memory_estimate(double need, const std::string& what);

}  // namespace gpu500
