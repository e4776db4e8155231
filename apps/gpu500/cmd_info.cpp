// gpu500 info: version, backends compiled in, MPI library, CUDA architectures, BLAS, devices found.
#include <omp.h>

#include <cstdio>
#include <string_view>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/dist/comm.hpp"

GPU500_COMMAND(info, "Version, backends compiled in and devices found") {
  gpu500::cli::parser p("gpu500 info", "Print the version, the backends compiled in and the devices found.");
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  std::printf("gpu500 %s\n", GPU500_VERSION);
  std::printf("backends: cpu (OpenMP, %d threads)%s%s\n", omp_get_max_threads(),
              GPU500_HAVE_CUDA ? ", cuda" : "", GPU500_HAVE_OPENCL ? ", opencl" : "");
  std::printf("mpi: %s%s\n", GPU500_HAVE_MPI ? "yes, " : "no", GPU500_HAVE_MPI ? gpu500::dist::mpi_library_version().c_str() : "");
  if (GPU500_HAVE_CUDA) std::printf("cuda architectures: sm_%s (built for)\n", GPU500_CUDA_ARCHITECTURES);
  std::printf("blas: %s%s\n", GPU500_BLAS,
              std::string_view(GPU500_BLAS) == "reference" ? " (netlib's: hpl and hpl-mxp on the CPU run 10-20 times slower)" : "");
  std::printf("host memory: %.1f GiB (%.1f GiB available)\n", gpu500::host_total_memory() / 1073741824.0,
              gpu500::host_available_memory() / 1073741824.0);
  const auto devs = gpu500::cuda_devices();
  if (devs.empty()) std::printf("cuda devices: none\n");
  for (const auto& d : devs)
    std::printf("cuda device %d: %s, sm_%d%d, %d SMs, %.1f GiB (%.1f GiB free), L2 %.0f MiB, %.0f GB/s peak\n",
                d.ordinal, d.name.c_str(), d.sm_major, d.sm_minor, d.multiprocessors,
                d.global_memory / 1073741824.0, d.free_memory / 1073741824.0, d.l2_bytes / 1048576.0,
                d.memory_bandwidth_gbs);
  return 0;
}
