// CPU lock-based concurrent hopscotch table (Herlihy, Shavit, Tzafrir 2008) on OpenMP threads.
// See gpu500/hash/cpu_hopscotch.hpp for the design.
#include "gpu500/hash/cpu_hopscotch.hpp"

#include <omp.h>

#include <algorithm>
#include <thread>

#include "gpu500/core/error.hpp"

namespace gpu500::hash {

struct alignas(64) cpu_hopscotch_map::segment {
  std::atomic<std::uint32_t> lock{0};
  std::atomic<std::uint64_t> version{0};  // odd while a member of one of its buckets is moved/erased

  bool try_lock() {
    std::uint32_t z = 0;
    return lock.load(std::memory_order_relaxed) == 0 &&
           lock.compare_exchange_strong(z, 1, std::memory_order_acquire, std::memory_order_relaxed);
  }
  void acquire() {
    for (int spin = 0; !try_lock(); ++spin)
      if (spin > 64) std::this_thread::yield();
  }
  void release() { lock.store(0, std::memory_order_release); }
};

namespace {
constexpr int kTries = 8;
}

cpu_hopscotch_map::cpu_hopscotch_map(index_t capacity, int probe_limit) : probe_limit_(probe_limit) {
  GPU500_EXPECTS(capacity >= 1, "hash: capacity must be positive");
  GPU500_EXPECTS(probe_limit >= hop_range, "hash: probe limit must be at least 32");
  allocate(std::max<std::uint64_t>(static_cast<std::uint64_t>(capacity), hop_range));
}
double cpu_hopscotch_map::bytes_for(index_t capacity) {
  const double slots = static_cast<double>(std::max<index_t>(capacity, hop_range)) + hop_range;
  return slots * (sizeof(key_type) + sizeof(value_type) + sizeof(std::uint32_t)) +
         (slots / segment_size + 1) * sizeof(segment);
}
cpu_hopscotch_map::~cpu_hopscotch_map() = default;
cpu_hopscotch_map::cpu_hopscotch_map(cpu_hopscotch_map&&) noexcept = default;
cpu_hopscotch_map& cpu_hopscotch_map::operator=(cpu_hopscotch_map&&) noexcept = default;

void cpu_hopscotch_map::allocate(std::uint64_t n) {
  n_ = n;
  const std::uint64_t slots = n + hop_range;
  keys_ = std::make_unique<std::atomic<key_type>[]>(slots);
  values_ = std::make_unique<std::atomic<value_type>[]>(slots);
  hop_ = std::make_unique<std::atomic<std::uint32_t>[]>(slots);
  segs_ = std::make_unique<segment[]>(slots / segment_size + 1);
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < static_cast<std::int64_t>(slots); ++s) {
    keys_[s].store(empty_key, std::memory_order_relaxed);
    values_[s].store(0, std::memory_order_relaxed);
    hop_[s].store(0, std::memory_order_relaxed);
  }
}

cpu_hopscotch_map::segment& cpu_hopscotch_map::seg(std::uint64_t b) const { return segs_[b / segment_size]; }

std::int64_t cpu_hopscotch_map::named_slot(std::uint64_t h, key_type k) const {
  std::uint32_t bm = hop_[h].load(std::memory_order_acquire);
  while (bm) {
    const int d = __builtin_ctz(bm);
    if (keys_[h + d].load(std::memory_order_acquire) == k) return static_cast<std::int64_t>(h + d);
    bm &= bm - 1;
  }
  return -1;
}

bool cpu_hopscotch_map::find(key_type k, value_type& v) const {
  if (!valid_key(k)) return false;
  const std::uint64_t h = home(k);
  segment& sg = seg(h);
  for (int t = 0; t < kTries; ++t) {
    const std::uint64_t v1 = sg.version.load(std::memory_order_acquire);
    if (v1 & 1u) continue;
    const std::int64_t s = named_slot(h, k);
    value_type x = s >= 0 ? values_[s].load(std::memory_order_relaxed) : 0;
    std::atomic_thread_fence(std::memory_order_acquire);
    if (sg.version.load(std::memory_order_relaxed) == v1) {
      if (s >= 0) v = x;
      return s >= 0;
    }
  }
  sg.acquire();  // the original's fallback: look up under the segment lock
  const std::int64_t s = named_slot(h, k);
  if (s >= 0) v = values_[s].load(std::memory_order_relaxed);
  sg.release();
  return s >= 0;
}

