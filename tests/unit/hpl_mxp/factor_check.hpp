// The backward error of low-precision LU factors: the check the CUDA tests apply to the device's
// factors, and the host tests to a host emulation of the device's rounding (so that the check is
// itself shown to pass correct factors and to catch wrong ones).
//
// With the computed factors L (unit lower) and U of A (both in one n x n array, column-major),
// R = A - L U. Entry (i, j) received the products L(i, k) U(k, j) for k below the start b of the
// block holding min(i, j) through the trailing updates, whose inputs were rounded to the GEMM's
// format; the rest in FP32 (panel). A rounded input x~ satisfies |x~ - x| <= u |x| + eta, u the
// format's unit roundoff (BF16 2^-8, FP16 2^-11, E4M3 2^-4: 3 mantissa bits) and eta the absolute
// error below its normal range (E4M3 after a power-of-two scale s < 2 amax / 448: s 2^-10; FP16
// after its scale; none for BF16). So each update product is off by at most
//   c |l u| + (1 + u)(eta_l |u| + eta_u |l|) + eta_l eta_u,   c = 2u + u^2,
// and R(i, j) is the sum of those over k < b, plus FP32 rounding (at most n 2^-22 sum |l u| over
// all k, twice the classical gamma_n) and the GEMM's accumulation (u / 8 sum |l u|, a margin).
// Rounding errors of different k are independent, so besides the worst case c S8 (S8 = sum of
// |l u| over k < b) the probabilistic bound of Hoeffding's inequality holds:
// |sum| <= lambda c sqrt(Q8) (Q8 = sum of (l u)^2 over k < b) except with probability
// 2 exp(-lambda^2 / 2); lambda = 7 makes that 5e-11 an entry. Checked:
//   every entry   |R(i, j)| <= min(c S8, 7 c sqrt(Q8)) + u/8 S8 + E8 + n 2^-22 S_all;
//   all entries   ||R||_F <= (2u + u/8) sqrt(sum Q8) + ||E8||_F + 2^-20 ||S_all||_F
// (the rounding's relative error has an RMS of about 0.6 u for a product, so ||R||_F is about
// 0.6 u sqrt(sum Q8): the bound has a margin of 3, and a wrong transpose or scale, whose error
// is of the size of the updates themselves, misses it by about 1 / (2u)); and ||R||_F above a
// twentieth of its bound: the rounding of the format did happen (a silent FP32 or BF16 GEMM
// instead of FP8 gives a sixteenth of it or less).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu500/hpl_mxp/mxp.hpp"

namespace gpu500::hpl_mxp::test {

/// Unit roundoff of a GEMM input format.
inline double unit_roundoff(precision p) {
  switch (p) {
    case precision::fp8: return std::ldexp(1.0, -4);
    case precision::bf16: return std::ldexp(1.0, -8);
    case precision::fp16: return std::ldexp(1.0, -11);
    case precision::fp32: break;
  }
  return std::ldexp(1.0, -24);
}

/// x rounded to nearest (ties to even) in a binary format with `bits` stored mantissa bits,
/// smallest normal exponent emin and largest finite value top, saturating (as __NV_SATFINITE).
inline double round_to_format(double x, int bits, int emin, double top) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int e = std::max(static_cast<int>(std::floor(std::log2(std::fabs(x)))), emin);
  const double spacing = std::ldexp(1.0, e - bits);
  const double r = std::nearbyint(x / spacing) * spacing;
  return std::clamp(r, -top, top);
}
inline double round_input(double x, precision p) {
  switch (p) {
    case precision::fp8: return round_to_format(x, 3, -6, 448.0);
    case precision::bf16: return round_to_format(x, 7, -126, 3.3895313892515355e38);
    case precision::fp16: return round_to_format(x, 10, -14, 65504.0);
    case precision::fp32: break;
  }
  return static_cast<double>(static_cast<float>(x));
}

