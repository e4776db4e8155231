// The sequential model and the batch / invariant checker of the hash component. Independent of
// every table: own hash, own decoding of the snapshot's bucket words.
#include "gpu500/hash/model.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_set>

namespace gpu500::hash {

// ------------------------------------------------------------------ model

insert_status sequential_model::insert(key_type k, value_type v) {
  if (k >= reserved_key) return insert_status::invalid;
  return m_.emplace(k, v).second ? insert_status::inserted : insert_status::present;
}
bool sequential_model::erase(key_type k) { return m_.erase(k) != 0; }
bool sequential_model::find(key_type k, value_type& v) const {
  const auto it = m_.find(k);
  if (it == m_.end()) return false;
  v = it->second;
  return true;
}
op_result sequential_model::apply(const op& o) {
  op_result r{0, 0};
  switch (o.kind) {
    case op_kind::insert: r.code = static_cast<std::uint32_t>(insert(o.key, o.value)); break;
    case op_kind::erase: r.code = erase(o.key); break;
    case op_kind::find: r.code = find(o.key, r.value); break;
  }
  return r;
}

// ------------------------------------------------------------------ reports

void check_report::fail(std::string msg) {
  ok = false;
  ++errors;
  if (messages.size() < 12) messages.push_back(std::move(msg));
}
std::string check_report::summary() const {
  std::ostringstream o;
  o << (ok ? "passed" : "FAILED") << " (" << keys_checked << " keys checked, " << errors << " errors)";
  for (const auto& m : messages) o << "\n  " << m;
  return o.str();
}

// ------------------------------------------------------------------ own hash

std::uint64_t oracle_home(key_type k, std::uint64_t n_buckets) {
  // murmur3's 64-bit finaliser, then Lemire's multiply-high reduction onto [0, n).
  std::uint64_t h = k;
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(h) * n_buckets) >> 64);
}

// ------------------------------------------------------------------ invariants

check_report check_hopscotch_invariants(const table_snapshot& s, std::unordered_map<key_type, value_type>* contents) {
  // Own decoding of the bucket word: low 32 bits hop bitmap, bits 32-33 locks, bit 34 overflow
  // (members in the stash), 35.. version.
  constexpr std::uint64_t kBitmap = 0xffffffffULL, kLocks = 3ULL << 32, kOverflow = 1ULL << 34;
  constexpr int kNeighbourhood = 32, kVersionShift = 35, kStashWindow = 32;
  constexpr key_type kEmpty = ~0ULL, kReserved = ~0ULL - 1;
  check_report r;
  const std::uint64_t n = s.n_buckets, slots = s.keys.size();
  if (slots != n + kNeighbourhood || s.values.size() != slots || s.meta.size() != slots) {
    r.fail("snapshot arrays have the wrong length");
    return r;
  }
  std::unordered_map<key_type, value_type> seen;
  seen.reserve(slots);
  for (std::uint64_t i = 0; i < slots; ++i) {
    const key_type k = s.keys[i];
    if (k == kEmpty) continue;
    if (k == kReserved) {
      r.fail("slot " + std::to_string(i) + " is still reserved");
      continue;
    }
    if (!seen.emplace(k, s.values[i]).second) r.fail("key " + std::to_string(k) + " appears twice");
    const std::uint64_t h = oracle_home(k, n);
    if (i < h || i - h >= kNeighbourhood) {
      r.fail("key " + std::to_string(k) + " in slot " + std::to_string(i) + " is outside its neighbourhood (home " +
             std::to_string(h) + ")");
      continue;
    }
    if (!((s.meta[h] >> (i - h)) & 1u))
      r.fail("key " + std::to_string(k) + " in slot " + std::to_string(i) + " is missing from home " +
             std::to_string(h) + "'s hop bitmap");
    ++r.keys_checked;
  }
  for (std::uint64_t b = 0; b < slots; ++b) {
    const std::uint64_t m = s.meta[b];
    if (m & kLocks) r.fail("bucket " + std::to_string(b) + " is still locked");
    if ((m >> kVersionShift) & 1u) r.fail("bucket " + std::to_string(b) + " has an odd version");
    std::uint64_t bits = m & kBitmap;
    if (bits && b >= n) r.fail("padding bucket " + std::to_string(b) + " has hop bits");
    while (bits) {
      const int d = __builtin_ctzll(bits);
      bits &= bits - 1;
      const std::uint64_t slot = b + d;
      if (slot >= slots || s.keys[slot] >= kReserved || oracle_home(s.keys[slot], n) != b)
        r.fail("bucket " + std::to_string(b) + " hop bit " + std::to_string(d) + " names a slot without its member");
    }
  }
  if (!s.occupancy.empty()) {  // one bit per slot: set exactly where a key is
    if (s.occupancy.size() != (slots + 63) / 64) r.fail("occupancy array has the wrong length");
    else
      for (std::uint64_t i = 0; i < slots; ++i)
        if (((s.occupancy[i / 64] >> (i % 64)) & 1u) != (s.keys[i] != kEmpty))
          r.fail("slot " + std::to_string(i) + "'s occupancy bit disagrees with its key");
  }
  // The stash: bucket b's members within kStashWindow pairs after its stash home, b flagged
  // exactly when it has members there.
  const std::uint64_t ns = s.stash_keys.size();
  std::unordered_map<std::uint64_t, int> stash_members;
  if (s.stash_values.size() != ns) r.fail("stash arrays differ in length");
  for (std::uint64_t i = 0; i < ns && s.stash_values.size() == ns; ++i) {
    const key_type k = s.stash_keys[i];
    if (k == kEmpty) continue;
    if (k == kReserved) {
      r.fail("stash pair " + std::to_string(i) + " is still reserved");
      continue;
    }
    if (!seen.emplace(k, s.stash_values[i]).second) r.fail("key " + std::to_string(k) + " appears twice");
    const std::uint64_t h = oracle_home(k, n);
    const std::uint64_t first = oracle_home(h ^ 0x5bd1e9955bd1e995ULL, ns);
    if ((i + ns - first) % ns >= kStashWindow)
      r.fail("key " + std::to_string(k) + " in stash pair " + std::to_string(i) + " is outside its home's window");
    if (!(s.meta[h] & kOverflow))
      r.fail("key " + std::to_string(k) + " is in the stash but home " + std::to_string(h) + " has no overflow flag");
    ++stash_members[h];
    ++r.keys_checked;
  }
  for (std::uint64_t b = 0; b < slots; ++b)
    if ((s.meta[b] & kOverflow) && !stash_members.count(b))
      r.fail("bucket " + std::to_string(b) + " has the overflow flag but no member in the stash");
  if (contents) *contents = std::move(seen);
  return r;
}

