// src/hash/cpu/bench_tables.cpp — the tables the hash benchmark knows (gpu500/hash/bench.hpp): the
// named GPU tables, the default static list, the GLHT variant names (a base and suffixes, each a
// hopscotch_options field) and the list of tables a run takes.
#include "bench_tables.hpp"

#include <algorithm>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hash/bench.hpp"
#include "gpu500/hash/hopscotch_map.hpp"

namespace gpu500::hash {

std::vector<std::string> gpu_table_names() {
  return {"glht",           "glht-bitmap",          "glht-t8",       "glht-t1",   "glht-t1-aos",
          "glht-t1-rec",    "glht-t1-rec-np",       "glht-t1-rec-np-oc",          "glht-t1-rec-np-oc-nc",
          "glht-t1-rec-hc-ps-oc",   "glht-t1-aos-pcas",     "glht-t1-rec-pcas",
          "linear",         "linear-aos",           "linear-aos-cas16",           "quadratic",
          "cuckoo",         "chained",              "chained-alloc"};
}

bool static_only_table(const std::string& name) { return name == "cuckoo" || name == "linear-aos-cas16"; }

std::vector<std::string> default_static_tables() {
  return {"glht-t1-rec-np-oc", "glht-t1-rec-hc-ps-oc", "glht", "linear-aos", "quadratic"};
}

bool parse_glht_variant(const std::string& name, hopscotch_options* o) {
  hopscotch_options r;
  std::string base = name;
  auto strip = [&](const char* suffix) {
    const std::string s(suffix);
    if (base.size() <= s.size() || base.compare(base.size() - s.size(), s.size(), s) != 0) return false;
    base.resize(base.size() - s.size());
    return true;
  };
  for (bool more = true; more;) {
    more = false;
    if (strip("-np")) r.precheck = false, more = true;
    if (strip("-rs")) r.static_stride = false, more = true;
    if (strip("-b6")) r.min_blocks = 6, more = true;
    if (strip("-b8")) r.min_blocks = 8, more = true;
    if (strip("-h1")) r.home_first = true, more = true;
    if (strip("-hc")) r.home_claim = true, more = true;
    if (strip("-ps")) r.pair_store = true, more = true;
    if (strip("-oc")) r.occupancy = true, more = true;
    if (strip("-fa")) r.fenced_atomics = true, more = true;
    if (strip("-ov")) r.overlap_claim = true, more = true;
    if (strip("-nc")) r.converge = false, more = true;
    if (strip("-af")) r.acquire_find = true, more = true;
    if (strip("-pcas")) r.pair_cas = true, more = true;
  }
  r.find = find_mode::bitmap;
  if (base == "glht") r.tile = 32, r.find = find_mode::window;
  else if (base == "glht-bitmap") r.tile = 32;
  else if (base == "glht-t8") r.tile = 8;
  else if (base == "glht-t1") r.tile = 1;
  else if (base == "glht-t1-aos") r.tile = 1, r.layout = slot_layout::interleaved;
  else if (base == "glht-t1-rec") r.tile = 1, r.layout = slot_layout::record;
  else if (base == "glht-rec") r.tile = 32, r.find = find_mode::window, r.layout = slot_layout::record;
  else return false;
  if ((r.min_blocks != 0 || r.home_claim || !r.converge) && r.tile != 1) return false;
  if (r.overlap_claim && (r.tile != 1 || !r.occupancy || r.home_claim)) return false;
  if (r.pair_store && r.layout == slot_layout::split) return false;
  if (!r.static_stride && r.tile != 1 && r.tile != 32) return false;
  if (r.pair_cas && (r.tile != 1 || r.layout == slot_layout::split || r.occupancy))
    throw usage_error("hash: '" + name +
                      "': -pcas (the pair-CAS insert) needs one thread per operation on interleaved or record "
                      "slots (glht-t1-aos, glht-t1-rec) without -oc: its 16-byte CAS claims a key and its value "
                      "together, and split slots keep them in two arrays");
  *o = r;
  return true;
}

/// The tables to run: `asked`, or every table of the backend. Names must be named tables (or, with
/// `variants`, any GLHT variant of parse_glht_variant).
std::vector<std::string> tables_for(const std::vector<std::string>& asked, backend where, bool with_cpu,
                                    bool variants) {
  std::vector<std::string> t = asked;
  if (t.empty()) {
    // The pair-CAS tables need a 16-byte CAS (compute capability 9.0): left out of the default
    // list on an older device (named there, they are refused).
    if (where == backend::cuda) {
      const auto devices = cuda_devices();
      const bool cas16 = !devices.empty() && devices.front().sm_major >= 9;
      for (const auto& name : gpu_table_names())
        if (cas16 || !(name == "linear-aos-cas16" || name.ends_with("-pcas"))) t.push_back(name);
    }
    if (where == backend::cpu || with_cpu) t.push_back("cpu");
  }
  const auto all = gpu_table_names();
  for (const auto& name : t) {
    hopscotch_options ignored;
    if (name != "cpu" && std::find(all.begin(), all.end(), name) == all.end() &&
        !(variants && parse_glht_variant(name, &ignored))) {
      std::string known;
      for (const auto& a : all) known += a + " ";
      throw usage_error("hash: unknown table '" + name + "' (tables: " + known + "cpu" +
                        (variants ? "; GLHT suffixes -np -rs -b6 -b8 -h1 -hc -ps -oc -fa -ov -nc -af -pcas)" : ")"));
    }
    if (name != "cpu" && where == backend::cpu) throw usage_error("hash: table '" + name + "' needs --backend cuda");
  }
  return t;
}

}  // namespace gpu500::hash