std::int64_t cpu_hopscotch_map::find_empty(std::uint64_t h) {
  const std::uint64_t limit = std::min<std::uint64_t>(h + probe_limit_, n_ + hop_range - 1);
  for (std::uint64_t s = h; s < limit; ++s) {
    key_type e = empty_key;
    if (keys_[s].load(std::memory_order_relaxed) == empty_key &&
        keys_[s].compare_exchange_strong(e, reserved_key, std::memory_order_acq_rel))
      return static_cast<std::int64_t>(s);
  }
  return -1;
}

void cpu_hopscotch_map::publish(std::uint64_t h, std::int64_t e, key_type k, value_type v) {
  values_[e].store(v, std::memory_order_relaxed);
  keys_[e].store(k, std::memory_order_release);
  hop_[h].fetch_or(1u << (e - static_cast<std::int64_t>(h)), std::memory_order_release);
}

int cpu_hopscotch_map::displace(std::uint64_t h, std::int64_t& e) {
  while (static_cast<std::uint64_t>(e) - h >= static_cast<std::uint64_t>(hop_range)) {
    bool moved = false, contended = false;
    for (std::int64_t b = e - (hop_range - 1); b < e && !moved; ++b) {
      const std::uint32_t reach = (1u << (e - b)) - 1u;
      if (!(hop_[b].load(std::memory_order_relaxed) & reach)) continue;
      segment& sg = seg(b);
      if (!sg.try_lock()) {
        contended = true;
        continue;
      }
      const std::uint32_t bm = hop_[b].load(std::memory_order_relaxed) & reach;
      if (bm) {
        const int d = __builtin_ctz(bm);
        const std::uint64_t x = b + d;
        sg.version.fetch_add(1, std::memory_order_acq_rel);  // odd: two copies exist
        hop_[b].fetch_or(1u << (e - b), std::memory_order_release);
        values_[e].store(values_[x].load(std::memory_order_relaxed), std::memory_order_relaxed);
        keys_[e].store(keys_[x].load(std::memory_order_relaxed), std::memory_order_release);
        keys_[x].store(reserved_key, std::memory_order_release);
        hop_[b].fetch_and(~(1u << d), std::memory_order_release);
        sg.version.fetch_add(1, std::memory_order_release);
        e = static_cast<std::int64_t>(x);
        moved = true;
      }
      sg.release();
    }
    if (!moved) return contended ? 1 : -1;
  }
  return 0;
}

insert_status cpu_hopscotch_map::insert(key_type k, value_type v) {
  if (!valid_key(k)) return insert_status::invalid;
  const std::uint64_t h = home(k);
  segment& sg = seg(h);
  sg.acquire();
  if (named_slot(h, k) >= 0) {
    sg.release();
    return insert_status::present;
  }
  std::int64_t e = find_empty(h);
  if (e < 0) {
    sg.release();
    return insert_status::no_room;
  }
  if (static_cast<std::uint64_t>(e) - h < static_cast<std::uint64_t>(hop_range)) {
    publish(h, e, k, v);
    sg.release();
    return insert_status::inserted;
  }
  sg.release();  // displace holding only the hole (it may need this very segment)
  for (int round = 0;; ++round) {
    const int r = displace(h, e);
    if (r == 0) break;
    if (r < 0) {
      keys_[e].store(empty_key, std::memory_order_release);
      return insert_status::no_room;
    }
    std::this_thread::yield();
  }
  sg.acquire();
  if (named_slot(h, k) >= 0) {
    keys_[e].store(empty_key, std::memory_order_release);
    sg.release();
    return insert_status::present;
  }
  publish(h, e, k, v);
  sg.release();
  return insert_status::inserted;
}

