// src/hash/cpu/bench.cpp — the hash benchmark harness (gpu500/hash/bench.hpp): inputs, the CPU
// table's runs, the report and the JSON. The named tables and the GLHT variant names are in
// bench_tables.cpp, the GPU tables run in cuda/bench_gpu.cu, and the command's request is checked
// in bench_request.cpp.
#include "gpu500/hash/bench.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <span>
#include <unordered_map>

#include "gpu500/core/device.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/core/stats.hpp"
#include "gpu500/core/timer.hpp"
#include "gpu500/hash/cpu_hopscotch.hpp"
#include "gpu500/hash/model.hpp"
#include "bench_tables.hpp"

namespace gpu500::hash {

namespace {

/// Distinct keys: fmix64 is a bijection, so fmix64(base + i) never repeats; present keys take
/// i in [0, n), absent keys i in [n, 2n).
std::vector<key_type> distinct_keys(std::uint64_t seed, index_t first, index_t n) {
  std::vector<key_type> k(static_cast<std::size_t>(n));
  const std::uint64_t base = fmix64(seed) << 32;
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < n; ++i) k[i] = fmix64(base + static_cast<std::uint64_t>(first + i)) >> 1;  // < 2^63
  return k;
}

std::vector<op> make_ops(index_t n, index_t range, const std::array<int, 3>& mix, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> key(0, static_cast<std::uint64_t>(range) - 1);
  std::uniform_int_distribution<int> pct(0, 99);
  std::vector<op> ops(static_cast<std::size_t>(n));
  for (auto& o : ops) {
    const int p = pct(rng);
    o.kind = p < mix[0] ? op_kind::insert : p < mix[0] + mix[1] ? op_kind::erase : op_kind::find;
    o.key = key(rng);
    o.value = rng() >> 1;
  }
  return ops;
}

/// Lower bound of DRAM bytes per operation, the same model for every table: the operation's
/// input and output arrays plus one 32-byte sector of the table per key touched and one per value.
constexpr double kBytesInsert = 16 + 1 + 64, kBytesHit = 8 + 8 + 1 + 64, kBytesMiss = 8 + 1 + 32;

std::string mix_name(const std::array<int, 3>& m) {
  return std::to_string(m[0]) + "/" + std::to_string(m[1]) + "/" + std::to_string(m[2]);
}

struct cpu_static {
  double insert_s, hit_s, miss_s;
  std::int64_t no_room;
  std::string error;
};

/// a[0, n) = fill on the OpenMP team (untimed: before each timed run, so that what the run does
/// not write fails validation instead of passing with an earlier run's result).
template <class T>
void team_fill(T* a, std::size_t n, T fill) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) a[i] = fill;
}

/// An output array of the CPU table's timed runs, allocated before the timer and first-touched by
/// the OpenMP team, as the GPU side allocates its device arrays before timing: no allocation,
/// page fault or zeroing inside a timed region.
template <class T>
std::unique_ptr<T[]> team_touched(std::size_t n, T fill) {
  std::unique_ptr<T[]> a(new T[n]);
  team_fill(a.get(), n, fill);
  return a;
}

/// Untimed warm-up before a CPU case is timed: run_once() (the whole case on a scratch table) at
/// least once and until kWarmSeconds have passed, so every timed run measures the steady state.
/// A fresh process's OpenMP threads can share one core for its first ~0.1 s (on the 2-core dev
/// host the first mixed case ran 6-9 ms a batch instead of 2.2 ms until ~110 ms after the start).
constexpr double kWarmSeconds = 0.2;
template <class F>
void warm_up(F&& run_once) {
  const stopwatch w;
  do run_once();
  while (w.seconds() < kWarmSeconds);
}

