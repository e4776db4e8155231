// OpenCL C 1.2 kernels of dense Bellman-Ford (Liu et al.): the same three kernels as
// ../cuda/round_kernels.cuh, one Jacobi round each:
//   best = min_j cur[j] + w(j, v) with the smallest j on ties; if best < cur[v] then
//   next[v] = best, pred[v] = j, *changed = 1; else next[v] = cur[v].
// cur/next hold ld floats (padding +inf, never written); the matrix has pitch ld.
// This file is embedded into the library at build time (see ../CMakeLists.txt).

// Fold candidate (c, j); callers visit j in ascending order, so '<' keeps the smallest j.
inline void fold(float* best, int* arg, float c, int j) {
  if (c < *best) {
    *best = c;
    *arg = j;
  }
}

// Tie rule between partial results: smaller value, then smaller index.
inline int better(float od, int oj, float bd, int bj) { return od < bd || (od == bd && oj < bj); }

// Tree reduction over the work-group (M = local size, a power of two) in local memory:
// log2(M) halving steps; every work-item gets the result.
inline void group_argmin(float* best, int* arg, __local float* sd, __local int* sj) {
  const int t = get_local_id(0);
  sd[t] = *best;
  sj[t] = *arg;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (t < s && better(sd[t + s], sj[t + s], sd[t], sj[t])) {
      sd[t] = sd[t + s];
      sj[t] = sj[t + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *best = sd[0];
  *arg = sj[0];
}

inline void commit(int v, float best, int arg, __global const float* cur, __global float* next,
                   __global int* pred, __global int* changed) {
  const float old = cur[v];
  if (best < old) {
    next[v] = best;
    pred[v] = arg;
    *changed = 1;  // every writer stores the same value
  } else {
    next[v] = old;
  }
}

// BF_Naive: work-item v loops over column v of the by_source matrix.
__kernel void bf_naive(__global const float* restrict w, ulong ld, int n, __global const float* restrict cur,
                       __global float* restrict next, __global int* restrict pred, __global int* restrict changed) {
  const int v = get_global_id(0);
  if (v >= n) return;
  float best = INFINITY;
  int arg = n;
  for (int j = 0; j < n; ++j) fold(&best, &arg, cur[j] + w[(ulong)j * ld + v], j);
  commit(v, best, arg, cur, next, pred, changed);
}

// BF_Reduce: work-group v; work-item t folds j = t, t+M, ... of column v, then the tree.
__kernel void bf_reduce(__global const float* restrict w, ulong ld, int n, __global const float* restrict cur,
                        __global float* restrict next, __global int* restrict pred, __global int* restrict changed,
                        __local float* sd, __local int* sj) {
  const int v = get_group_id(0), t = get_local_id(0), m = get_local_size(0);
  float best = INFINITY;
  int arg = n;
  for (int j = t; j < n; j += m) fold(&best, &arg, cur[j] + w[(ulong)j * ld + v], j);
  group_argmin(&best, &arg, sd, sj);
  if (t == 0) commit(v, best, arg, cur, next, pred, changed);
}

// BF_Reduce_Coarse: work-group v reads row v of the by_target (transposed) matrix, contiguous,
// as float4 (ld is a multiple of 4, padding +inf), then the tree.
__kernel void bf_reduce_coarse(__global const float* restrict wt, ulong ld, int n, __global const float* restrict cur,
                               __global float* restrict next, __global int* restrict pred,
                               __global int* restrict changed, __local float* sd, __local int* sj) {
  const int v = get_group_id(0), t = get_local_id(0), m = get_local_size(0);
  float best = INFINITY;
  int arg = n;
  __global const float4* row = (__global const float4*)(wt + (ulong)v * ld);
  __global const float4* c4 = (__global const float4*)cur;
  const int quads = (int)(ld / 4);
  for (int q = t; q < quads; q += m) {
    const float4 a = row[q];
    const float4 d = c4[q];
    const int j = 4 * q;
    fold(&best, &arg, d.x + a.x, j);
    fold(&best, &arg, d.y + a.y, j + 1);
    fold(&best, &arg, d.z + a.z, j + 2);
    fold(&best, &arg, d.w + a.w, j + 3);
  }
  group_argmin(&best, &arg, sd, sj);
  if (t == 0) commit(v, best, arg, cur, next, pred, changed);
}
