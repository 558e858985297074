// rooflab automatic-mutant prelude: the helpers that mutators/auto_mutation.cpp writes into an
// unannotated kernel when it rewrites it into a compute-only or memory-only mutant. It follows
// prelude.cl (rl_fake_value_keyed, rl_mutant_key) and is prepended only to automatic mutants. The double
// helpers are compiled only when a mutant uses them (RL_AUTO_DOUBLE), since they need cl_khr_fp64.

// The seed of a compute-only value: the element's address, so that loads of different elements
// and of different buffers give different values and none can be merged or folded.
inline uint rl_auto_seed(ulong address) { return (uint)(address >> 2); }
// A lane of the vector at `address`: set apart from its neighbours by a salt, added here so that
// the mutant's census counts no operation of its own.
inline uint rl_auto_seed_lane(ulong address, uint salt) { return rl_auto_seed(address) + salt; }
// vloadN(offset, p): the address p + offset * N elements.
inline uint rl_auto_seed_vector(ulong p, ulong offset, uint lanes, uint element_bytes) {
  return rl_auto_seed(p + offset * lanes * element_bytes);
}

// compute-only: a register value of each loadable type, made with integer operations from the seed
// and the mutant's run-time key (a kernel argument: the compiler knows neither the value nor its
// range). With the key rooflab passes, floating-point values lie in [0.5, 1), so arithmetic on them
// stays in the normal range; integer values span their type (a value that decides an address, a
// bound or a divisor is never made up: the rewriter keeps those loads).
inline float rl_auto_fake_float(uint h, uint key) { return rl_fake_value_keyed(h, key); }
inline uint rl_auto_mix(uint h) { return h * 2654435761u ^ (h >> 15); }
inline int rl_auto_fake_int(uint h, uint key) { return (int)rl_auto_mix(h ^ key); }
inline uint rl_auto_fake_uint(uint h, uint key) { return rl_auto_mix(h ^ key); }
inline long rl_auto_fake_long(uint h, uint key) { return (long)(((ulong)rl_auto_mix(h ^ key) << 32) | rl_auto_mix((h + 1u) ^ key)); }
inline ulong rl_auto_fake_ulong(uint h, uint key) { return ((ulong)rl_auto_mix(h ^ key) << 32) | rl_auto_mix((h + 1u) ^ key); }
inline short rl_auto_fake_short(uint h, uint key) { return (short)rl_auto_mix(h ^ key); }
inline ushort rl_auto_fake_ushort(uint h, uint key) { return (ushort)rl_auto_mix(h ^ key); }
inline char rl_auto_fake_char(uint h, uint key) { return (char)rl_auto_mix(h ^ key); }
inline uchar rl_auto_fake_uchar(uint h, uint key) { return (uchar)rl_auto_mix(h ^ key); }

// Lanes differ (a splatted value lets the compiler merge lanes' work).
#define RL_AUTO_FAKE_VECTORS(T)                                                                       \
  inline T##2 rl_auto_fake_##T##2(uint h, uint k) { return (T##2)(rl_auto_fake_##T(h, k), rl_auto_fake_##T(h + 1u, k)); } \
  inline T##3 rl_auto_fake_##T##3(uint h, uint k) {                                                   \
    return (T##3)(rl_auto_fake_##T(h, k), rl_auto_fake_##T(h + 1u, k), rl_auto_fake_##T(h + 2u, k)); \
  }                                                                                                   \
  inline T##4 rl_auto_fake_##T##4(uint h, uint k) { return (T##4)(rl_auto_fake_##T##2(h, k), rl_auto_fake_##T##2(h + 2u, k)); } \
  inline T##8 rl_auto_fake_##T##8(uint h, uint k) { return (T##8)(rl_auto_fake_##T##4(h, k), rl_auto_fake_##T##4(h + 4u, k)); } \
  inline T##16 rl_auto_fake_##T##16(uint h, uint k) { return (T##16)(rl_auto_fake_##T##8(h, k), rl_auto_fake_##T##8(h + 8u, k)); }