bool cpu_hopscotch_map::erase(key_type k) {
  if (!valid_key(k)) return false;
  const std::uint64_t h = home(k);
  segment& sg = seg(h);
  sg.acquire();
  const std::int64_t s = named_slot(h, k);
  if (s >= 0) {
    sg.version.fetch_add(1, std::memory_order_acq_rel);
    keys_[s].store(empty_key, std::memory_order_release);
    hop_[h].fetch_and(~(1u << (s - static_cast<std::int64_t>(h))), std::memory_order_release);
    sg.version.fetch_add(1, std::memory_order_release);
  }
  sg.release();
  return s >= 0;
}

// ------------------------------------------------------------------ bulk

// Every line an operation on key k starts with: its home's hop word, the segment's lock and
// timestamp, and the first keys and values of the neighbourhood. They do not depend on each
// other, so prefetching them for an operation further down the loop overlaps its misses with the
// current operation's (a hint: it changes no state). rw = 1 asks for them writable (insert, erase).
template <int rw>
void cpu_hopscotch_map::prefetch_home(key_type k) const {
  const std::uint64_t h = home(k);
  __builtin_prefetch(&hop_[h], rw, 3);
  __builtin_prefetch(&seg(h), rw, 3);
  __builtin_prefetch(&keys_[h], rw, 3);
  __builtin_prefetch(&values_[h], rw, 3);
}

namespace {

/// Inside a parallel region: this thread's static block of [0, n), op(i) in order, with pre(i)
/// issued `ahead` places before op(i) (the block's first `ahead` at its start).
template <class Pre, class Op>
void run_block(std::int64_t n, std::int64_t ahead, Pre&& pre, Op&& op) {
  const std::int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
  const std::int64_t lo = n * t / nt, hi = n * (t + 1) / nt;
  for (std::int64_t i = lo; i < std::min(hi, lo + ahead); ++i) pre(i);
  for (std::int64_t i = lo; i < hi; ++i) {
    if (i + ahead < hi) pre(i + ahead);
    op(i);
  }
}

}  // namespace

index_t cpu_hopscotch_map::insert_no_grow(const key_type* keys, const value_type* values, index_t n,
                                          insert_status* status) {
  index_t no_room = 0;
#pragma omp parallel reduction(+ : no_room)
  run_block(
      n, prefetch_ahead, [&](std::int64_t i) { prefetch_home<1>(keys[i]); },
      [&](std::int64_t i) {
        status[i] = insert(keys[i], values[i]);
        no_room += status[i] == insert_status::no_room;
      });
  return no_room;
}

void cpu_hopscotch_map::find(const key_type* keys, index_t n, value_type* values, std::uint8_t* found) const {
#pragma omp parallel
  run_block(
      n, prefetch_ahead, [&](std::int64_t i) { prefetch_home<0>(keys[i]); },
      [&](std::int64_t i) {
        value_type v = 0;
        const bool f = find(keys[i], v);
        found[i] = f;
        if (f && values) values[i] = v;
      });
}

void cpu_hopscotch_map::mixed(const op* ops, index_t n, op_result* results) {
  bool full = false;
#pragma omp parallel reduction(|| : full)
  run_block(
      n, prefetch_ahead,
      [&](std::int64_t i) {
        if (ops[i].kind == op_kind::find) prefetch_home<0>(ops[i].key);
        else prefetch_home<1>(ops[i].key);
      },
      [&](std::int64_t i) {
        const op& o = ops[i];
        op_result r{0, 0};
        if (o.kind == op_kind::insert) {
          r.code = static_cast<std::uint32_t>(insert(o.key, o.value));
          full = full || r.code == static_cast<std::uint32_t>(insert_status::no_room);
        } else if (o.kind == op_kind::erase) {
          r.code = erase(o.key);
        } else {
          r.code = find(o.key, r.value);
        }
        results[i] = r;
      });
  while (full) {
    rehash(static_cast<index_t>(n_) * 2);
    ++grows_;
    full = false;
    for (std::int64_t i = 0; i < n; ++i) {
      if (ops[i].kind != op_kind::insert || results[i].code != static_cast<std::uint32_t>(insert_status::no_room))
        continue;
      results[i].code = static_cast<std::uint32_t>(insert(ops[i].key, ops[i].value));
      full = full || results[i].code == static_cast<std::uint32_t>(insert_status::no_room);
    }
  }
}

