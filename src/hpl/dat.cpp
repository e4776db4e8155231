// HPL.dat reader (netlib HPL 2.3 HPL_pdinfo semantics; see gpu500/hpl/dat.hpp), its writer and the
// T/V code.
#include "gpu500/hpl/dat.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu500/core/error.hpp"

namespace gpu500::hpl {
namespace {

class reader {
 public:
  reader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  // The first `k` tokens of the next line (netlib reads lines with fgets, 256 characters).
  std::vector<std::string> tokens(int k, const char* what) {
    std::string line;
    ++lineno_;
    if (!std::getline(in_, line))
      fail(std::string("file ends before line ") + std::to_string(lineno_) + " (" + what +
           "); an HPL.dat has 31 lines");
    if (line.size() > 254) line.resize(254);
    std::istringstream ls(line);
    std::vector<std::string> out;
    std::string t;
    while (static_cast<int>(out.size()) < k && ls >> t) out.push_back(t);
    if (static_cast<int>(out.size()) < k)
      fail(std::string(what) + ": expected " + std::to_string(k) + " value" + (k > 1 ? "s" : "") +
           ", found " + std::to_string(out.size()));
    return out;
  }
  void skip() {
    std::string line;
    ++lineno_;
    if (!std::getline(in_, line)) fail("file ends before line " + std::to_string(lineno_));
  }
  std::int64_t integer(const std::string& t, const char* what) {
    errno = 0;
    char* end = nullptr;
    const long long v = std::strtoll(t.c_str(), &end, 10);
    if (end == t.c_str() || *end != '\0' || errno == ERANGE)
      fail(std::string(what) + ": '" + t + "' is not an integer");
    return v;
  }
  double real(const std::string& t, const char* what) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end != '\0' || errno == ERANGE || std::isnan(v))
      fail(std::string(what) + ": '" + t + "' is not a number");
    return v;
  }
  int count(const char* what) {
    const auto v = integer(tokens(1, what)[0], what);
    if (v < 1 || v > max_param)
      fail(std::string(what) + " is " + std::to_string(v) + "; it must be between 1 and " +
           std::to_string(max_param));
    return static_cast<int>(v);
  }
  // A list line of `n` integers, each >= lo.
  std::vector<std::int64_t> list(int n, std::int64_t lo, const char* what) {
    std::vector<std::int64_t> out;
    for (const auto& t : tokens(n, what)) {
      const auto v = integer(t, what);
      if (v < lo) fail(std::string(what) + ": value " + std::to_string(v) + " is below " + std::to_string(lo));
      if (v > INT32_MAX) fail(std::string(what) + ": value " + std::to_string(v) + " is too large");
      out.push_back(v);
    }
    return out;
  }
  [[noreturn]] void fail(std::string msg) const {
    for (auto& c : msg)  // a token echoed from a binary file shows no raw bytes
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    throw usage_error(name_ + " line " + std::to_string(lineno_) + ": " + msg);
  }
  // netlib's silent fallback, said aloud: the values of `field` on this line that `valid` refuses
  // take `used`; one line per field.
  template <class V, class Valid>
  void fallback(const std::vector<V>& values, const char* field, const char* range, Valid valid,
                const std::string& used, bool netlib = true) {
    std::string bad;
    int nbad = 0;
    for (const auto& v : values)
      if (!valid(v)) bad += (nbad++ ? ", " : "") + std::to_string(v);
    if (nbad == 0) return;
    warnings_.push_back(name_ + " line " + std::to_string(lineno_) + ": " + field + " " + bad +
                        (nbad > 1 ? " are not " : " is not ") + range + "; using " + used +
                        (netlib ? ", as netlib HPL does" : ""));
  }
  std::vector<std::string> take_warnings() { return std::move(warnings_); }

 private:
  std::istream& in_;
  std::string name_;
  int lineno_ = 0;
  std::vector<std::string> warnings_;
};

template <class T, class F>
std::vector<T> map(const std::vector<std::int64_t>& v, F f) {
  std::vector<T> out;
  for (auto x : v) out.push_back(f(x));
  return out;
}
std::vector<int> ints(const std::vector<std::int64_t>& v) {
  return map<int>(v, [](std::int64_t x) { return static_cast<int>(x); });
}

}  // namespace

int variant_code(const std::string& v, const std::string& what, const std::vector<std::string>& names) {
  int i = 0;
  std::string list;
  for (const auto& n : names) {
    if (v == n) return i;
    list += (i++ ? "|" : "") + n;
  }
  errno = 0;
  char* end = nullptr;
  const long long code = v.empty() ? 0 : std::strtoll(v.c_str(), &end, 10);
  const auto last = static_cast<long long>(names.size()) - 1;
  if (v.empty() || *end != '\0' || errno == ERANGE || code < 0 || code > last)
    throw usage_error(what + ": expected " + list + " or a code 0.." + std::to_string(last) + ", got '" + v + "'");
  return static_cast<int>(code);
}

