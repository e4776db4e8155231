// src/hash/cuda/hopscotch_kernels.cuh — GLHT's host-API kernels and their dispatch: thin
// grid-stride kernels (insert, erase, find, mixed, the retries after a grow, rehash, count), each
// calling the device-side hopscotch_ref (gpu500/hash/hopscotch_ref.cuh) once per operation, and
// dispatch_tile / op_kernels, which pick the instantiation (tile size G, slot stride S, tile-1
// variant M) for a table's hopscotch_options. Private to src/hash/cuda/hopscotch_map.cu.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "gpu500/core/cuda/launch.cuh"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/hopscotch_map.hpp"
#include "gpu500/hash/hopscotch_ref.cuh"
#include "launch.cuh"

namespace gpu500::hash::detail {

// ------------------------------------------------------------------ kernels (thin)

/// Kernel variants of tile 1 (template parameter M): bit 0 compiles the overlapped claim in
/// (hopscotch_options::overlap_claim), bit 1 the re-converging loop (hopscotch_options::converge),
/// bit 2 the pair-CAS insert (hopscotch_options::pair_cas); M = -1 reads them from the view at run
/// time (the launch-bounded twins). Kernels without a feature do not pay its registers.
template <int M>
inline constexpr int overlap_of = M < 0 ? -1 : (M & 1);
template <int M>
inline constexpr int pair_cas_of = M < 0 ? -1 : ((M >> 2) & 1);

/// hopscotch_options::converge (tile 1): the grid-stride loop runs while any lane of the warp has
/// an operation left, and the warp re-converges at the top of every iteration. Nobody holds a lock
/// or a hole there (an operation releases both before it returns), so no lane waits on one that
/// waits at the __syncwarp.
template <int G, int M>
__device__ __forceinline__ bool converged(const hopscotch_view& v) {
  if constexpr (G != 1) {
    return false;
  } else if constexpr (M < 0) {
    return v.converge;
  } else {
    return (M & 2) != 0;
  }
}
/// Top of a grid-stride iteration: re-converge the warp when asked; true when i is an operation.
template <int G, int M>
__device__ __forceinline__ bool lane_active(const hopscotch_view& v, index_t i, index_t n) {
  if (converged<G, M>(v)) __syncwarp();
  return i < n;
}

template <int G, int S, int M>
__device__ __forceinline__ void insert_body(hopscotch_view v, const key_type* keys, const value_type* values, index_t n,
                                            insert_status* status, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S, overlap_of<M>, pair_cas_of<M>> ref(v);
  unsigned long long inserted = 0, no_room = 0;
  const index_t step = detail::op_stride<G>();
  index_t i = detail::first_op<G>();
  // The next operation's input is loaded while this one runs (one round trip fewer per op).
  key_type k = i < n ? keys[i] : 0;
  value_type x = i < n ? values[i] : 0;
  const index_t lane = converged<G, M>(v) ? static_cast<index_t>(gpu::lane_id()) : 0;
  for (; i - lane < n; i += step) {  // i < n unless converged: then while any lane of the warp has work
    const index_t j = i + step;
    const key_type next_k = j < n ? keys[j] : 0;
    const value_type next_x = j < n ? values[j] : 0;
    if (lane_active<G, M>(v, i, n)) {
      const insert_status r = ref.insert(t, k, x);
      if (t.leader()) {
        if (status) status[i] = r;
        inserted += r == insert_status::inserted;
        no_room += r == insert_status::no_room;
      }
    }
    k = next_k;
    x = next_x;
  }
  detail::block_add(counters, inserted, no_room);
}

/// M = 0 on interleaved or record slots (the tile-1 insert without re-converging, the `-nc` A/B)
/// fits 48 registers without spilling (5 blocks of 256 per SM); left alone ptxas sometimes gives it
/// 51 and 4 blocks, so it is capped to keep the A/B's kernel fixed. The other variants keep
/// ptxas's choice: they spill at 48, and the re-converging insert capped at 48 was slower
/// (4.34 -> 3.87 G/s on an H100).
template <int G, int S, int M>
inline constexpr int insert_min_blocks = G == 1 && M == 0 && (S == 2 || S == 4) ? 5 : 1;

template <int G, int S, int M>
__global__ void __launch_bounds__(256, insert_min_blocks<G, S, M>)
    insert_kernel(hopscotch_view v, const key_type* keys, const value_type* values, index_t n, insert_status* status,
                  unsigned long long* counters) {
  insert_body<G, S, M>(v, keys, values, n, status, counters);
}

/// The occupancy A/B (hopscotch_options::min_blocks): at least B blocks of 256 threads per SM
/// (B = 8: 32 registers, ptxas spills a little; B = 6: 40 registers).
template <int G, int S, int B>
__global__ void __launch_bounds__(256, B) insert_kernel_bounded(hopscotch_view v, const key_type* keys,
                                                                 const value_type* values, index_t n,
                                                                 insert_status* status, unsigned long long* counters) {
  insert_body<G, S, -1>(v, keys, values, n, status, counters);
}

/// Retry of the inserts that found no room (after a grow): status[i] == no_room only.
template <int G, int S>
__global__ void retry_insert_kernel(hopscotch_view v, const key_type* keys, const value_type* values, index_t n,
                                    insert_status* status, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long inserted = 0, no_room = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    if (status[i] != insert_status::no_room) continue;  // uniform: same i for the whole tile
    const insert_status r = ref.insert(t, keys[i], values[i]);
    if (t.leader()) {
      status[i] = r;
      inserted += r == insert_status::inserted;
      no_room += r == insert_status::no_room;
    }
  }
  detail::block_add(counters, inserted, no_room);
}

