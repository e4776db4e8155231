// Built only without the CUDA backend: the GPU tables report that they are not available (the
// tests skip, the benchmark refuses --backend cuda before it gets here).
#include "gpu500/core/error.hpp"
#include "gpu500/hash/bench.hpp"
#include "gpu500/hash/hopscotch_map.hpp"

namespace gpu500::hash {

namespace {
[[noreturn]] void no_cuda() { throw error("hash: this build of gpu500 has no CUDA backend"); }
}  // namespace

struct hopscotch_map::impl {};
hopscotch_map::hopscotch_map(index_t, hopscotch_options) { no_cuda(); }
hopscotch_map::~hopscotch_map() = default;
hopscotch_map::hopscotch_map(hopscotch_map&&) noexcept = default;
hopscotch_map& hopscotch_map::operator=(hopscotch_map&&) noexcept = default;
index_t hopscotch_map::insert(const key_type*, const value_type*, index_t, insert_status*) { no_cuda(); }
void hopscotch_map::insert_async(const key_type*, const value_type*, index_t, insert_status*, cudaStream_t) { no_cuda(); }
index_t hopscotch_map::erase(const key_type*, index_t, std::uint8_t*) { no_cuda(); }
void hopscotch_map::erase_async(const key_type*, index_t, std::uint8_t*, cudaStream_t) { no_cuda(); }
index_t hopscotch_map::find(const key_type*, index_t, value_type*, std::uint8_t*) { no_cuda(); }
void hopscotch_map::find_async(const key_type*, index_t, value_type*, std::uint8_t*, cudaStream_t) { no_cuda(); }
index_t hopscotch_map::contains(const key_type*, index_t, std::uint8_t*) { no_cuda(); }
void hopscotch_map::contains_async(const key_type*, index_t, std::uint8_t*, cudaStream_t) { no_cuda(); }
void hopscotch_map::mixed(const op*, index_t, op_result*) { no_cuda(); }
void hopscotch_map::mixed_async(const op*, index_t, op_result*, cudaStream_t) { no_cuda(); }
std::vector<insert_status> hopscotch_map::insert(const std::vector<key_type>&, const std::vector<value_type>&) { no_cuda(); }
std::vector<std::uint8_t> hopscotch_map::erase(const std::vector<key_type>&) { no_cuda(); }
std::vector<std::uint8_t> hopscotch_map::find(const std::vector<key_type>&, std::vector<value_type>&) { no_cuda(); }
std::vector<op_result> hopscotch_map::mixed(const std::vector<op>&) { no_cuda(); }
index_t hopscotch_map::size() const { no_cuda(); }
index_t hopscotch_map::capacity() const { no_cuda(); }
double hopscotch_map::load_factor() const { no_cuda(); }
void hopscotch_map::rehash(index_t) { no_cuda(); }
void hopscotch_map::clear() { no_cuda(); }
int hopscotch_map::grow_count() const { no_cuda(); }
hopscotch_view hopscotch_map::view() const { no_cuda(); }
const hopscotch_options& hopscotch_map::options() const { no_cuda(); }
table_snapshot hopscotch_map::snapshot() const { no_cuda(); }

namespace bench_gpu {
bool available() { return false; }
std::string device_name() { return "none"; }
double copy_bandwidth_gbs(std::size_t) { no_cuda(); }
void check_static_memory(index_t, double) { no_cuda(); }
static_timing run_static(const std::string&, const std::vector<key_type>&, const std::vector<value_type>&,
                         const std::vector<key_type>&, double, int, bool) { no_cuda(); }
mixed_timing run_mixed(const std::string&, const std::vector<op>&, index_t, int, bool) { no_cuda(); }
static_check check_static_results(const insert_status*, const insert_status*, const std::uint8_t*, const value_type*,
                                  const value_type*, index_t, const std::uint8_t*, index_t) {
  no_cuda();
}
}  // namespace bench_gpu

}  // namespace gpu500::hash
