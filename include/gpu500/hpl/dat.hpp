// gpu500/hpl/dat.hpp — the HPL.dat input file, read exactly as netlib HPL 2.3 (HPL_pdinfo) reads it.
//
// 31 lines; of every line only the first whitespace-separated token is used (list lines: the
// first k tokens). Lists hold 1..20 values. Out-of-range codes fall back as netlib does (PMAP:
// not 0/1 -> row-major; PFACT/RFACT: not 0..2 -> Right; BCAST: not 0..5 -> 1ringM; SWAP: not
// 0..2 -> long; swap threshold < 0 -> 0; L1/U: not 0/1 -> transposed; EQUIL: not 0/1 -> yes;
// ALIGN <= 0 -> 4), but not silently: each such field adds one line to dat_file::warnings, which
// the program prints on rank 0 only (the parser runs on every rank). Malformed files (missing, short, garbage tokens, counts or values out of range) throw
// gpu500::usage_error with one line naming the file, the line and the limit.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace gpu500::hpl {

inline constexpr int max_param = 20;  ///< HPL_MAX_PARAM

enum class fact : int { left = 0, crout = 1, right = 2 };
enum class bcast : int { ring1 = 0, ring1m = 1, ring2 = 2, ring2m = 3, blong = 4, blongm = 5 };
enum class swap : int { bin_exch = 0, longs = 1, mix = 2 };

/// The parsed file: every list as written (after netlib's fallbacks).
struct dat_file {
  std::string output_file = "HPL.out";
  int device_out = 6;  ///< 6 = stdout, 7 = stderr, anything else = output_file
  std::vector<std::int64_t> ns;
  std::vector<int> nbs;
  bool pmap_col_major = false;
  std::vector<int> ps, qs;
  double threshold = 16.0;
  std::vector<fact> pfacts;
  std::vector<int> nbmins, ndivs;
  std::vector<fact> rfacts;
  std::vector<bcast> bcasts;
  std::vector<int> depths;
  swap swp = swap::mix;
  int swap_threshold = 64;
  int l1_notrans = 0, u_notrans = 0;  ///< 0 = transposed form
  int equil = 1;
  int align = 8;
  /// One line per field that took a fallback ("HPL.dat line 15: PFACT 9 is not 0..2; using 2
  /// (Right), as netlib HPL does"), in file order; for the caller to print once.
  std::vector<std::string> warnings;
};

/// One test: one combination of the lists.
struct params {
  std::int64_t n = 0;
  int nb = 192;
  bool pmap_col_major = false;
  int p = 1, q = 1;
  double threshold = 16.0;
  fact pfact = fact::right, rfact = fact::crout;
  int nbmin = 4, ndiv = 2;
  bcast bc = bcast::ring1m;
  int depth = 1;
  swap swp = swap::mix;
  int swap_threshold = 64;
  int l1_notrans = 0, u_notrans = 0, equil = 1, align = 8;
};

/// Parse HPL.dat text; `name` is used in error messages. Throws usage_error.
dat_file parse_dat(std::istream& in, const std::string& name);
/// Read and parse a file (missing file -> usage_error).
dat_file read_dat(const std::string& path);
/// Every combination in netlib's order: grids, N, NB, DEPTH, BCAST, RFACT, PFACT, NBMIN, NDIV
/// (outermost first).
std::vector<params> expand(const dat_file& d);
/// The dat_file holding exactly one test.
dat_file single(const params& p);

/// The 31-line HPL.dat text of `d` (read back by parse_dat to the same lists); `comment` is
/// line 2 (free text).
std::string format_dat(const dat_file& d, const std::string& comment);

/// Fallback mapping of integer codes (exposed for tests and the command line).
fact fact_from_code(int code);
bcast bcast_from_code(int code);
swap swap_from_code(int code);

/// A variant given by name or by code, as the short form takes it: the index of `v` in `names`,
/// else `v` read as an integer code, which must be an index of `names` (a flag takes no
/// fallback). Throws usage_error naming `what` when v is neither.
int variant_code(const std::string& v, const std::string& what, const std::vector<std::string>& names);

/// The T/V string, e.g. "WR11C2R4".
std::string tv_code(const params& p);

}  // namespace gpu500::hpl
