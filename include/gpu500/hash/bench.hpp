// gpu500/hash/bench.hpp — the GLHT benchmark (`gpu500 hash static|mixed`): the experiments of the
// GLHT paper (Zhang & Sun, "GPU Lock-Free Hopscotch Hash Table", 2019) on GLHT, the GPU baselines
// and the CPU hopscotch table.
//
// static: bulk build of `keys` distinct random keys at each load factor, then bulk retrieval of
//   every key (find-hit) and of as many absent keys (find-miss); median of `runs`.
// mixed:  `ops` operations with [insert, erase, find] percentages, keys uniform in [0, range),
//   one concurrent batch on an empty table, median of `runs`; then GPU scale (2^k operations,
//   key range 2^k).
// Every table (GLHT variants, GPU baselines, the CPU hopscotch table) runs the same inputs. Results
// are validated (static: every hit found with its value, every miss absent; mixed: the batch
// checker of model.hpp on the first run where the batch has at most `check_limit` operations).
#pragma once

#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "gpu500/core/json.hpp"
#include "gpu500/core/types.hpp"
#include "gpu500/hash/common.hpp"
#include "gpu500/hash/hopscotch_map.hpp"

namespace gpu500::hash {

struct static_config {
  index_t keys = index_t{1} << 26;
  std::vector<double> load_factors{0.8, 0.9};
  std::vector<std::string> tables;  ///< empty: every table of the backend
  int runs = 3;
  std::uint64_t seed = 2019;
  backend where = backend::cuda;
  bool with_cpu = true;  ///< cuda backend: also run the CPU table (for the speed-up)
  bool glht_variants = false;  ///< also accept every GLHT variant parse_glht_variant knows (bench targets)
};

struct mixed_config {
  index_t ops = 100000;
  std::vector<index_t> ranges{100, 1000, 10000, 100000};
  std::vector<std::array<int, 3>> mixes{{20, 20, 60}, {40, 40, 20}};
  std::vector<int> scale_log2{24, 25, 26};  ///< GPU scale runs (cuda backend only)
  std::vector<std::string> tables;
  int runs = 5;
  std::uint64_t seed = 2019;
  backend where = backend::cuda;
  bool with_cpu = true;
  index_t check_limit = 4000000;
  bool glht_variants = false;
};

/// What `gpu500 hash static|mixed` asks for. An unset optional takes the mode's default (the
/// help text of the command states it); a field of the other mode, or one the backend cannot use,
/// set at all is a usage_error.
struct bench_request {
  std::string mode;  ///< "static" or "mixed"
  std::string backend_name = "auto";  ///< auto | cpu | cuda
  bool with_cpu = true;             ///< cuda backend only: false drops the CPU table
  std::vector<std::string> tables;  ///< named tables (gpu_table_names() and "cpu"); empty: all
  std::optional<index_t> keys;                        ///< static
  std::optional<std::vector<double>> load_factors;    ///< static
  std::optional<index_t> ops;                         ///< mixed
  std::optional<std::vector<index_t>> ranges;         ///< mixed
  std::optional<std::vector<std::array<int, 3>>> mixes;  ///< mixed
  std::optional<std::vector<int>> scale_log2;         ///< mixed, cuda backend
  std::optional<index_t> check_limit;                 ///< mixed
  std::optional<int> runs;
  std::uint64_t seed = 2019;
  std::string json_path;  ///< non-empty: every figure is written there as JSON
  bool full = false;      ///< static, cuda: every named table and the CPU table at LF 0.5,0.8,0.9,0.95
};

/// Checks the request, runs the benchmark, prints the report on `out` (its last line the verdict)
/// and writes the JSON. Returns true when every result passed validation.
bool run_bench(const bench_request& r, std::FILE* out);

/// The command's list values: "a,b,c" (empty items dropped), load factors "0.8,0.9", mixes
/// "20/20/60,40/40/20". Bad input is a usage_error naming `flag`.
std::vector<std::string> split_list(const std::string& s);
std::vector<double> parse_load_factors(const std::string& s, const char* flag);
std::vector<std::array<int, 3>> parse_mixes(const std::string& s, const char* flag);

/// Run and print the tables on `out`; return every figure as JSON. *valid tells whether every
/// result passed validation (the last line printed is "validation: passed" or "...: FAILED").
json::value run_static_bench(const static_config& cfg, std::FILE* out, bool* valid);
json::value run_mixed_bench(const mixed_config& cfg, std::FILE* out, bool* valid);

/// The named GPU tables (`--full` runs them all), in report order.
std::vector<std::string> gpu_table_names();
/// Tables of gpu_table_names() with no mixed operations, which `hash mixed` refuses when named and
/// leaves out otherwise: cuckoo (a bulk build) and linear-aos-cas16 (inserts, then finds).
bool static_only_table(const std::string& name);
/// The tables `gpu500 hash static` runs on cuda by default: the GLHT variants worth reporting,
/// then their peers.
std::vector<std::string> default_static_tables();

/// GLHT benchmark variants: a base name, then any of the suffixes below in any order. The command
/// runs the named tables of gpu_table_names() only; the others are design experiments kept for
/// the bench target bench/hash (hash_variants).
///   glht         warp per operation, window find (the paper)
///   glht-bitmap  warp per operation, bitmap find
///   glht-t8      8 lanes per operation, bitmap find
///   glht-t1      thread per operation, bitmap find, split slots
///   glht-t1-aos  thread per operation, bitmap find, interleaved slots
///   glht-t1-rec  thread per operation, bitmap find, 32-byte records (bucket word beside slot b)
///   glht-rec     warp per operation, window find, 32-byte records
///   -np          no precheck (insert and erase lock first)
///   -rs          slot stride read at run time (tiles 1 and 32)
///   -b6, -b8     tile 1: launch bounds for 6 or 8 blocks of 256 threads per SM
///   -h1          tile 1: inserts try the home slot alone before reading batches
///   -hc          tile 1: home claim beside the lock
///   -ps          one 16-byte store of key and value (interleaved and record slots)
///   -oc          occupancy bits
///   -fa          fences instead of acquire atomics
///   -ov          tile 1 with -oc: overlapped claim
///   -nc          tile 1: lanes drift (no re-converging per operation)
///   -af          look-ups validate with acquire loads instead of a fence
///   -pcas        the pair-CAS insert (glht-t1-aos and glht-t1-rec only, not with -oc; compute
///                capability 9.0): no lock, one 16-byte CAS claims and fills a slot
/// Returns false when `name` is not such a variant; throws usage_error for -pcas on a base or with
/// a suffix it cannot apply to (split slots cannot take a 16-byte CAS of key and value).
bool parse_glht_variant(const std::string& name, hopscotch_options* o);

// ---- GPU side (bench_gpu.cu; without CUDA these throw) ----
namespace bench_gpu {
struct static_timing {
  double insert_s = 0, find_hit_s = 0, find_miss_s = 0;
  double reinsert_s = 0;  ///< the same inserts again into the full table (all 'present'); 0: not run
  int build_attempts = 1;
  std::int64_t no_room = 0;  ///< keys an insert could not place (H = 31 at high load; no growth)
  std::string error;  ///< non-empty: validation failed
};
struct mixed_timing {
  double seconds = 0;
  bool checked = false;
  std::string error;
};
bool available();
std::string device_name();
/// Bandwidth of a device-to-device copy of `bytes` bytes (read + write counted), GB/s.
double copy_bandwidth_gbs(std::size_t bytes);
/// Refuses (resource_error) a static run of `keys` keys at `load_factor` whose arrays and table
/// cannot fit in the device's free memory: per key, the keys, absent keys, values, found values,
/// two status arrays and two flags; per bucket at least a key and a value.
void check_static_memory(index_t keys, double load_factor);
static_timing run_static(const std::string& table, const std::vector<key_type>& keys,
                         const std::vector<value_type>& values, const std::vector<key_type>& absent,
                         double load_factor, int runs, bool check_invariants);
mixed_timing run_mixed(const std::string& table, const std::vector<op>& ops, index_t range, int runs,
                       bool validate);
/// The static benchmark's check of one run, counted on the device (device arrays): key i's first
/// insert status st[i] (null: all inserted), its second again[i] (null: not run), the hit
/// look-up's found[i] and got[i] against the value inserted want[i]; the miss look-up's flags
/// miss[j] of n_miss absent keys. A key that found no room must be absent and may be placed by
/// the second insert; every other key inserted, found with its value and 'present' the second
/// time; no absent key found.
struct static_check {
  std::int64_t no_room = 0, bad_status = 0, missed = 0, wrong = 0, phantom = 0, bad_again = 0, placed_again = 0;
};
static_check check_static_results(const insert_status* st, const insert_status* again, const std::uint8_t* found,
                                  const value_type* got, const value_type* want, index_t n,
                                  const std::uint8_t* miss, index_t n_miss);
}  // namespace bench_gpu

}  // namespace gpu500::hash