template <int G, int S>
__global__ void erase_kernel(hopscotch_view v, const key_type* keys, index_t n, std::uint8_t* erased,
                             unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long count = 0;
  const index_t lane = converged<G, -1>(v) ? static_cast<index_t>(gpu::lane_id()) : 0;
  for (index_t i = detail::first_op<G>(); i - lane < n; i += detail::op_stride<G>()) {  // as in insert_body
    if (!lane_active<G, -1>(v, i, n)) continue;
    const bool r = ref.erase(t, keys[i]);
    if (t.leader()) {
      if (erased) erased[i] = r;
      count += r;
    }
  }
  detail::block_add(counters, count, 0);
}

template <int G, int S>
__global__ void find_kernel(hopscotch_view v, const key_type* keys, index_t n, value_type* values,
                            std::uint8_t* found, unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long count = 0;
  const index_t step = detail::op_stride<G>();
  index_t i = detail::first_op<G>();
  key_type k = i < n ? keys[i] : 0;  // prefetched one operation ahead, as in insert_body
  const index_t lane = converged<G, -1>(v) ? static_cast<index_t>(gpu::lane_id()) : 0;
  for (; i - lane < n; i += step) {  // as in insert_body
    const key_type next_k = i + step < n ? keys[i + step] : 0;
    if (!lane_active<G, -1>(v, i, n)) continue;
    value_type x = 0;
    const bool r = ref.find(t, k, x);
    if (t.leader()) {
      if (values) values[i] = r ? x : 0;
      if (found) found[i] = r;
      count += r;
    }
    k = next_k;
  }
  if (counters) detail::block_add(counters, count, 0);
}

template <int G, int S, int M>
__device__ __forceinline__ void mixed_body(hopscotch_view v, const op* ops, index_t n, op_result* results,
                                           unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S, overlap_of<M>, pair_cas_of<M>> ref(v);
  unsigned long long no_room = 0;
  const index_t step = detail::op_stride<G>();
  index_t i = detail::first_op<G>();
  op next = i < n ? ops[i] : op{};  // prefetched one operation ahead, as in insert_body
  const index_t lane = converged<G, M>(v) ? static_cast<index_t>(gpu::lane_id()) : 0;
  for (; i - lane < n; i += step) {  // as in insert_body
    const op o = next;
    if (i + step < n) next = ops[i + step];
    if (!lane_active<G, M>(v, i, n)) continue;
    op_result r{0, 0};
    switch (o.kind) {
      case op_kind::insert:
        r.code = static_cast<std::uint32_t>(ref.insert(t, o.key, o.value));
        break;
      case op_kind::erase:
        r.code = ref.erase(t, o.key);
        break;
      default:
        r.code = ref.find(t, o.key, r.value);
        break;
    }
    if (t.leader()) {
      if (results) results[i] = r;
      no_room += o.kind == op_kind::insert && r.code == static_cast<std::uint32_t>(insert_status::no_room);
    }
  }
  detail::block_add(counters, 0, no_room);
}

template <int G, int S, int M>
__global__ void mixed_kernel(hopscotch_view v, const op* ops, index_t n, op_result* results,
                             unsigned long long* counters) {
  mixed_body<G, S, M>(v, ops, n, results, counters);
}
template <int G, int S, int B>
__global__ void __launch_bounds__(256, B) mixed_kernel_bounded(hopscotch_view v, const op* ops, index_t n,
                                                                op_result* results, unsigned long long* counters) {
  mixed_body<G, S, -1>(v, ops, n, results, counters);
}

template <int G, int S>
__global__ void retry_mixed_kernel(hopscotch_view v, const op* ops, index_t n, op_result* results,
                                   unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(v);
  unsigned long long no_room = 0;
  for (index_t i = detail::first_op<G>(); i < n; i += detail::op_stride<G>()) {
    const op o = ops[i];
    if (o.kind != op_kind::insert || results[i].code != static_cast<std::uint32_t>(insert_status::no_room))
      continue;
    const auto r = ref.insert(t, o.key, o.value);
    if (t.leader()) {
      results[i].code = static_cast<std::uint32_t>(r);
      no_room += r == insert_status::no_room;
    }
  }
  detail::block_add(counters, 0, no_room);
}

