// python/src/core.hpp — what the files of the extension module gpu500._core share: the parts
// each file registers, and NumPy arrays that take over a C++ vector's memory (no copy).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

namespace gpu500::python {

namespace nb = nanobind;

/// A one-dimensional NumPy array of T.
template <class T>
using numpy_array = nb::ndarray<nb::numpy, T, nb::ndim<1>>;
/// A one-dimensional, C-contiguous host array of T from the caller (read only).
template <class T>
using input_array = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
/// The same in CUDA device memory (a PyTorch or CuPy array, or any DLPack producer on a GPU).
template <class T>
using device_array = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cuda>;

/// A NumPy array over the memory of `v` (any contiguous vector of T): the vector moves to the
/// heap and the array's capsule deletes it with the last reference. No element is copied.
template <class T, class Vec>
numpy_array<T> to_numpy(Vec&& v) {
  using vec = std::decay_t<Vec>;
  auto* heap = new vec(std::forward<Vec>(v));
  nb::capsule owner(heap, [](void* p) noexcept { delete static_cast<vec*>(p); });
  return numpy_array<T>(heap->data(), {heap->size()}, owner);
}

/// The backend a name selects here ("auto", "cpu", "cuda"), as the CLI's --backend resolves it:
/// "cpu" or "cuda"; usage_error for an unknown name or a backend this build or host lacks.
std::string resolve_backend(const std::string& name);

void bind_graphs(nb::module_& m);      // graphs.cpp: reading files, the Kronecker generator
void bind_searches(nb::module_& m);    // searches.cpp: BFS and SSSP engines over an edge list
void bind_benchmarks(nb::module_& m);  // benchmarks.cpp: Graph500, HPL and HPL-MxP runs as JSON records
void bind_hashmap(nb::module_& m);     // hashmap.cpp: the hash tables (GLHT on the GPU, hopscotch on the CPU)
void bind_trees(nb::module_& m);       // trees.cpp: BFS levels and layers from a parent tree

}  // namespace gpu500::python