cpu_static run_cpu_static(const std::vector<key_type>& keys, const std::vector<value_type>& values,
                          const std::vector<key_type>& absent, double lf, int runs, bool check) {
  const auto buckets = static_cast<index_t>(static_cast<double>(keys.size()) / lf + 0.5);
  const auto nk = static_cast<index_t>(keys.size()), na = static_cast<index_t>(absent.size());
  auto st = team_touched<insert_status>(keys.size(), insert_status::invalid);
  auto got = team_touched<value_type>(keys.size(), empty_key);
  auto found = team_touched<std::uint8_t>(keys.size(), 0);
  auto miss = team_touched<std::uint8_t>(absent.size(), 1);
  // One run into a fresh table, built outside the timer (its pages first-touched by the team). The
  // timed regions are the bulk calls alone: single inserts on the OpenMP threads with no growth
  // (the GPU tables' contract here), find-hit with values, find-miss with flags only (the GPU side
  // passes no value array for the misses either).
  auto run_once = [&](cpu_hopscotch_map& m, double* t) {
    team_fill(st.get(), keys.size(), insert_status::invalid);
    team_fill(got.get(), keys.size(), empty_key);
    team_fill(found.get(), keys.size(), std::uint8_t{0});
    team_fill(miss.get(), absent.size(), std::uint8_t{1});
    stopwatch w;
    m.insert_no_grow(keys.data(), values.data(), nk, st.get());
    t[0] = w.seconds();
    w.restart();
    m.find(keys.data(), nk, got.get(), found.get());
    t[1] = w.seconds();
    w.restart();
    m.find(absent.data(), na, nullptr, miss.get());
    t[2] = w.seconds();
  };
  warm_up([&] {
    cpu_hopscotch_map scratch(buckets);
    double ignored[3];
    run_once(scratch, ignored);
  });
  std::vector<double> ti, th, tm;
  cpu_static r{};
  for (int run = 0; run < runs; ++run) {
    cpu_hopscotch_map m(buckets);
    double t[3];
    run_once(m, t);
    ti.push_back(t[0]);
    th.push_back(t[1]);
    tm.push_back(t[2]);
    if (run + 1 != runs) continue;
    std::int64_t bad = 0;
    r.no_room = 0;
    for (index_t i = 0; i < nk; ++i) {
      if (st[i] == insert_status::no_room) {
        ++r.no_room;
        bad += found[i] != 0;
      } else {
        bad += st[i] != insert_status::inserted || !found[i] || got[i] != values[i];
      }
    }
    for (index_t i = 0; i < na; ++i) bad += miss[i] != 0;
    if (bad) r.error = std::to_string(bad) + " wrong results";
    if (r.error.empty() && check) {
      std::unordered_map<key_type, value_type> c;
      const auto rep = check_hopscotch_invariants(m.snapshot(), &c);
      if (!rep.ok || static_cast<std::int64_t>(c.size()) != nk - r.no_room) r.error = "invariants " + rep.summary();
    }
  }
  r.insert_s = median(ti);
  r.hit_s = median(th);
  r.miss_s = median(tm);
  return r;
}

bench_gpu::mixed_timing run_cpu_mixed(const std::vector<op>& ops, index_t range, int runs, bool validate) {
  index_t inserts = 0;
  for (const auto& o : ops) inserts += o.kind == op_kind::insert;
  const index_t buckets = std::max<index_t>(static_cast<index_t>(1.25 * static_cast<double>(std::min(range, inserts))), 1024);
  const auto n = static_cast<index_t>(ops.size());
  // The result array is allocated here, outside the timer, as on the GPU side.
  const op_result unset{empty_key, ~0u};
  auto res = team_touched<op_result>(ops.size(), unset);
  warm_up([&] {
    cpu_hopscotch_map scratch(buckets);
    scratch.mixed(ops.data(), n, res.get());
  });
  bench_gpu::mixed_timing r;
  std::vector<double> t;
  for (int run = 0; run < runs; ++run) {
    cpu_hopscotch_map m(buckets);
    team_fill(res.get(), ops.size(), unset);
    stopwatch w;
    m.mixed(ops.data(), n, res.get());
    t.push_back(w.seconds());
    if (run != 0 || !validate) continue;
    std::unordered_map<key_type, value_type> after;
    const auto inv = check_hopscotch_invariants(m.snapshot(), &after);
    const auto rep = check_batch({}, ops, std::span<const op_result>(res.get(), ops.size()), after);
    r.checked = true;
    if (!inv.ok) r.error = "invariants " + inv.summary();
    else if (!rep.ok) r.error = rep.summary();
  }
  r.seconds = median(t);
  return r;
}