// compute-only stores: every bit of the stored value enters a comparison with the run-time key, so
// the compiler must compute all of it and cannot decide the condition; with the key rooflab passes
// it is never true for a value the kernel computes in practice (mutant_key.hpp).
inline uint rl_auto_bits_float(float v) { return as_uint(v); }
inline uint rl_auto_bits_int(int v) { return (uint)v; }
inline uint rl_auto_bits_uint(uint v) { return v; }
inline uint rl_auto_bits_long(long v) { return (uint)v ^ (uint)((ulong)v >> 32); }
inline uint rl_auto_bits_ulong(ulong v) { return (uint)v ^ (uint)(v >> 32); }
inline uint rl_auto_bits_short(short v) { return (uint)v; }
inline uint rl_auto_bits_ushort(ushort v) { return (uint)v; }
inline uint rl_auto_bits_char(char v) { return (uint)v; }
inline uint rl_auto_bits_uchar(uchar v) { return (uint)v; }
#define RL_AUTO_BITS_VECTORS(T)                                                                       \
  inline uint rl_auto_bits_##T##2(T##2 v) { return rl_auto_bits_##T(v.x) ^ rl_auto_bits_##T(v.y); } \
  inline uint rl_auto_bits_##T##3(T##3 v) {                                                           \
    return rl_auto_bits_##T(v.x) ^ rl_auto_bits_##T(v.y) ^ rl_auto_bits_##T(v.z);                    \
  }                                                                                                   \
  inline uint rl_auto_bits_##T##4(T##4 v) { return rl_auto_bits_##T##2(v.lo) ^ rl_auto_bits_##T##2(v.hi); } \
  inline uint rl_auto_bits_##T##8(T##8 v) { return rl_auto_bits_##T##4(v.lo) ^ rl_auto_bits_##T##4(v.hi); } \
  inline uint rl_auto_bits_##T##16(T##16 v) { return rl_auto_bits_##T##8(v.lo) ^ rl_auto_bits_##T##8(v.hi); }

// compute-only async_work_group_copy from global memory: the work-group fills the local copy with
// register stand-ins (a barrier makes it whole, as the wait on the copy would), and an empty copy
// gives the kernel the event it waits on.
#define RL_AUTO_FILL(T)                                                                               \
  inline void rl_auto_fill_local_##T(local T* dst, ulong src, size_t n, uint key) {                  \
    const size_t lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)); \
    const size_t lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);                    \
    for (size_t k = lid; k < n; k += lsz) dst[k] = rl_auto_fake_##T(rl_auto_seed(src + k * sizeof(T)), key); \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                     \
  }                                                                                                   \
  inline event_t rl_auto_async_none_##T(local T* dst, const global T* src, event_t e) {              \
    return async_work_group_copy(dst, src, (size_t)0, e);                                             \
  }                                                                                                   \
  inline event_t rl_auto_async_out_##T(global T* dst, const local T* src, size_t n, event_t e, uint key) { \
    const size_t lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)); \
    const size_t lsz = get_local_size(0) * get_local_size(1) * get_local_size(2);                    \
    for (size_t k = lid; k < n; k += lsz) {                                                           \
      const T v = src[k];                                                                             \
      if (rl_auto_bits_##T(v) == key) dst[k] = v;                                                     \
    }                                                                                                 \
    return async_work_group_copy(dst, src, (size_t)0, e);                                             \
  }
#define RL_AUTO_FILL_VECTORS(T) RL_AUTO_FILL(T) RL_AUTO_FILL(T##2) RL_AUTO_FILL(T##3) RL_AUTO_FILL(T##4) \
  RL_AUTO_FILL(T##8) RL_AUTO_FILL(T##16)

// compute-only p[i]++: the made-up value stepped by one in a helper, so that the mutant's census
// counts no operation the original's ++ does not have.
#define RL_AUTO_STEP(T) inline T rl_auto_step_##T(T v, T d) { return v + d; }

#define RL_AUTO_ALL(T) RL_AUTO_FAKE_VECTORS(T) RL_AUTO_BITS_VECTORS(T) RL_AUTO_FILL_VECTORS(T) RL_AUTO_STEP(T)
RL_AUTO_ALL(float)
RL_AUTO_ALL(int)
RL_AUTO_ALL(uint)
RL_AUTO_ALL(long)
RL_AUTO_ALL(ulong)
RL_AUTO_ALL(short)
RL_AUTO_ALL(ushort)
RL_AUTO_ALL(char)
RL_AUTO_ALL(uchar)

// memory-only: a fold in place of an operation, which keeps both operands live. A floating-point
// operation becomes the sum of its operands: the value stays floating-point, so the compiler shapes
// the kernel's loops as it shapes the original's. A fold on the bits (xor) turns a float accumulator
// into an integer one, and LLVM's runtime unroller puts a loop's leftover iterations after the
// unrolled body instead of before it when an accumulator starts at an integer constant: where work
// items run different trip counts (CSR rows), that changes which work items' loads share a warp's
// request, and so the sectors they touch (seen on an H100: a CSR SpMV's memory-only mutant touched
// 6.9% fewer global sectors than its original, every load kept). Not fmax either: PoCL does not
// vectorise it across work items (a 3x3 convolution's memory-only mutant ran 12-19x longer than its
// original on PoCL, where the sum runs as fast), and a GPU issues min/max at a lower rate than an add.
#define RL_AUTO_FOLD_FLOATING(T)                                                                      \
  inline T rl_auto_fold_##T(T a, T b) { return a + b; }                                               \
  inline T##2 rl_auto_fold_##T##2(T##2 a, T##2 b) { return a + b; }                                  \
  inline T##3 rl_auto_fold_##T##3(T##3 a, T##3 b) { return a + b; }                                  \
  inline T##4 rl_auto_fold_##T##4(T##4 a, T##4 b) { return a + b; }                                  \
  inline T##8 rl_auto_fold_##T##8(T##8 a, T##8 b) { return a + b; }                                  \
  inline T##16 rl_auto_fold_##T##16(T##16 a, T##16 b) { return a + b; }
RL_AUTO_FOLD_FLOATING(float)
// Integer vectors: each lane folded as the scalar is. The rotation keeps fold(x, x) from cancelling
// to a constant (which would let the compiler drop the load of x).
#define RL_AUTO_FOLD_VECTOR(T, U, N)                                                                  \
  inline T##N rl_auto_fold_##T##N(T##N a, T##N b) {                                                  \
    return as_##T##N(as_##U##N(a) ^ rotate(as_##U##N(b), (U##N)(1)));                                 \
  }
