// gpu500 info: the provenance record (version, git commit, host, MPI, NCCL, CUDA architectures,
// BLAS: what every --json carries), the backends compiled in and the devices found.
#include <omp.h>

#include <cstdio>
#include <string_view>

#include "command.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/cuda_arch.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/provenance.hpp"

GPU500_COMMAND(info, "Version, backends compiled in and devices found") {
  gpu500::cli::parser p("gpu500 info", "Print the version, the backends compiled in and the devices found.");
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }
  const auto prov = gpu500::provenance::current();
  std::printf("gpu500 %s\n", prov.version.c_str());
  std::printf("commit: %s\n", prov.commit.c_str());
  std::printf("host: %s\n", prov.host.c_str());
  std::printf("backends: cpu (OpenMP, %d threads)%s%s\n", omp_get_max_threads(),
              GPU500_HAVE_CUDA ? ", cuda" : "", GPU500_HAVE_OPENCL ? ", opencl" : "");
  std::printf("mpi: %s%s\n", GPU500_HAVE_MPI ? "yes, " : "no", GPU500_HAVE_MPI ? prov.mpi.c_str() : "");
  std::printf("nccl: %s\n", prov.nccl.c_str());
  if (GPU500_HAVE_CUDA)
    std::printf("cuda architectures: %s (built for)\n", gpu500::cuda_architectures_text(prov.cuda_architectures).c_str());
  std::printf("blas: %s%s\n", prov.blas.c_str(),
              prov.blas == "reference" ? " (netlib's: hpl and hpl-mxp on the CPU run 10-20 times slower)" : "");
  std::printf("host memory: %.1f GiB (%.1f GiB available)\n", gpu500::host_total_memory() / 1073741824.0,
              gpu500::host_available_memory() / 1073741824.0);
  const auto devs = gpu500::cuda_devices();
  if (devs.empty()) std::printf("cuda devices: none\n");
  for (const auto& d : devs)
    std::printf("cuda device %d: %s, sm_%d%d, %d SMs, %.1f GiB (%.1f GiB free), L2 %.0f MiB, %.0f GB/s peak\n",
                d.ordinal, d.name.c_str(), d.sm_major, d.sm_minor, d.multiprocessors,
                d.global_memory / 1073741824.0, d.free_memory / 1073741824.0, d.l2_bytes / 1048576.0,
                d.memory_bandwidth_gbs);
  for (const auto& d : devs) {
    const auto fit = gpu500::cuda_arch_fit(prov.cuda_architectures, d.sm_major, d.sm_minor);
    if (fit == gpu500::cuda_fit::ptx)
      std::printf("cuda device %d: runs this build through PTX compiled at load time (no sm_%d%d code built)\n",
                  d.ordinal, d.sm_major, d.sm_minor);
    if (fit == gpu500::cuda_fit::none)
      std::printf("cuda device %d: %s\n", d.ordinal,
                  gpu500::cuda_arch_mismatch(d.ordinal, d.name, d.sm_major, d.sm_minor, prov.cuda_architectures).c_str());
  }
  return 0;
}
