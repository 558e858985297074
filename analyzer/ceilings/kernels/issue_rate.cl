// The warp-instruction issue rate of `rooflab ceilings` (analyzer/ceilings/ceilings_issue.cpp): the
// horizontal roof of the instruction roofline.
//
// Each work-item runs 8 float and 8 uint chains, one step of each in turn, 16 steps per chain per loop
// iteration: 256 independent instructions between two loop branches. A float step is one FFMA and a
// uint step one IMAD, so the two kinds share the work between the FMA pipes and the integer path and
// neither pipe alone sets the rate: a scheduler then issues one instruction in every cycle, its limit.
// The host counts one instruction per step (the loop's own 3 or so per 256 are left out, so the
// roof errs low by about 1%) and a warp instruction per 32 work-items' steps.
#define RL_ISSUE_STEP                                                                          \
  f0 = fma(f0, fa, fb); u0 = u0 * ua + ub; f1 = fma(f1, fa, fb); u1 = u1 * ua + ub;               \
  f2 = fma(f2, fa, fb); u2 = u2 * ua + ub; f3 = fma(f3, fa, fb); u3 = u3 * ua + ub;               \
  f4 = fma(f4, fa, fb); u4 = u4 * ua + ub; f5 = fma(f5, fa, fb); u5 = u5 * ua + ub;               \
  f6 = fma(f6, fa, fb); u6 = u6 * ua + ub; f7 = fma(f7, fa, fb); u7 = u7 * ua + ub;
#define RL_ISSUE_FOUR_STEPS RL_ISSUE_STEP RL_ISSUE_STEP RL_ISSUE_STEP RL_ISSUE_STEP

__kernel void issue_rate(__global float* restrict out, float fa, float fb, uint ua, uint ub, uint iterations) {
  const uint id = (uint)get_global_id(0);
  float f0 = (float)id, f1 = f0 + 1.0f, f2 = f0 + 2.0f, f3 = f0 + 3.0f;
  float f4 = f0 + 4.0f, f5 = f0 + 5.0f, f6 = f0 + 6.0f, f7 = f0 + 7.0f;
  uint u0 = id, u1 = id + 1u, u2 = id + 2u, u3 = id + 3u, u4 = id + 4u, u5 = id + 5u, u6 = id + 6u, u7 = id + 7u;
  for (uint i = 0; i < iterations; ++i) {
    RL_ISSUE_FOUR_STEPS RL_ISSUE_FOUR_STEPS RL_ISSUE_FOUR_STEPS RL_ISSUE_FOUR_STEPS
  }
  // Every chain reaches the output, so none is removed; the uint sum is folded in as bits.
  const float fsum = ((f0 + f1) + (f2 + f3)) + ((f4 + f5) + (f6 + f7));
  const uint usum = ((u0 ^ u1) + (u2 ^ u3)) + ((u4 ^ u5) + (u6 ^ u7));
  out[id] = fsum + (float)(usum & 1u);
}
