// rooflab prelude: prepended to every kernel source. It gives kernels the
// macros that mark global-memory traffic and arithmetic, so that rooflab can
// build compute-only and memory-only mutants by changing RL_MODE alone.
//
//   RL_MODE 0  normal        the kernel as written
//   RL_MODE 1  compute-only  global loads become register values derived from
//                            the index (not constant-foldable); stores happen
//                            only when the value has a bit pattern that real
//                            data never has, so the compiler must compute it
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

// A NaN payload no arithmetic produces: comparing against it forces the value
// to exist without the store ever executing.
#define RL_NEVER_BITS 0x7fa5c3e1u

inline float rl_fake_value(uint index) {
  // Varies with the index so it cannot be hoisted or folded, lies in [0.5, 1) so arithmetic on it
  // stays in the normal range, and is made with integer operations only, so that the mutant
  // executes the same floating-point instructions as the original.
  return as_float(0x3f000000u | ((index * 2654435761u) >> 9));
}

inline float rl_fold(float a, float b) {
  // Memory-only arithmetic: one integer op keeps both operands live.
  return as_float(as_uint(a) ^ as_uint(b));
}

// RL_LOAD(T, p, i): the global load p[i] of element type T.
#if RL_MODE == RL_COMPUTE_ONLY
// The buffer's address enters the value, so loads of a[i] and b[i] give different values and the
// compiler cannot merge them.
#define RL_LOAD(T, p, i) ((T)(rl_fake_value((uint)(i) + (uint)((ulong)(p) >> 4))))
#else
#define RL_LOAD(T, p, i) ((p)[i])
#endif

// RL_LOAD4(T, p, i): as RL_LOAD for a 4-component vector type. In compute-only mode its lanes
// differ: a splatted value would let the compiler fold x, y and z arithmetic into one (seen on an
// H100: nbody's naive kernel lost 2 of its 18 FLOPs per interaction).
#if RL_MODE == RL_COMPUTE_ONLY
#define RL_LOAD4(T, p, i)                                                                         \
  ((T)(rl_fake_value(4u * (uint)(i) + (uint)((ulong)(p) >> 4)),                                  \
       rl_fake_value(4u * (uint)(i) + (uint)((ulong)(p) >> 4) + 1u),                             \
       rl_fake_value(4u * (uint)(i) + (uint)((ulong)(p) >> 4) + 2u),                             \
       rl_fake_value(4u * (uint)(i) + (uint)((ulong)(p) >> 4) + 3u)))
#else
#define RL_LOAD4(T, p, i) ((p)[i])
#endif

// RL_STORE(T, p, i, v): the global store p[i] = v of element type T.
#if RL_MODE == RL_COMPUTE_ONLY
#define RL_STORE(T, p, i, v)                                                  \
  do {                                                                        \
    T rl_value_ = (v);                                                        \
    if (*(private uint*)&rl_value_ == RL_NEVER_BITS) (p)[i] = rl_value_;      \
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
