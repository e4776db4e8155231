// python/src/module.cpp — the extension module gpu500._core (nanobind): the project's errors
// mapped once to Python's (usage_error -> ValueError, resource_error -> MemoryError, any other
// gpu500::error -> RuntimeError, each with the message the CLI prints), the build's features,
// and the parts registered by the other files of python/src/. At import the OpenMP team is fitted
// to the idle cores, as the CLI does at start (core/host_team.hpp; OMP_NUM_THREADS is kept).
// With GPU500_CRASH_TRACE=1 (the test suite sets it) a segmentation fault or abort in the module
// first prints the native frames (addresses inside _core.so for addr2line), then goes on to the
// handler that was there before (Python's faulthandler prints the Python frames).
#include <execinfo.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <string>

#include "core.hpp"
#include "gpu500/config.hpp"
#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/host_team.hpp"
#include "gpu500/core/provenance.hpp"

namespace gpu500::python {

std::string resolve_backend(const std::string& name) { return backend_name(parse_backend(name)); }

}  // namespace gpu500::python

namespace {

struct sigaction previous_segv, previous_abrt;

void print_native_frames(int sig, siginfo_t*, void*) {
  static const char head[] = "gpu500._core: fatal signal, native frames:\n";
  (void)!write(STDERR_FILENO, head, sizeof head - 1);
  void* frames[64];
  backtrace_symbols_fd(frames, backtrace(frames, 64), STDERR_FILENO);
  sigaction(sig, sig == SIGSEGV ? &previous_segv : &previous_abrt, nullptr);
  raise(sig);
}

void install_crash_trace() {
  const char* on = std::getenv("GPU500_CRASH_TRACE");
  if (!on || std::string(on) != "1") return;
  void* warm[1];
  backtrace(warm, 1);  // loads the unwinder now: the handler must not be the first caller
  struct sigaction sa {};
  sa.sa_sigaction = print_native_frames;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSEGV, &sa, &previous_segv);
  sigaction(SIGABRT, &sa, &previous_abrt);
}

}  // namespace

NB_MODULE(_core, m) {
  namespace nb = nanobind;
  using namespace gpu500::python;
  m.doc() = "gpu500's C++ library (the public API of include/gpu500/) for the Python package gpu500";

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const gpu500::usage_error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const gpu500::resource_error& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const gpu500::error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  install_crash_trace();
  gpu500::fit_openmp_team_to_idle_cores();

  m.attr("has_cuda_build") = static_cast<bool>(GPU500_HAVE_CUDA);
  m.def("cuda_available", &gpu500::cuda_available, "True when the CUDA backend is built in and a GPU is visible");
  m.def("resolve_backend", &resolve_backend, nb::arg("name"),
        "The backend 'auto', 'cpu' or 'cuda' selects here: 'cpu' or 'cuda' (ValueError otherwise)");
  m.def("provenance", [] { return gpu500::provenance::to_json(gpu500::provenance::current()).dump(); },
        "The build and host record of every --json document, as a JSON string");

  bind_graphs(m);
  bind_searches(m);
  bind_benchmarks(m);
  bind_hashmap(m);
  bind_trees(m);
}
