// rooflab prelude: prepended to every kernel source. It gives kernels the
// macros that mark global-memory traffic and arithmetic, so that rooflab can
// build compute-only and memory-only mutants by changing RL_MODE alone.
//
//   RL_MODE 0  normal        the kernel as written
//   RL_MODE 1  compute-only  global loads become register values derived from
//                            the index and a run-time key (a kernel argument, so
//                            the compiler knows neither value nor range); stores
//                            happen only when the value's bits equal the key,
//                            which real data never does, so the compiler must
//                            compute it
//   RL_MODE 2  memory-only   arithmetic becomes a bitwise fold of its operands,
//                            so every loaded value stays live and is stored
#define RL_NORMAL 0
#define RL_COMPUTE_ONLY 1
#define RL_MEMORY_ONLY 2
#ifndef RL_MODE
#define RL_MODE RL_NORMAL
#endif
#define RL_IS_COMPUTE_ONLY (RL_MODE == RL_COMPUTE_ONLY)
#define RL_IS_MEMORY_ONLY (RL_MODE == RL_MEMORY_ONLY)

// A signalling NaN's bits, which no arithmetic produces: the value rooflab passes as the key.
#define RL_NEVER_BITS 0x7fa5c3e1u

#if RL_MODE == RL_COMPUTE_ONLY
// The run-time key (mutators/mutant_key.hpp): rooflab appends `const uint rl_mutant_key` to every
// kernel a compute-only mutant launches and sets it to RL_NEVER_BITS, and that argument shadows
// this constant. A helper function sees the constant, which the compiler knows.
constant uint rl_mutant_key = RL_NEVER_BITS;
#endif

inline float rl_fake_value_keyed(uint index, uint key) {
  // Varies with the index so it cannot be hoisted or folded; its sign and exponent come from the
  // key, so that the compiler does not know its range either (with the key rooflab passes, it lies
  // in [0.5, 1), where arithmetic on it stays in the normal range); made with integer operations
  // only, so that the mutant executes the same floating-point instructions as the original. The
  // index enters the mantissa as it is, not hashed: the key-only parts are loop-invariant, so a made-up
  // value costs one logic instruction where the load it replaces cost one issue. A multiplicative
  // hash made a naive GEMM's compute-only mutant (two made-up values per FMA) run 1.9x longer than
  // the original on an H100, and kept PoCL's compute-only vecadd as slow as its original.
  return as_float(((key ^ 0x40800000u) & 0xff800000u) | ((index ^ key) & 0x007fffffu));
}

inline float rl_fold(float a, float b) {
  // Memory-only arithmetic: one integer op keeps both operands live.
  return as_float(as_uint(a) ^ as_uint(b));
}

// RL_LOAD(T, p, i): the global load p[i] of element type T.
#if RL_MODE == RL_COMPUTE_ONLY
// The buffer's address enters the value, so loads of a[i] and b[i] give different values and the
// compiler cannot merge them.
#define RL_LOAD(T, p, i) ((T)(rl_fake_value_keyed((uint)(i) + (uint)((ulong)(p) >> 4), rl_mutant_key)))
#else
#define RL_LOAD(T, p, i) ((p)[i])
#endif

// RL_LOAD4(T, p, i): as RL_LOAD for a 4-component vector type. In compute-only mode its lanes
// differ: a splatted value would let the compiler fold x, y and z arithmetic into one (seen on an
// H100: nbody's naive kernel lost 2 of its 18 FLOPs per interaction).
#if RL_MODE == RL_COMPUTE_ONLY
#define RL_LOAD4(T, p, i)                                                                         \
  ((T)(rl_fake_value_keyed(4u * (uint)(i) + (uint)((ulong)(p) >> 4), rl_mutant_key),             \
       rl_fake_value_keyed(4u * (uint)(i) + (uint)((ulong)(p) >> 4) + 1u, rl_mutant_key),        \
       rl_fake_value_keyed(4u * (uint)(i) + (uint)((ulong)(p) >> 4) + 2u, rl_mutant_key),        \
       rl_fake_value_keyed(4u * (uint)(i) + (uint)((ulong)(p) >> 4) + 3u, rl_mutant_key)))
#else
#define RL_LOAD4(T, p, i) ((p)[i])
#endif

// RL_STORE(T, p, i, v): the global store p[i] = v of element type T.
#if RL_MODE == RL_COMPUTE_ONLY
#define RL_STORE(T, p, i, v)                                                  \
  do {                                                                        \
    T rl_value_ = (v);                                                        \
    if (*(private uint*)&rl_value_ == rl_mutant_key) (p)[i] = rl_value_;      \
  } while (0)
#else
#define RL_STORE(T, p, i, v) ((p)[i] = (v))
#endif

// Scalar float arithmetic that memory-only mode folds away.
#if RL_MODE == RL_MEMORY_ONLY
#define RL_ADD(a, b) rl_fold((a), (b))
#define RL_MUL(a, b) rl_fold((a), (b))
#define RL_FMA(a, b, c) rl_fold(rl_fold((a), (b)), (c))
#else
#define RL_ADD(a, b) ((a) + (b))
#define RL_MUL(a, b) ((a) * (b))
#define RL_FMA(a, b, c) fma((a), (b), (c))
#endif