/// Key and value of item i of a table: slot i below `slots`, then stash pair i - slots.
__device__ __forceinline__ key_type* item_key(const hopscotch_view& v, index_t i, index_t slots) {
  return i < slots ? v.key_ptr(i) : v.stash + 2 * (i - slots);
}

/// Rehash: every item of the old table (slots, then stash pairs) into the new one (a tile each).
template <int G, int S>
__global__ void rehash_kernel(hopscotch_view to, hopscotch_view from, index_t slots, index_t items,
                              unsigned long long* counters) {
  const tile<G> t;
  const hopscotch_ref<G, S> ref(to);
  unsigned long long no_room = 0;
  for (index_t i = detail::first_op<G>(); i < items; i += detail::op_stride<G>()) {
    const key_type* kp = item_key(from, i, slots);
    const key_type k = *kp;
    if (!valid_key(k)) continue;
    const auto r = ref.insert(t, k, i < slots ? *from.value_ptr(i) : kp[1]);
    if (t.leader()) no_room += r == insert_status::no_room;
  }
  detail::block_add(counters, 0, no_room);
}

__global__ void count_kernel(hopscotch_view v, index_t slots, index_t items, unsigned long long* counters) {
  unsigned long long c = 0;
  for (const index_t i : gpu::grid_stride(items)) c += valid_key(*item_key(v, i, slots));
  detail::block_add(counters, c, 0);
}

// ------------------------------------------------------------------ dispatch

/// The insert and mixed kernels for the options: hopscotch_options::min_blocks picks a
/// launch-bounded twin (it reads overlap_claim, converge and pair_cas at run time), otherwise
/// overlap_claim, converge and pair_cas pick the variant M that compiles exactly those in (the
/// pair-CAS kernels exist for 16-byte slots only: interleaved, records, or a run-time stride). All
/// of it exists for tile 1 only.
template <int G, int S>
struct op_kernels {
  template <class K, template <int, int, int> class Pick>
  static K pick(const hopscotch_options& o) {
    if constexpr (G == 1 && S != 1) {
      if (o.pair_cas) return o.converge ? Pick<G, S, 6>::get() : Pick<G, S, 4>::get();
    }
    if constexpr (G == 1) {
      switch ((o.overlap_claim ? 1 : 0) | (o.converge ? 2 : 0)) {
        case 1: return Pick<G, S, 1>::get();
        case 2: return Pick<G, S, 2>::get();
        case 3: return Pick<G, S, 3>::get();
        default: break;
      }
    }
    return Pick<G, S, 0>::get();
  }
  template <int G_, int S_, int M>
  struct insert_of {
    static auto get() { return &insert_kernel<G_, S_, M>; }
  };
  template <int G_, int S_, int M>
  struct mixed_of {
    static auto get() { return &mixed_kernel<G_, S_, M>; }
  };
  static auto insert(const hopscotch_options& o) {
    using K = decltype(&insert_kernel<G, S, 0>);
    if constexpr (G == 1) {
      if (o.min_blocks == 8) return K{&insert_kernel_bounded<G, S, 8>};
      if (o.min_blocks == 6) return K{&insert_kernel_bounded<G, S, 6>};
    }
    return pick<K, insert_of>(o);
  }
  static auto mixed(const hopscotch_options& o) {
    using K = decltype(&mixed_kernel<G, S, 0>);
    if constexpr (G == 1) {
      if (o.min_blocks == 8) return K{&mixed_kernel_bounded<G, S, 8>};
      if (o.min_blocks == 6) return K{&mixed_kernel_bounded<G, S, 6>};
    }
    return pick<K, mixed_of>(o);
  }
};

/// Slot stride of a layout, in 64-bit words.
constexpr unsigned stride_of(slot_layout l) {
  return l == slot_layout::record ? 4u : l == slot_layout::interleaved ? 2u : 1u;
}

template <int G, class F>
void with_stride(unsigned s, F& f) {
  if (s == 4) f.template operator()<G, 4>();
  else if (s == 2) f.template operator()<G, 2>();
  else f.template operator()<G, 1>();
}

/// Calls f.template operator()<G, S>() for the options' tile size G and slot stride S (1: split,
/// 2: interleaved, 4: records; 0: read from the view at run time, the A/B of
/// hopscotch_options::static_stride).
template <class F>
void dispatch_tile(const hopscotch_options& o, F&& f) {
  const unsigned s = stride_of(o.layout);
  if (!o.static_stride) {
    switch (o.tile) {
      case 32: f.template operator()<32, 0>(); return;
      case 1: f.template operator()<1, 0>(); return;
      default: throw usage_error("hash: a run-time slot stride is built for tile sizes 1 and 32 only");
    }
  }
  switch (o.tile) {
    case 32: with_stride<32>(s, f); break;
    case 8: with_stride<8>(s, f); break;
    case 4: with_stride<4>(s, f); break;
    case 1: with_stride<1>(s, f); break;
    default: throw usage_error("hash: tile size must be 1, 4, 8 or 32, got " + std::to_string(o.tile));
  }
}

}  // namespace gpu500::hash::detail