#define RL_AUTO_FOLD_VECTORS(T, U)                                                                    \
  RL_AUTO_FOLD_VECTOR(T, U, 2) RL_AUTO_FOLD_VECTOR(T, U, 4) RL_AUTO_FOLD_VECTOR(T, U, 8) RL_AUTO_FOLD_VECTOR(T, U, 16) \
  inline T##3 rl_auto_fold_##T##3(T##3 a, T##3 b) {                                                  \
    return (T##3)(rl_auto_fold_##T(a.x, b.x), rl_auto_fold_##T(a.y, b.y), rl_auto_fold_##T(a.z, b.z)); \
  }
// Integer arithmetic outside the structure is folded the same way.
#define RL_AUTO_FOLD_INTEGER(T)                                                                       \
  inline T rl_auto_fold_##T(T a, T b) { return a ^ rotate(b, (T)1); }                                 \
  RL_AUTO_FOLD_VECTORS(T, T)
RL_AUTO_FOLD_INTEGER(int)
RL_AUTO_FOLD_INTEGER(uint)
RL_AUTO_FOLD_INTEGER(long)
RL_AUTO_FOLD_INTEGER(ulong)
RL_AUTO_FOLD_INTEGER(short)
RL_AUTO_FOLD_INTEGER(ushort)
RL_AUTO_FOLD_INTEGER(char)
RL_AUTO_FOLD_INTEGER(uchar)
// dot, length, distance in memory-only: the lanes of a vector folded into one value of its type.
#define RL_AUTO_LANES(T)                                                                              \
  inline T rl_auto_lanes_##T##2(T##2 v) { return as_##T(rl_auto_bits_##T##2(v)); }                   \
  inline T rl_auto_lanes_##T##3(T##3 v) { return as_##T(rl_auto_bits_##T##3(v)); }                   \
  inline T rl_auto_lanes_##T##4(T##4 v) { return as_##T(rl_auto_bits_##T##4(v)); }                   \
  inline T rl_auto_lanes_##T##8(T##8 v) { return as_##T(rl_auto_bits_##T##8(v)); }                   \
  inline T rl_auto_lanes_##T##16(T##16 v) { return as_##T(rl_auto_bits_##T##16(v)); }
RL_AUTO_LANES(float)

#ifdef RL_AUTO_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
// From integer operations only (no FP64 instruction the original lacks); sign and exponent from the
// key (with the key rooflab passes, in [0.5, 1)).
inline double rl_auto_fake_double(uint h, uint key) {
  const ulong high = ((key ^ 0x40400000u) & 0xfff00000u) | (rl_auto_mix(h ^ key) & 0x000fffffu);
  return as_double((high << 32) | rl_auto_mix((h + 7u) ^ key));
}
inline uint rl_auto_bits_double(double v) { return rl_auto_bits_ulong(as_ulong(v)); }
RL_AUTO_FAKE_VECTORS(double)
RL_AUTO_BITS_VECTORS(double)
RL_AUTO_FILL_VECTORS(double)
RL_AUTO_STEP(double)
RL_AUTO_FOLD_FLOATING(double)
inline double rl_auto_lanes_double2(double2 v) { return as_double(as_ulong(v.x) ^ as_ulong(v.y)); }
inline double rl_auto_lanes_double3(double3 v) { return as_double(as_ulong(v.x) ^ as_ulong(v.y) ^ as_ulong(v.z)); }
inline double rl_auto_lanes_double4(double4 v) { return as_double(as_ulong(rl_auto_lanes_double2(v.lo)) ^ as_ulong(rl_auto_lanes_double2(v.hi))); }
inline double rl_auto_lanes_double8(double8 v) { return as_double(as_ulong(rl_auto_lanes_double4(v.lo)) ^ as_ulong(rl_auto_lanes_double4(v.hi))); }
inline double rl_auto_lanes_double16(double16 v) { return as_double(as_ulong(rl_auto_lanes_double8(v.lo)) ^ as_ulong(rl_auto_lanes_double8(v.hi))); }
#endif
