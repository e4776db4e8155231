// Table variants of the GLHT GPU tests (tile size, find mode, layout and the design options of
// hopscotch_options), their test names and their options; shared by test_hash_gpu and
// test_hash_gpu_long.
#pragma once

#include <string>
#include <vector>

#include "gpu500/hash/hopscotch_map.hpp"

namespace gpu500::hash::testing {

/// Table variants: tile size and find mode.
struct variant {
  int tile;
  find_mode find;
  bool precheck;
  slot_layout layout = slot_layout::split;
  bool static_stride = true;
  int min_blocks = 0;
  bool home_first = false;
  bool home_claim = false;
  bool pair_store = false;
  bool occupancy = false;
  bool fenced_atomics = false;  // the A/B of a full fence after the lock and the claim
  bool overlap_claim = false;   // tile 1 with occupancy bits: claim beside the member reads
  bool converge = true;         // tile 1: the warp re-converges before each operation (false: the A/B)
  bool acquire_find = false;    // look-ups validate with acquire loads instead of a fence
  bool pair_cas = false;        // tile 1, 16-byte slots: the pair-CAS insert (compute capability 9.0)
};
inline std::string name_of(const variant& v) {
  std::string n = "t";
  n.append(std::to_string(v.tile));
  n.append(v.find == find_mode::bitmap ? "_bitmap" : "_window");
  if (!v.precheck) n.append("_noprecheck");
  if (v.layout == slot_layout::interleaved) n.append("_aos");
  if (v.layout == slot_layout::record) n.append("_rec");
  if (!v.static_stride) n.append("_rs");
  if (v.min_blocks) n.append("_b" + std::to_string(v.min_blocks));
  if (v.home_first) n.append("_h1");
  if (v.home_claim) n.append("_hc");
  if (v.pair_store) n.append("_ps");
  if (v.occupancy) n.append("_oc");
  if (v.fenced_atomics) n.append("_fa");
  if (v.overlap_claim) n.append("_ov");
  if (v.tile == 1 && !v.converge) n.append("_nc");
  if (v.acquire_find) n.append("_af");
  if (v.pair_cas) n.append("_pcas");
  return n;
}
inline hopscotch_options options_of(const variant& v) {
  hopscotch_options o;
  o.tile = v.tile;
  o.find = v.find;
  o.precheck = v.precheck;
  o.layout = v.layout;
  o.static_stride = v.static_stride;
  o.min_blocks = v.min_blocks;
  o.home_first = v.home_first;
  o.home_claim = v.home_claim;
  o.pair_store = v.pair_store;
  o.occupancy = v.occupancy;
  o.fenced_atomics = v.fenced_atomics;
  o.overlap_claim = v.overlap_claim;
  o.converge = v.converge;
  o.acquire_find = v.acquire_find;
  o.pair_cas = v.pair_cas;
  return o;
}

/// A device view carrying the options of o and no arrays (the stress harnesses point it at their
/// own tables): what hopscotch_map's view holds besides its pointers and sizes.
inline hopscotch_view view_options(const hopscotch_options& o) {
  hopscotch_view v;
  v.probe_limit = o.probe_limit;
  v.bitmap_find = o.find == find_mode::bitmap;
  v.precheck = o.precheck;
  v.stride = o.layout == slot_layout::record ? 4u : o.layout == slot_layout::interleaved ? 2u : 1u;
  v.meta_stride = o.layout == slot_layout::record ? 4u : 1u;
  v.home_first = o.home_first;
  v.home_claim = o.home_claim;
  v.pair_store = o.pair_store;
  v.fenced_atomics = o.fenced_atomics;
  v.overlap_claim = o.overlap_claim;
  v.converge = o.converge;
  v.acquire_find = o.acquire_find;
  v.pair_cas = o.pair_cas;
  return v;
}

/// Every variant the GPU tests run.
inline std::vector<variant> all_variants() {
  return {
      variant{32, find_mode::window, true}, variant{32, find_mode::bitmap, true},
      variant{8, find_mode::bitmap, true}, variant{1, find_mode::bitmap, true},
      variant{1, find_mode::window, false}, variant{4, find_mode::window, false},
      variant{1, find_mode::bitmap, true, slot_layout::interleaved},
      variant{32, find_mode::window, true, slot_layout::interleaved},
      variant{1, find_mode::bitmap, false, slot_layout::interleaved},
      variant{1, find_mode::bitmap, true, slot_layout::interleaved, false},
      variant{1, find_mode::bitmap, false, slot_layout::interleaved, true, 8},
      variant{32, find_mode::window, false, slot_layout::split, false},
      variant{1, find_mode::bitmap, false, slot_layout::record},
      variant{1, find_mode::bitmap, true, slot_layout::record},
      variant{1, find_mode::bitmap, false, slot_layout::record, false},
      variant{32, find_mode::window, true, slot_layout::record},
      variant{8, find_mode::bitmap, false, slot_layout::record},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, true},
      variant{1, find_mode::bitmap, true, slot_layout::interleaved, true, 0, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, true, true},
      variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, true, true},
      variant{1, find_mode::bitmap, true, slot_layout::interleaved, true, 0, false, true, true},
      variant{1, find_mode::bitmap, false, slot_layout::split, true, 0, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, false, 0, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, true, true, true},
      variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, true, true, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::interleaved, true, 0, false, true, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, false, 0, false, true, false, true},
      variant{32, find_mode::window, true, slot_layout::split, true, 0, false, false, false, true},
      variant{8, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, true},
      variant{32, find_mode::window, true, slot_layout::split, true, 0, false, false, false, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, true, false},
      variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, false, true, true, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::interleaved, true, 0, false, false, false, true, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::split, false, 0, false, false, false, true, false, true},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, false, false},
      variant{1, find_mode::bitmap, true, slot_layout::record, true, 0, false, false, false, false, false, false, false},
      variant{1, find_mode::window, false, slot_layout::split, true, 0, false, false, false, false, false, false, false},
      variant{1, find_mode::bitmap, false, slot_layout::record, true, 0, false, false, false, true, false, false, true, true},
      variant{1, find_mode::window, false, slot_layout::split, true, 0, false, false, false, false, false, false, false,
              true},
      variant{32, find_mode::window, true, slot_layout::split, true, 0, false, false, false, false, false, false, true,
              true},
      variant{8, find_mode::bitmap, true, slot_layout::interleaved, true, 0, false, false, false, false, false, false,
              true, true},
      // The pair-CAS insert (tile 1, interleaved or record slots): with and without precheck (it
      // decides erase's look-up only), a run-time stride, drifting lanes, acquire-validated
      // look-ups, and home claim with pair store in its locked fallback.
      variant{.tile = 1, .find = find_mode::bitmap, .precheck = true, .layout = slot_layout::interleaved,
              .pair_cas = true},
      variant{.tile = 1, .find = find_mode::bitmap, .precheck = false, .layout = slot_layout::record,
              .pair_cas = true},
      variant{.tile = 1, .find = find_mode::bitmap, .precheck = true, .layout = slot_layout::interleaved,
              .static_stride = false, .pair_cas = true},
      variant{.tile = 1, .find = find_mode::bitmap, .precheck = false, .layout = slot_layout::record,
              .converge = false, .pair_cas = true},
      variant{.tile = 1, .find = find_mode::bitmap, .precheck = true, .layout = slot_layout::record,
              .acquire_find = true, .pair_cas = true},
      variant{.tile = 1, .find = find_mode::bitmap, .precheck = false, .layout = slot_layout::record,
              .home_claim = true, .pair_store = true, .pair_cas = true}};
}

/// Whether variant v can run on a device of compute capability `major`.x (the pair-CAS insert
/// needs 9.0; hopscotch_map refuses it below).
inline bool runs_on(const variant& v, int major) { return !v.pair_cas || major >= 9; }

}  // namespace gpu500::hash::testing
