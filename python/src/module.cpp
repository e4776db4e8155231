// python/src/module.cpp — the extension module gpu500._core (nanobind): the project's errors
// mapped once to Python's (usage_error -> ValueError, resource_error -> MemoryError, any other
// gpu500::error -> RuntimeError, each with the message the CLI prints), the build's features,
// and the parts registered by the other files of python/src/. At import the OpenMP team is fitted
// to the idle cores, as the CLI does at start (core/host_team.hpp; OMP_NUM_THREADS is kept).
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
}