json::value header(const char* what, backend where, double* copy_gbs) {
  json::value j = json::value::make_object();
  j["benchmark"] = what;
  j["backend"] = backend_name(where);
  j["cpu_threads"] = omp_get_max_threads();
  j["key_bytes"] = 8;
  j["value_bytes"] = 8;
  *copy_gbs = 0;
  if (where == backend::cuda) {
    j["device"] = bench_gpu::device_name();
    *copy_gbs = bench_gpu::copy_bandwidth_gbs(std::size_t{1} << 30);
    j["copy_bandwidth_gbs"] = *copy_gbs;
  }
  return j;
}

}  // namespace

json::value run_static_bench(const static_config& cfg, std::FILE* out, bool* valid) {
  GPU500_EXPECTS(cfg.keys >= 1, "hash static: --keys must be positive");
  GPU500_EXPECTS(cfg.runs >= 1, "hash static: --runs must be positive");
  for (double lf : cfg.load_factors)
    if (!(lf > 0 && lf < 1)) throw usage_error("hash static: load factors must be in (0, 1)");
  const auto tables = tables_for(cfg.tables, cfg.where, cfg.with_cpu, cfg.glht_variants);
  // Host memory before the first line: per key, the keys, absent keys and values (24 bytes) and a
  // run's status and result arrays (14 bytes); the CPU table adds a key, value and hop word
  // (20 bytes) per slot, keys / LF slots at the least load factor, and its full check (up to 2^22
  // keys) a snapshot of the slots and a model map (a node of a key, a value and a link, and a
  // bucket pointer: 32 bytes per key).
  const double least_lf = *std::min_element(cfg.load_factors.begin(), cfg.load_factors.end());
  const bool cpu_table = std::find(tables.begin(), tables.end(), "cpu") != tables.end();
  const bool full_check = cfg.keys <= (index_t{1} << 22);
  const double per_key = 38.0 + (cpu_table ? 20.0 / least_lf + (full_check ? 20.0 / least_lf + 32.0 : 0.0) : 0.0);
  char what[96];
  std::snprintf(what, sizeof what, cpu_table ? "hash static: %lld keys at load factor %g" : "hash static: %lld keys",
                static_cast<long long>(cfg.keys), least_lf);
  check_host_memory(per_key * static_cast<double>(cfg.keys), what);
  if (cfg.where == backend::cuda) bench_gpu::check_static_memory(cfg.keys, least_lf);
  double copy_gbs = 0;
  json::value j = header("hash static", cfg.where, &copy_gbs);
  const auto keys = distinct_keys(cfg.seed, 0, cfg.keys);
  const auto absent = distinct_keys(cfg.seed, cfg.keys, cfg.keys);
  std::vector<value_type> values(keys.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < keys.size(); ++i) values[i] = fmix64(keys[i] ^ 0x5bd1e995ULL) >> 1;
  const bool check = full_check;  // full invariant check of the snapshot
  j["keys"] = cfg.keys;
  j["runs"] = cfg.runs;
  std::fprintf(out, "hash static: %lld distinct keys, 64-bit keys and values, median of %d runs, %s",
               static_cast<long long>(cfg.keys), cfg.runs, cfg.where == backend::cuda ? "" : "cpu backend\n");
  if (cfg.where == backend::cuda)
    std::fprintf(out, "device %s, device copy %.0f GB/s\n", bench_gpu::device_name().c_str(), copy_gbs);
  // Only what was measured: the re-insert rate and the share of the copy bandwidth exist for the
  // GPU tables alone (the CPU table has no re-insert pass, and no device bandwidth to compare with).
  const bool gpu_columns = cfg.where == backend::cuda;
  if (gpu_columns)
    std::fprintf(out, "%-14s %5s %11s %11s %11s %11s %8s %8s %8s %9s  %s\n", "table", "LF", "insert G/s", "hit G/s",
                 "miss G/s", "again G/s", "ins %bw", "hit %bw", "miss %bw", "no room", "valid");
  else
    std::fprintf(out, "%-14s %5s %11s %11s %11s %9s  %s\n", "table", "LF", "insert G/s", "hit G/s", "miss G/s",
                 "no room", "valid");
  std::fflush(out);
  const std::size_t cases = cfg.load_factors.size() * tables.size();
  std::size_t case_no = 0;
  std::int64_t most_no_room = 0;
  bool all_ok = true;
  json::value rows = json::value::make_array();
  for (double lf : cfg.load_factors) {
    double cpu_ins = 0, cpu_hit = 0, cpu_miss = 0, best_ins = 0, best_hit = 0, best_miss = 0;
    std::array<double, 3> peer{};  // best GPU peer (not GLHT, not the CPU table): insert, hit, miss
    std::array<std::string, 3> peer_name;
    for (const auto& name : tables) {
      double ins = 0, hit = 0, miss = 0, again = 0;
      std::string err;
      int attempts = 1;
      std::int64_t no_room = 0;
      // Progress on stderr before each case (a case of 2^26 keys takes seconds to minutes).
      std::fprintf(stderr, "hash static: %s at load factor %.2f (case %zu of %zu): %d timed run%s...\n", name.c_str(), lf,
                   ++case_no, cases, cfg.runs, cfg.runs == 1 ? "" : "s");
      try {
        if (name == "cpu") {
          const auto r = run_cpu_static(keys, values, absent, lf, cfg.runs, check);
          ins = r.insert_s, hit = r.hit_s, miss = r.miss_s, err = r.error, no_room = r.no_room;
        } else {
          const auto r = bench_gpu::run_static(name, keys, values, absent, lf, cfg.runs, check);
          ins = r.insert_s, hit = r.find_hit_s, miss = r.find_miss_s, err = r.error, attempts = r.build_attempts;
          again = r.reinsert_s;
          no_room = r.no_room;
        }
      } catch (const resource_error&) {
        throw;
      } catch (const error& e) {
        err = e.what();
      }
      const double n = static_cast<double>(cfg.keys);
      const double gi = ins > 0 ? n / ins / 1e9 : 0, gh = hit > 0 ? n / hit / 1e9 : 0, gm = miss > 0 ? n / miss / 1e9 : 0;
      const double ga = again > 0 ? n / again / 1e9 : 0;
      auto pct = [&](double gops, double bytes) { return copy_gbs > 0 ? 100.0 * gops * bytes / copy_gbs : 0.0; };
      all_ok = all_ok && err.empty();
      const char* verdict = !err.empty() ? err.c_str() : attempts < 0 ? "ok (cuckoo build failed with 16 seed sets)" : "ok";
      most_no_room = std::max(most_no_room, no_room);
      if (gpu_columns) {
        // "-": not measured (the CPU table's re-insert and bandwidth share, cuckoo's re-insert).
        auto cell = [](double v, bool measured, const char* fmt) {
          char c[32] = "-";
          if (measured) std::snprintf(c, sizeof c, fmt, v);
          return std::string(c);
        };
        const bool gpu_table = name != "cpu";
        std::fprintf(out, "%-14s %5.2f %11.3f %11.3f %11.3f %11s %7s%% %7s%% %7s%% %9lld  %s\n", name.c_str(), lf, gi, gh,
                     gm, cell(ga, ga > 0, "%.3f").c_str(), cell(pct(gi, kBytesInsert), gpu_table, "%.1f").c_str(),
                     cell(pct(gh, kBytesHit), gpu_table, "%.1f").c_str(), cell(pct(gm, kBytesMiss), gpu_table, "%.1f").c_str(),
                     static_cast<long long>(no_room), verdict);
      } else {
        std::fprintf(out, "%-14s %5.2f %11.3f %11.3f %11.3f %9lld  %s\n", name.c_str(), lf, gi, gh, gm,
                     static_cast<long long>(no_room), verdict);
      }
      std::fflush(out);
      json::value row = json::value::make_object();
      row["table"] = name;
      row["load_factor"] = lf;
      row["insert_gps"] = gi;
      row["find_hit_gps"] = gh;
      row["find_miss_gps"] = gm;
      row["reinsert_gps"] = ga;  // 0: not measured (cuckoo, the CPU table)
      row["insert_s"] = ins;
      row["find_hit_s"] = hit;
      row["find_miss_s"] = miss;
      row["insert_pct_copy_bw"] = pct(gi, kBytesInsert);
      row["find_hit_pct_copy_bw"] = pct(gh, kBytesHit);
      row["find_miss_pct_copy_bw"] = pct(gm, kBytesMiss);
      row["build_attempts"] = attempts;
      row["no_room"] = no_room;
      row["valid"] = err.empty();
      if (!err.empty()) row["error"] = err;
      rows.push_back(row);
      if (name == "cpu") cpu_ins = gi, cpu_hit = gh, cpu_miss = gm;
      else if (name.rfind("glht", 0) == 0) {
        best_ins = std::max(best_ins, gi);
        best_hit = std::max(best_hit, gh);
        best_miss = std::max(best_miss, gm);
      } else if (err.empty() && attempts >= 0) {
        const double g[3] = {gi, gh, gm};
        for (int i = 0; i < 3; ++i)
          if (g[i] > peer[i]) peer[i] = g[i], peer_name[i] = name;
      }
    }
    if (best_ins > 0 && peer[0] > 0)
      std::fprintf(out, "  best GLHT | best peer at LF %.2f, G/s: insert %.2f | %.2f (%s), hit %.2f | %.2f (%s), "
                   "miss %.2f | %.2f (%s)\n", lf, best_ins, peer[0], peer_name[0].c_str(), best_hit, peer[1],
                   peer_name[1].c_str(), best_miss, peer[2], peer_name[2].c_str());
    if (cpu_ins > 0 && best_ins > 0) {
      std::fprintf(out, "  best GLHT / CPU table at LF %.2f: insert %.1fx, hit %.1fx, miss %.1fx\n", lf,
                   best_ins / cpu_ins, best_hit / cpu_hit, best_miss / cpu_miss);
      json::value s = json::value::make_object();
      s["load_factor"] = lf;
      s["insert"] = best_ins / cpu_ins;
      s["find_hit"] = best_hit / cpu_hit;
      s["find_miss"] = best_miss / cpu_miss;
      j["speedup_vs_cpu"].push_back(s);
    }
  }
  if (most_no_room > 0)
    std::fprintf(out, "no room: keys an insert could not place, because no free slot could be brought within the %d "
                      "slots of their home bucket (hopscotch's neighbourhood) and the table does not grow; expected near "
                      "full load, not an error: \"valid ok\" means every placed key is found with its value and every "
                      "refused key is absent\n", hop_range);
  j["rows"] = rows;
  j["bytes_model"] = "lower bound per op: insert 81 B, find-hit 81 B, find-miss 41 B (I/O arrays + one 32-B sector per key and value touched)";
  j["valid"] = all_ok;
  std::fprintf(out, "validation: %s\n", all_ok ? "passed" : "FAILED");
  *valid = all_ok;
  return j;
}

