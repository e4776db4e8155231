// libFuzzer target: the HPL.dat reader (hpl::parse_dat) on arbitrary bytes.
// Properties beyond "no crash, no sanitizer report": every refusal is a usage_error of one
// printable line; an accepted file has lists of 1..20 values within netlib's ranges, each
// fallback warning is one printable line, and format_dat writes it back so that parse_dat reads
// the same lists again with no warning.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

#include "check.hpp"
#include "gpu500/core/error.hpp"
#include "gpu500/hpl/dat.hpp"

using namespace gpu500;

namespace {

template <class V>
void check_list(const V& v) {
  FUZZ_CHECK(!v.empty() && v.size() <= static_cast<std::size_t>(hpl::max_param));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  hpl::dat_file d;
  try {
    d = hpl::parse_dat(in, "HPL.dat");
  } catch (const usage_error& e) {
    fuzz::check_one_line(e.what());
    return 0;
  }
  check_list(d.ns), check_list(d.nbs), check_list(d.ps), check_list(d.pfacts), check_list(d.nbmins);
  check_list(d.ndivs), check_list(d.rfacts), check_list(d.bcasts), check_list(d.depths);
  FUZZ_CHECK(d.ps.size() == d.qs.size());
  for (auto n : d.ns) FUZZ_CHECK(n >= 0);
  for (auto nb : d.nbs) FUZZ_CHECK(nb >= 1);
  for (std::size_t i = 0; i < d.ps.size(); ++i) FUZZ_CHECK(d.ps[i] >= 1 && d.qs[i] >= 1);
  for (auto x : d.nbmins) FUZZ_CHECK(x >= 1);
  for (auto x : d.ndivs) FUZZ_CHECK(x >= 2);
  for (auto x : d.depths) FUZZ_CHECK(x >= 0);
  FUZZ_CHECK(d.swap_threshold >= 0 && d.align >= 1 && d.align <= (1 << 20));
  FUZZ_CHECK((d.l1_notrans == 0 || d.l1_notrans == 1) && (d.u_notrans == 0 || d.u_notrans == 1));
  FUZZ_CHECK(d.equil == 0 || d.equil == 1);
  for (const auto& w : d.warnings) fuzz::check_one_line(w.c_str());
  // Written back (the output file name is a token: no blanks), it reads as the same lists.
  auto clean = d;
  clean.warnings.clear();
  std::istringstream again(hpl::format_dat(clean, "fuzz"));
  const auto e = hpl::parse_dat(again, "again");
  FUZZ_CHECK(e.warnings.empty());
  FUZZ_CHECK(e.ns == d.ns && e.nbs == d.nbs && e.ps == d.ps && e.qs == d.qs && e.pfacts == d.pfacts);
  FUZZ_CHECK(e.nbmins == d.nbmins && e.ndivs == d.ndivs && e.rfacts == d.rfacts && e.bcasts == d.bcasts);
  FUZZ_CHECK(e.depths == d.depths && e.swp == d.swp && e.swap_threshold == d.swap_threshold);
  FUZZ_CHECK(e.pmap_col_major == d.pmap_col_major && e.align == d.align && e.equil == d.equil);
  FUZZ_CHECK(e.device_out == d.device_out && e.output_file == d.output_file);
  return 0;
}