fact fact_from_code(int code) { return code == 0 ? fact::left : code == 1 ? fact::crout : fact::right; }
bcast bcast_from_code(int code) { return code >= 0 && code <= 5 ? static_cast<bcast>(code) : bcast::ring1m; }
swap swap_from_code(int code) { return code >= 0 && code <= 2 ? static_cast<swap>(code) : swap::longs; }

dat_file parse_dat(std::istream& in, const std::string& name) {
  reader r(in, name);
  dat_file d;
  const auto in_range = [](std::int64_t lo, std::int64_t hi) { return [lo, hi](std::int64_t v) { return v >= lo && v <= hi; }; };
  // One integer on its own line (PMAP, SWAP, the swap threshold, L1, U, EQUIL, ALIGN).
  const auto one = [&r](const char* what) { return r.integer(r.tokens(1, what)[0], what); };
  r.skip();
  r.skip();
  d.output_file = r.tokens(1, "output file name")[0];
  d.device_out = static_cast<int>(r.integer(r.tokens(1, "device out")[0], "device out"));
  const int ns = r.count("number of problem sizes (N)");
  d.ns = r.list(ns, 0, "Ns");
  const int nnb = r.count("number of NBs");
  d.nbs = ints(r.list(nnb, 1, "NBs"));
  const auto pmap = one("PMAP");
  r.fallback(std::vector{pmap}, "PMAP", "0 or 1", in_range(0, 1), "0 (row-major)");
  d.pmap_col_major = pmap == 1;
  const int ng = r.count("number of process grids");
  d.ps = ints(r.list(ng, 1, "Ps"));
  d.qs = ints(r.list(ng, 1, "Qs"));
  d.threshold = r.real(r.tokens(1, "threshold")[0], "threshold");
  const auto facts = [&](const char* what, const char* field) {
    const auto v = r.list(r.count(what), INT32_MIN, field);
    r.fallback(v, field, "0..2", in_range(0, 2), "2 (Right)");
    return map<fact>(v, [](std::int64_t x) { return fact_from_code(int(x)); });
  };
  d.pfacts = facts("number of panel facts", "PFACT");
  const int nnbm = r.count("number of recursive stopping criteria");
  d.nbmins = ints(r.list(nnbm, 1, "NBMINs"));
  const int ndv = r.count("number of panels in recursion");
  d.ndivs = ints(r.list(ndv, 2, "NDIVs"));
  d.rfacts = facts("number of recursive panel facts", "RFACT");
  const auto bcs = r.list(r.count("number of broadcasts"), INT32_MIN, "BCAST");
  r.fallback(bcs, "BCAST", "0..5", in_range(0, 5), "1 (1ringM)");
  d.bcasts = map<bcast>(bcs, [](std::int64_t x) { return bcast_from_code(int(x)); });
  const int ndp = r.count("number of look-ahead depths");
  d.depths = ints(r.list(ndp, 0, "DEPTHs"));  // netlib refuses a negative depth too
  const auto swp = one("SWAP");
  r.fallback(std::vector{swp}, "SWAP", "0..2", in_range(0, 2), "1 (long)");
  d.swp = swap_from_code(static_cast<int>(std::clamp<std::int64_t>(swp, -1, 3)));
  const auto tswap = one("swapping threshold");
  r.fallback(std::vector{tswap}, "swapping threshold", ">= 0", in_range(0, INT32_MAX), "0");
  d.swap_threshold = static_cast<int>(std::clamp<std::int64_t>(tswap, 0, INT32_MAX));
  const auto l1 = one("L1 form");
  r.fallback(std::vector{l1}, "L1", "0 or 1", in_range(0, 1), "0 (transposed)");
  d.l1_notrans = l1 == 1 ? 1 : 0;
  const auto u = one("U form");
  r.fallback(std::vector{u}, "U", "0 or 1", in_range(0, 1), "0 (transposed)");
  d.u_notrans = u == 1 ? 1 : 0;
  const auto eq = one("equilibration");
  r.fallback(std::vector{eq}, "EQUIL", "0 or 1", in_range(0, 1), "1 (yes)");
  d.equil = eq == 0 ? 0 : 1;
  const auto al = one("memory alignment");
  r.fallback(std::vector{al}, "ALIGN", "> 0", in_range(1, INT64_MAX), "4");
  r.fallback(std::vector{al}, "ALIGN", "at most 2^20 doubles", in_range(INT64_MIN, 1 << 20), "1048576", false);
  d.align = al <= 0 ? 4 : static_cast<int>(std::min<std::int64_t>(al, 1 << 20));
  for (std::size_t i = 0; i < d.ps.size(); ++i)
    if (static_cast<std::int64_t>(d.ps[i]) * d.qs[i] > (1 << 24))
      throw usage_error(name + ": process grid " + std::to_string(d.ps[i]) + " x " + std::to_string(d.qs[i]) + " is too large");
  d.warnings = r.take_warnings();
  return d;
}

