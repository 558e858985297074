// rooflab automatic-mutant prelude: the helpers that mutators/auto_mutation.cpp writes into an
// unannotated kernel when it rewrites it into a compute-only or memory-only mutant. It follows
// prelude.cl (rl_fake_value, RL_NEVER_BITS) and is prepended only to automatic mutants.

// The seed of a compute-only value: the element's address, so that loads of different elements
// and of different buffers give different values and none can be merged or folded.
inline uint rl_auto_seed(ulong address) { return (uint)(address >> 2); }

// compute-only: a register value of each loadable type. Floating-point values come from
// rl_fake_value (integer operations only, in [0.5, 1)); integer values stay small, so that a value
// used as a count or an index into private or local memory stays in a sane range.
inline float rl_auto_fake_float(uint h) { return rl_fake_value(h); }
inline int rl_auto_fake_int(uint h) { return (int)(h & 0xffu); }
inline uint rl_auto_fake_uint(uint h) { return h & 0xffu; }
inline long rl_auto_fake_long(uint h) { return (long)(h & 0xffu); }
inline ulong rl_auto_fake_ulong(uint h) { return (ulong)(h & 0xffu); }
inline short rl_auto_fake_short(uint h) { return (short)(h & 0xffu); }
inline ushort rl_auto_fake_ushort(uint h) { return (ushort)(h & 0xffu); }
inline char rl_auto_fake_char(uint h) { return (char)(h & 0x7fu); }
inline uchar rl_auto_fake_uchar(uint h) { return (uchar)(h & 0xffu); }
// Lanes differ (see RL_LOAD4 in prelude.cl: a splatted value lets the compiler merge lanes' work).
#define RL_AUTO_FAKE_VECTORS(T)                                                                       \
  inline T##2 rl_auto_fake_##T##2(uint h) { return (T##2)(rl_auto_fake_##T(h), rl_auto_fake_##T(h + 1u)); } \
  inline T##3 rl_auto_fake_##T##3(uint h) {                                                           \
    return (T##3)(rl_auto_fake_##T(h), rl_auto_fake_##T(h + 1u), rl_auto_fake_##T(h + 2u));          \
  }                                                                                                   \
  inline T##4 rl_auto_fake_##T##4(uint h) { return (T##4)(rl_auto_fake_##T##2(h), rl_auto_fake_##T##2(h + 2u)); } \
  inline T##8 rl_auto_fake_##T##8(uint h) { return (T##8)(rl_auto_fake_##T##4(h), rl_auto_fake_##T##4(h + 4u)); } \
  inline T##16 rl_auto_fake_##T##16(uint h) { return (T##16)(rl_auto_fake_##T##8(h), rl_auto_fake_##T##8(h + 8u)); }
RL_AUTO_FAKE_VECTORS(float)
RL_AUTO_FAKE_VECTORS(int)
RL_AUTO_FAKE_VECTORS(uint)

// compute-only stores: every bit of the stored value enters the condition, so the compiler must
// compute all of it; the condition is never true for a value the kernel computes in practice.
inline uint rl_auto_bits_float(float v) { return as_uint(v); }
inline uint rl_auto_bits_int(int v) { return (uint)v; }
inline uint rl_auto_bits_uint(uint v) { return v; }
inline uint rl_auto_bits_long(long v) { return (uint)v ^ (uint)((ulong)v >> 32); }
inline uint rl_auto_bits_ulong(ulong v) { return (uint)v ^ (uint)(v >> 32); }
#define RL_AUTO_BITS_VECTORS(T)                                                                       \
  inline uint rl_auto_bits_##T##2(T##2 v) { return rl_auto_bits_##T(v.x) ^ rl_auto_bits_##T(v.y); } \
  inline uint rl_auto_bits_##T##3(T##3 v) {                                                           \
    return rl_auto_bits_##T(v.x) ^ rl_auto_bits_##T(v.y) ^ rl_auto_bits_##T(v.z);                    \
  }                                                                                                   \
  inline uint rl_auto_bits_##T##4(T##4 v) { return rl_auto_bits_##T##2(v.lo) ^ rl_auto_bits_##T##2(v.hi); } \
  inline uint rl_auto_bits_##T##8(T##8 v) { return rl_auto_bits_##T##4(v.lo) ^ rl_auto_bits_##T##4(v.hi); } \
  inline uint rl_auto_bits_##T##16(T##16 v) { return rl_auto_bits_##T##8(v.lo) ^ rl_auto_bits_##T##8(v.hi); }
RL_AUTO_BITS_VECTORS(float)
RL_AUTO_BITS_VECTORS(int)
RL_AUTO_BITS_VECTORS(uint)

// memory-only: an integer fold in place of a floating-point operation. The rotation keeps
// fold(x, x) from cancelling to a constant (which would let the compiler drop the load of x).
inline float rl_auto_fold_float(float a, float b) { return as_float(as_uint(a) ^ rotate(as_uint(b), 1u)); }
#define RL_AUTO_FOLD_VECTOR(N)                                                                        \
  inline float##N rl_auto_fold_float##N(float##N a, float##N b) {                                     \
    return as_float##N(as_uint##N(a) ^ rotate(as_uint##N(b), (uint##N)(1u)));                         \
  }
RL_AUTO_FOLD_VECTOR(2)
RL_AUTO_FOLD_VECTOR(4)
RL_AUTO_FOLD_VECTOR(8)
RL_AUTO_FOLD_VECTOR(16)
inline float3 rl_auto_fold_float3(float3 a, float3 b) {
  return (float3)(rl_auto_fold_float(a.x, b.x), rl_auto_fold_float(a.y, b.y), rl_auto_fold_float(a.z, b.z));
}
