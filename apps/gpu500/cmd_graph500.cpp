// gpu500 graph500: the Graph500 3.0 benchmark (kernels 1-3, validation, the reference's output
// block). Parses the options and runs graph500::run_and_report on the chosen backend's pipeline.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "command.hpp"
#include "gpu500/core/cli.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/dist/comm.hpp"
#include "gpu500/graph500/harness.hpp"
#include "pipeline_flags.hpp"

GPU500_COMMAND(graph500, "The Graph500 benchmark: generator, kernel 1, BFS, SSSP, validation") {
  using namespace gpu500;
  graph::kronecker_params gp;
  graph500::run_config cfg;
  std::string kernels = "bfs,sssp", json_path;
  std::vector<std::int64_t> seeds = {2, 3};
  bool no_validate = false, skip_bfs = false, quiet = false, force_progress = false;
  app::pipeline_flags flags;

  cli::parser p("gpu500 graph500",
                "Run Graph500 3.0: Kronecker graph of 2^SCALE vertices and EDGEFACTOR*2^SCALE edges, kernel 1,\n"
                "64 BFS and 64 SSSP searches, each validated; the reference's output block on stdout.\n"
                "Environment: SKIP_VALIDATION, SKIP_BFS as in the reference.");
  p.positional("SCALE", gp.scale, "log2 of the vertex count (default 16)");
  p.positional("EDGEFACTOR", gp.edgefactor, "edges per vertex (default 16)");
  p.option("--kernels", kernels, "bfs,sssp | bfs | sssp (default bfs,sssp)");
  p.option("--roots", cfg.num_roots, "number of search keys (default 64)");
  p.option("--seed", seeds, "the two generator seeds S1,S2 (default 2,3 as the reference)");
  p.option("--initiator", [&gp](const std::string& v) { gp.set_initiator(v); },
           "Kronecker initiator A,B,C (default 0.57,0.19,0.19; R-MAT: 0.45,0.15,0.15)", "A,B,C");
  p.flag("--no-validate", no_validate, "skip validation (as SKIP_VALIDATION)");
  p.flag("--skip-bfs", skip_bfs, "run SSSP only (as SKIP_BFS)");
  p.flag("--quiet", quiet, "no per-root progress on stderr");
  p.flag("--progress", force_progress, "per-root progress and time left on stderr even when it is not a terminal (default: on a terminal only)");
  p.flag("--energy", cfg.energy, "after each kernel's timed searches, repeat its keys for >= 1 s and report joules, watts, TEPS/W (GreenGraph500; NVML on cuda, RAPL on cpu)");
  p.output_file("--json", json_path, "write every figure to this JSON file");
  flags.add(p);
  flags.add_distributed(p);
  p.parse(args);
  if (p.help_requested()) {
    std::fputs(p.help().c_str(), stdout);
    return 0;
  }

  if (seeds.size() != 2) throw usage_error("--seed takes two seeds S1,S2");
  gp.seed1 = static_cast<std::uint64_t>(seeds[0]);
  gp.seed2 = static_cast<std::uint64_t>(seeds[1]);
  graph500::select_kernels(cfg, kernels);
  if (skip_bfs) cfg.run_bfs = false;
  cfg.validate = !no_validate;
  if (quiet && force_progress) throw usage_error("--progress and --quiet exclude each other");
  cfg.progress = !quiet && (force_progress || isatty(STDERR_FILENO) == 1);
  graph500::apply_environment(cfg);
  if (!cfg.run_bfs && !cfg.run_sssp) throw usage_error("nothing to run: --skip-bfs with --kernels bfs");
  if (cfg.num_roots < 1 || cfg.num_roots > 1 << 20) throw usage_error("--roots must be in 1..1048576");
  gp.weights = cfg.run_sssp;
  gp.check();
  cfg.distinct_roots = p.given("--roots");
  if (cfg.distinct_roots && cfg.num_roots > gp.num_vertices())
    throw usage_error("--roots " + std::to_string(cfg.num_roots) + " exceeds the 2^SCALE = " +
                      std::to_string(gp.num_vertices()) + " vertices");
  cfg.graph = gp;

  // The backend that runs, on stderr also where the progress lines (which name it) are off: the
  // stdout key block is the reference's, which has no such key.
  const auto say_backend = [&](const graph500::pipeline& pipe) {
    if (!quiet && !cfg.progress)
      std::fprintf(stderr, "graph500: SCALE %d, edgefactor %d, %s\n", gp.scale, gp.edgefactor, pipe.description().c_str());
  };
  const bool on_cuda = parse_backend(flags.backend) == backend::cuda;
  cfg.energy_source = on_cuda ? energy::source::gpu : energy::source::host;
  flags.set_bfs_runs(cfg.run_bfs);
  flags.set_sssp_runs(cfg.run_sssp);
  const dist::mpi_session mpi;  // under mpirun -np R > 1: one distributed run over the R ranks
  const dist::communicator comm = dist::communicator::world();
  if (comm.size() == 1) flags.check_single_process();
  // RAPL reads the whole host (every rank on it would count it again), as does NVML for a shared GPU.
  if (comm.size() > 1 && cfg.energy && (!on_cuda || flags.shares_gpus()))
    throw usage_error("--energy over several ranks needs the cuda backend with one GPU per rank");
  // Over several ranks (or one, with --one-rank-partition) the pipeline over ranks; an error on any
  // rank reaches main, which ends every rank with MPI_Abort and its exit code.
  const std::unique_ptr<graph500::pipeline> pipe =
      comm.size() > 1 || flags.one_rank_partition()
          ? std::unique_ptr<graph500::pipeline>(flags.make_distributed(comm, gp))
          : flags.make(gp);
  if (comm.rank() == 0) say_backend(*pipe);
  graph500::run_and_report(*pipe, cfg, stdout, json_path, comm);
  return 0;
}