dat_file read_dat(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw usage_error("HPL input file '" + path + "' is a directory");
  std::ifstream f(path);
  if (!f) throw usage_error("cannot open HPL input file '" + path + "'");
  return parse_dat(f, path);
}

std::vector<params> expand(const dat_file& d) {
  params base;  // the values that are not lists
  base.pmap_col_major = d.pmap_col_major;
  base.threshold = d.threshold;
  base.swp = d.swp;
  base.swap_threshold = d.swap_threshold;
  base.l1_notrans = d.l1_notrans;
  base.u_notrans = d.u_notrans;
  base.equil = d.equil;
  base.align = d.align;
  std::vector<params> out;
  for (std::size_t g = 0; g < d.ps.size(); ++g)
    for (auto n : d.ns)
      for (auto nb : d.nbs)
        for (auto depth : d.depths)
          for (auto bc : d.bcasts)
            for (auto rf : d.rfacts)
              for (auto pf : d.pfacts)
                for (auto nbmin : d.nbmins)
                  for (auto ndiv : d.ndivs) {
                    params p = base;
                    p.p = d.ps[g];
                    p.q = d.qs[g];
                    p.n = n;
                    p.nb = nb;
                    p.depth = depth;
                    p.bc = bc;
                    p.rfact = rf;
                    p.pfact = pf;
                    p.nbmin = nbmin;
                    p.ndiv = ndiv;
                    out.push_back(p);
                  }
  return out;
}

dat_file single(const params& p) {
  dat_file d;
  d.ns = {p.n};
  d.nbs = {p.nb};
  d.pmap_col_major = p.pmap_col_major;
  d.ps = {p.p};
  d.qs = {p.q};
  d.threshold = p.threshold;
  d.pfacts = {p.pfact};
  d.nbmins = {p.nbmin};
  d.ndivs = {p.ndiv};
  d.rfacts = {p.rfact};
  d.bcasts = {p.bc};
  d.depths = {p.depth};
  d.swp = p.swp;
  d.swap_threshold = p.swap_threshold;
  d.l1_notrans = p.l1_notrans;
  d.u_notrans = p.u_notrans;
  d.equil = p.equil;
  d.align = p.align;
  return d;
}

std::string format_dat(const dat_file& d, const std::string& comment) {
  std::ostringstream o;
  auto list = [&o](const auto& v, const char* count, const char* name) {
    o << v.size() << "            " << count << "\n";
    for (const auto& x : v) o << static_cast<long long>(x) << ' ';
    o << "          " << name << "\n";
  };
  o << "HPLinpack benchmark input file\n" << (comment.empty() ? "gpu500 hpl" : comment) << "\n";
  o << d.output_file << "      output file name (if any)\n" << d.device_out << "            device out (6=stdout,7=stderr,file)\n";
  list(d.ns, "# of problems sizes (N)", "Ns");
  list(d.nbs, "# of NBs", "NBs");
  o << (d.pmap_col_major ? 1 : 0) << "            PMAP process mapping (0=Row-,1=Column-major)\n";
  list(d.ps, "# of process grids (P x Q)", "Ps");
  o << d.qs[0];
  for (std::size_t i = 1; i < d.qs.size(); ++i) o << ' ' << d.qs[i];
  o << "            Qs\n" << d.threshold << "         threshold\n";
  list(d.pfacts, "# of panel fact", "PFACTs (0=left, 1=Crout, 2=Right)");
  list(d.nbmins, "# of recursive stopping criterium", "NBMINs (>= 1)");
  list(d.ndivs, "# of panels in recursion", "NDIVs");
  list(d.rfacts, "# of recursive panel fact.", "RFACTs (0=left, 1=Crout, 2=Right)");
  list(d.bcasts, "# of broadcast", "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)");
  list(d.depths, "# of lookahead depth", "DEPTHs (>=0)");
  o << static_cast<int>(d.swp) << "            SWAP (0=bin-exch,1=long,2=mix)\n"
    << d.swap_threshold << "           swapping threshold\n"
    << d.l1_notrans << "            L1 in (0=transposed,1=no-transposed) form\n"
    << d.u_notrans << "            U  in (0=transposed,1=no-transposed) form\n"
    << d.equil << "            Equilibration (0=no,1=yes)\n"
    << d.align << "            memory alignment in double (> 0)\n";
  return o.str();
}

std::string tv_code(const params& p) {
  static const char lcr[] = {'L', 'C', 'R'};
  char buf[64];
  std::snprintf(buf, sizeof buf, "W%c%1d%c%c%1d%c%1d", p.pmap_col_major ? 'C' : 'R', p.depth,
                static_cast<char>('0' + static_cast<int>(p.bc)), lcr[static_cast<int>(p.rfact)], p.ndiv,
                lcr[static_cast<int>(p.pfact)], p.nbmin);
  return buf;
}

}  // namespace gpu500::hpl