std::vector<insert_status> cpu_hopscotch_map::insert(const std::vector<key_type>& keys,
                                                     const std::vector<value_type>& values) {
  GPU500_EXPECTS(keys.size() == values.size(), "hash: keys and values differ in length");
  const auto n = static_cast<std::int64_t>(keys.size());
  std::vector<insert_status> out(keys.size());
  bool full = insert_no_grow(keys.data(), values.data(), n, out.data()) > 0;
  while (full) {  // grow, then retry the inserts that found no room
    rehash(static_cast<index_t>(n_) * 2);
    ++grows_;
    full = false;
#pragma omp parallel for schedule(static) reduction(|| : full)
    for (std::int64_t i = 0; i < n; ++i) {
      if (out[i] != insert_status::no_room) continue;
      out[i] = insert(keys[i], values[i]);
      full = full || out[i] == insert_status::no_room;
    }
  }
  return out;
}

std::vector<std::uint8_t> cpu_hopscotch_map::erase(const std::vector<key_type>& keys) {
  const auto n = static_cast<std::int64_t>(keys.size());
  std::vector<std::uint8_t> out(keys.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) out[i] = erase(keys[i]);
  return out;
}

std::vector<std::uint8_t> cpu_hopscotch_map::find(const std::vector<key_type>& keys,
                                                  std::vector<value_type>& values) const {
  std::vector<std::uint8_t> out(keys.size());
  values.assign(keys.size(), 0);
  find(keys.data(), static_cast<index_t>(keys.size()), values.data(), out.data());
  return out;
}

std::vector<op_result> cpu_hopscotch_map::mixed(const std::vector<op>& ops) {
  std::vector<op_result> out(ops.size());
  mixed(ops.data(), static_cast<index_t>(ops.size()), out.data());
  return out;
}

index_t cpu_hopscotch_map::size() const {
  index_t c = 0;
  const auto slots = static_cast<std::int64_t>(n_ + hop_range);
#pragma omp parallel for schedule(static) reduction(+ : c)
  for (std::int64_t s = 0; s < slots; ++s) c += valid_key(keys_[s].load(std::memory_order_relaxed));
  return c;
}

void cpu_hopscotch_map::rehash(index_t new_capacity) {
  for (std::uint64_t target = static_cast<std::uint64_t>(new_capacity);; target *= 2) {
    cpu_hopscotch_map fresh(static_cast<index_t>(target), probe_limit_);
    bool full = false;
    const auto slots = static_cast<std::int64_t>(n_ + hop_range);
#pragma omp parallel for schedule(static) reduction(|| : full)
    for (std::int64_t s = 0; s < slots; ++s) {
      const key_type k = keys_[s].load(std::memory_order_relaxed);
      if (valid_key(k)) full = full || fresh.insert(k, values_[s].load(std::memory_order_relaxed)) == insert_status::no_room;
    }
    if (!full) {
      const int g = grows_;
      *this = std::move(fresh);
      grows_ = g;
      return;
    }
  }
}

void cpu_hopscotch_map::clear() { allocate(n_); }

table_snapshot cpu_hopscotch_map::snapshot() const {
  table_snapshot s;
  s.n_buckets = n_;
  const std::uint64_t slots = n_ + hop_range;
  s.keys.resize(slots);
  s.values.resize(slots);
  s.meta.resize(slots);
  for (std::uint64_t i = 0; i < slots; ++i) {
    s.keys[i] = keys_[i].load(std::memory_order_relaxed);
    s.values[i] = values_[i].load(std::memory_order_relaxed);
    s.meta[i] = hop_[i].load(std::memory_order_relaxed);
  }
  return s;
}

}  // namespace gpu500::hash