// ------------------------------------------------------------------ batch

namespace {
struct key_activity {
  std::int64_t inserts = 0, insert_ok = 0, erases = 0, erase_ok = 0;
  std::vector<value_type> inserted_values;
};
}  // namespace

check_report check_batch(const std::unordered_map<key_type, value_type>& before, std::span<const op> ops,
                         std::span<const op_result> results, const std::unordered_map<key_type, value_type>& after,
                         bool allow_no_room) {
  check_report r;
  if (ops.size() != results.size()) {
    r.fail("results and operations differ in length");
    return r;
  }
  std::unordered_map<key_type, key_activity> act;
  act.reserve(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const op& o = ops[i];
    const op_result& res = results[i];
    if (o.kind == op_kind::insert) {
      auto& a = act[o.key];
      const auto st = static_cast<insert_status>(res.code);
      if (st == insert_status::no_room && allow_no_room) continue;
      if (st != insert_status::inserted && st != insert_status::present) {
        r.fail("insert of " + std::to_string(o.key) + " returned status " + std::to_string(res.code));
        continue;
      }
      ++a.inserts;
      a.insert_ok += st == insert_status::inserted;
      a.inserted_values.push_back(o.value);
    } else if (o.kind == op_kind::erase) {
      auto& a = act[o.key];
      ++a.erases;
      if (res.code > 1) r.fail("erase returned code " + std::to_string(res.code));
      a.erase_ok += res.code == 1;
    } else {
      act.try_emplace(o.key);
    }
  }
  auto value_allowed = [&](key_type k, value_type v) {
    const auto b = before.find(k);
    if (b != before.end() && b->second == v) return true;
    const auto a = act.find(k);
    return a != act.end() &&
           std::find(a->second.inserted_values.begin(), a->second.inserted_values.end(), v) !=
               a->second.inserted_values.end();
  };
  // Finds.
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const op& o = ops[i];
    if (o.kind != op_kind::find) continue;
    const auto& a = act[o.key];
    const auto b = before.find(o.key);
    if (results[i].code > 1) r.fail("find returned code " + std::to_string(results[i].code));
    if (a.inserts == 0 && a.erases == 0) {
      const bool want = b != before.end();
      if ((results[i].code == 1) != want)
        r.fail("find of " + std::to_string(o.key) + (want ? " missed a present key" : " found an absent key"));
      else if (want && results[i].value != b->second)
        r.fail("find of " + std::to_string(o.key) + " returned a wrong value");
    } else if (results[i].code == 1 && !value_allowed(o.key, results[i].value)) {
      r.fail("find of " + std::to_string(o.key) + " returned a value never stored for it");
    }
  }
  // Final state of every key the batch touched.
  for (const auto& [k, a] : act) {
    const bool was = before.count(k) != 0;
    const auto it = after.find(k);
    const bool is = it != after.end();
    if (is && !value_allowed(k, it->second)) r.fail("key " + std::to_string(k) + " holds a value never stored for it");
    if (a.inserts > 0 && a.erases == 0) {
      if (!is) r.fail("key " + std::to_string(k) + " was inserted but is absent");
      if (a.insert_ok != (was ? 0 : 1))
        r.fail("key " + std::to_string(k) + ": " + std::to_string(a.insert_ok) + " inserts reported inserted");
      if (was && is && it->second != before.at(k)) r.fail("key " + std::to_string(k) + ": insert overwrote a value");
    } else if (a.erases > 0 && a.inserts == 0) {
      if (is) r.fail("key " + std::to_string(k) + " was erased but is present");
      if (a.erase_ok != (was ? 1 : 0))
        r.fail("key " + std::to_string(k) + ": " + std::to_string(a.erase_ok) + " erases reported success");
    } else if (a.erases > 0 && a.inserts > 0) {
      if ((is ? 1 : 0) - (was ? 1 : 0) != a.insert_ok - a.erase_ok)
        r.fail("key " + std::to_string(k) + ": successful inserts - erases (" +
               std::to_string(a.insert_ok - a.erase_ok) + ") do not match its change of presence");
    } else if (is != was || (is && it->second != before.at(k))) {
      r.fail("key " + std::to_string(k) + " was only looked up but changed");
    }
    ++r.keys_checked;
  }
  // Keys the batch did not touch: unchanged, and no phantom keys.
  for (const auto& [k, v] : before) {
    if (act.count(k)) continue;
    const auto it = after.find(k);
    if (it == after.end()) r.fail("key " + std::to_string(k) + " was lost");
    else if (it->second != v) r.fail("key " + std::to_string(k) + " changed its value");
    ++r.keys_checked;
  }
  for (const auto& [k, v] : after)
    if (!before.count(k) && !act.count(k)) r.fail("phantom key " + std::to_string(k));
  return r;
}

}  // namespace gpu500::hash