/// The scale FP8 copies are divided by: 2^ceil(log2(amax / 448)) (1 for amax 0).
inline double fp8_scale_of(double amax) {
  if (amax == 0) return 1.0;
  int e = 0;
  const double f = std::frexp(amax / 448.0, &e);
  return std::ldexp(1.0, f == 0.5 ? e - 1 : e);
}
/// The power of two the FP16 L21 copies are multiplied by (at least n / 8 for n >= 8).
inline double fp16_scale_of(std::int64_t n) {
  return n < 8 ? 1.0 : std::ldexp(1.0, static_cast<int>(std::floor(std::log2(static_cast<double>(n) / 4.0))));
}

struct factor_check {
  double worst = 0;             ///< max over entries of |R(i, j)| / bound(i, j)
  std::int64_t wi = -1, wj = -1;  ///< where
  double frob = 0, frob_bound = 0;  ///< ||R||_F and its bound
};

/// The check of the file comment for factors f of a (both n x n, column-major, leading
/// dimension n), blocks of nb, trailing-update inputs rounded to p.
inline factor_check check_factors(const std::vector<float>& a, const std::vector<float>& f, std::int64_t n,
                                  std::int64_t nb, precision p) {
  const double u = unit_roundoff(p), c = 2 * u + u * u, acc = u / 8, g32 = static_cast<double>(n) * std::ldexp(1.0, -22);
  const std::int64_t blocks = (n + nb - 1) / nb;
  // eta of each block column's L21 and U12 copies.
  std::vector<double> eta_l(static_cast<std::size_t>(blocks), 0.0), eta_u(static_cast<std::size_t>(blocks), 0.0);
  for (std::int64_t kb = 0; kb < blocks; ++kb) {
    const std::int64_t k0 = kb * nb, k1 = std::min(n, k0 + nb);
    double amax_l = 0, amax_u = 0;
    for (std::int64_t k = k0; k < k1; ++k)
      for (std::int64_t i = k1; i < n; ++i) {
        amax_l = std::max(amax_l, std::fabs(static_cast<double>(f[k * n + i])));
        amax_u = std::max(amax_u, std::fabs(static_cast<double>(f[i * n + k])));
      }
    if (p == precision::fp8) {
      eta_l[kb] = amax_l * std::ldexp(1.0, -9) / 448.0;
      eta_u[kb] = amax_u * std::ldexp(1.0, -9) / 448.0;
    } else if (p == precision::fp16) {
      eta_l[kb] = std::ldexp(1.0, -25) / std::max(1.0, static_cast<double>(n) / 8.0);
      eta_u[kb] = std::ldexp(1.0, -25);
    }
  }
  // L by rows (k contiguous), the unit diagonal included.
  std::vector<double> lr(static_cast<std::size_t>(n * n), 0.0);
  for (std::int64_t k = 0; k < n; ++k) {
    lr[k * n + k] = 1.0;
    for (std::int64_t i = k + 1; i < n; ++i) lr[i * n + k] = f[k * n + i];
  }
  factor_check out;
  double rr = 0, q8_sum = 0, e8_sq = 0, sall_sq = 0;
  std::vector<double> ucol(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t k = 0; k <= j; ++k) ucol[k] = f[j * n + k];
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t kmax = std::min(i, j), b = kmax / nb * nb;
      const double* l = lr.data() + i * n;
      double sum = 0, s8 = 0, q8 = 0, e8 = 0, sall = 0;
      for (std::int64_t kb = 0; kb * nb < b; ++kb) {
        const double el = eta_l[kb], eu = eta_u[kb];
        for (std::int64_t k = kb * nb; k < (kb + 1) * nb; ++k) {
          const double prod = l[k] * ucol[k];
          sum += prod;
          s8 += std::fabs(prod);
          q8 += prod * prod;
          e8 += (1 + u) * (el * std::fabs(ucol[k]) + eu * std::fabs(l[k])) + el * eu;
        }
      }
      sall = s8;
      for (std::int64_t k = b; k <= kmax; ++k) {
        const double prod = l[k] * ucol[k];
        sum += prod;
        sall += std::fabs(prod);
      }
      const double r = static_cast<double>(a[j * n + i]) - sum;
      const double bound = std::min(c * s8, 7 * c * std::sqrt(q8)) + acc * s8 + e8 + g32 * sall;
      const double ratio = bound > 0 ? std::fabs(r) / bound : (r == 0 ? 0.0 : INFINITY);
      if (!(ratio <= out.worst)) {
        out.worst = ratio;
        out.wi = i;
        out.wj = j;
      }
      rr += r * r;
      q8_sum += q8;
      e8_sq += e8 * e8;
      sall_sq += sall * sall;
    }
  }
  out.frob = std::sqrt(rr);
  out.frob_bound = (2 * u + acc) * std::sqrt(q8_sum) + std::sqrt(e8_sq) + std::ldexp(1.0, -20) * std::sqrt(sall_sq);
  return out;
}