json::value run_mixed_bench(const mixed_config& cfg, std::FILE* out, bool* valid) {
  GPU500_EXPECTS(cfg.ops >= 1 && cfg.runs >= 1, "hash mixed: --ops and --runs must be positive");
  for (const auto& m : cfg.mixes)
    if (m[0] < 0 || m[1] < 0 || m[2] < 0 || m[0] + m[1] + m[2] != 100)
      throw usage_error("hash mixed: a mix must be three percentages adding up to 100");
  for (auto r : cfg.ranges)
    if (r < 1) throw usage_error("hash mixed: key ranges must be positive");
  auto tables = tables_for(cfg.tables, cfg.where, cfg.with_cpu, cfg.glht_variants);
  for (const auto& t : cfg.tables)
    if (static_only_table(t)) throw usage_error("hash mixed: table '" + t + "' has no mixed operations (static only)");
  std::erase_if(tables, static_only_table);
  // Host memory before the first line: the largest case's operations and their results.
  index_t most_ops = cfg.ops;
  if (cfg.where == backend::cuda)
    for (int s : cfg.scale_log2) most_ops = std::max(most_ops, index_t{1} << s);
  check_host_memory(static_cast<double>(most_ops) * (sizeof(op) + sizeof(op_result)),
                    "hash mixed: " + std::to_string(most_ops) + " operations");
  double copy_gbs = 0;
  json::value j = header("hash mixed", cfg.where, &copy_gbs);
  j["runs"] = cfg.runs;
  if (cfg.where == backend::cuda)
    std::fprintf(out, "hash mixed: device %s, device copy %.0f GB/s, median of %d runs, empty table at start\n",
                 bench_gpu::device_name().c_str(), copy_gbs, cfg.runs);
  else
    std::fprintf(out, "hash mixed: cpu backend (%d threads), median of %d runs, empty table at start\n",
                 omp_get_max_threads(), cfg.runs);
  std::fprintf(out, "%-14s %9s %10s %11s %11s  %s\n", "table", "mix i/e/f", "ops", "key range", "G ops/s", "valid");
  struct run_case {
    index_t ops, range;
  };
  std::vector<run_case> cases;
  for (auto r : cfg.ranges) cases.push_back({cfg.ops, r});
  if (cfg.where == backend::cuda)
    for (int s : cfg.scale_log2) cases.push_back({index_t{1} << s, index_t{1} << s});
  bool all_ok = true;
  json::value rows = json::value::make_array();
  for (const auto& c : cases) {
    for (const auto& mix : cfg.mixes) {
      const auto ops = make_ops(c.ops, c.range, mix, cfg.seed ^ static_cast<std::uint64_t>(c.range * 131 + mix[0]));
      const bool validate = c.ops <= cfg.check_limit;
      const int runs = c.ops > cfg.ops ? std::min(cfg.runs, 3) : cfg.runs;  // scale runs: at most 3
      double cpu_rate = 0, best = 0;
      for (const auto& name : tables) {
        bench_gpu::mixed_timing r;
        try {
          r = name == "cpu" ? run_cpu_mixed(ops, c.range, runs, validate)
                            : bench_gpu::run_mixed(name, ops, c.range, runs, validate);
        } catch (const resource_error&) {
          throw;
        } catch (const error& e) {
          r.error = e.what();
        }
        const double rate = r.seconds > 0 ? static_cast<double>(c.ops) / r.seconds / 1e9 : 0;
        all_ok = all_ok && r.error.empty();
        std::fprintf(out, "%-14s %9s %10lld %11lld %11.4f  %s\n", name.c_str(), mix_name(mix).c_str(),
                     static_cast<long long>(c.ops), static_cast<long long>(c.range), rate,
                     !r.error.empty() ? r.error.c_str() : r.checked ? "ok" : "not checked");
        json::value row = json::value::make_object();
        row["table"] = name;
        row["mix"] = mix_name(mix);
        row["ops"] = c.ops;
        row["key_range"] = c.range;
        row["gops"] = rate;
        row["seconds"] = r.seconds;
        row["checked"] = r.checked;
        row["valid"] = r.error.empty();
        if (!r.error.empty()) row["error"] = r.error;
        rows.push_back(row);
        if (name == "cpu") cpu_rate = rate;
        else if (name.rfind("glht", 0) == 0) best = std::max(best, rate);
      }
      if (cpu_rate > 0 && best > 0)
        std::fprintf(out, "  best GLHT / CPU table: %.1fx\n", best / cpu_rate);
    }
  }
  j["rows"] = rows;
  j["valid"] = all_ok;
  std::fprintf(out, "validation: %s\n", all_ok ? "passed" : "FAILED");
  *valid = all_ok;
  return j;
}

}  // namespace gpu500::hash