/// Wrong variants of the trailing update the host emulation can make, to show the check fails.
enum class emulated_bug { none, transposed_l21, doubled_update };

/// The device's LU emulated on the host: FP32 panels (unblocked), trailing updates from copies of
/// L21 and U12 rounded to p as the device rounds them (FP8: per-copy power-of-two scales from the
/// amax; FP16: L21 times fp16_scale_of(n)), products summed in double, the result rounded to FP32.
inline std::vector<float> emulated_lu(std::vector<float> a, std::int64_t n, std::int64_t nb, precision p,
                                      emulated_bug bug = emulated_bug::none) {
  auto at = [&](std::int64_t i, std::int64_t j) -> float& { return a[j * n + i]; };
  for (std::int64_t k0 = 0; k0 < n; k0 += nb) {
    const std::int64_t jb = std::min(nb, n - k0), k1 = k0 + jb, m2 = n - k1;
    for (std::int64_t kk = k0; kk < k1; ++kk) {
      for (std::int64_t i = kk + 1; i < n; ++i) at(i, kk) /= at(kk, kk);
      for (std::int64_t j = kk + 1; j < n; ++j) {
        const std::int64_t last = j < k1 ? n : k1;  // panel columns: every row; U12: the block's rows
        for (std::int64_t i = kk + 1; i < last; ++i) at(i, j) -= at(i, kk) * at(kk, j);
      }
    }
    if (m2 == 0) continue;
    double amax_l = 0, amax_u = 0;
    for (std::int64_t kk = k0; kk < k1; ++kk)
      for (std::int64_t t = k1; t < n; ++t) {
        amax_l = std::max(amax_l, std::fabs(static_cast<double>(at(t, kk))));
        amax_u = std::max(amax_u, std::fabs(static_cast<double>(at(kk, t))));
      }
    const double sl = p == precision::fp8 ? fp8_scale_of(amax_l) : p == precision::fp16 ? 1.0 / fp16_scale_of(n) : 1.0;
    const double su = p == precision::fp8 ? fp8_scale_of(amax_u) : 1.0;
    // lq(i, kk) row-major (i < m2, kk < jb): the transposed copy; uq(kk, j) column-major.
    std::vector<double> lq(static_cast<std::size_t>(m2 * jb)), uq(static_cast<std::size_t>(jb * m2));
    for (std::int64_t i = 0; i < m2; ++i)
      for (std::int64_t kk = 0; kk < jb; ++kk) lq[i * jb + kk] = round_input(at(k1 + i, k0 + kk) / sl, p) * sl;
    for (std::int64_t j = 0; j < m2; ++j)
      for (std::int64_t kk = 0; kk < jb; ++kk) uq[j * jb + kk] = round_input(at(k0 + kk, k1 + j) / su, p) * su;
    for (std::int64_t j = 0; j < m2; ++j)
      for (std::int64_t i = 0; i < m2; ++i) {
        double s = 0;
        for (std::int64_t kk = 0; kk < jb; ++kk) {
          // The bug reads the transposed copy as if it were not transposed (leading dimension m2).
          const double l = bug == emulated_bug::transposed_l21 ? lq[kk * m2 + i] : lq[i * jb + kk];
          s += l * uq[j * jb + kk];
        }
        if (bug == emulated_bug::doubled_update) s *= 2;
        at(k1 + i, k1 + j) = static_cast<float>(at(k1 + i, k1 + j) - s);
      }
  }
  return a;
}

}  // namespace gpu500::hpl_mxp::test
