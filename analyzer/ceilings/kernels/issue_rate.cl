// The warp-instruction issue rate of `rooflab ceilings` (analyzer/ceilings/ceilings_issue.cpp): the
// horizontal roof of the instruction roofline.
//
// Each work-item runs 16 independent float chains, one step of each in turn, 16 steps per chain per
// loop iteration: 256 independent FFMAs between two loop branches. An FFMA is the one instruction a
// scheduler can issue in every cycle (on NVIDIA the two FMA pipes take a warp's FFMA each cycle
// between them), so a chain-bound kernel of FFMAs runs at the issue limit. Integer multiply-adds would
// not: IMAD runs on one of those pipes only, at half the rate, and a mix of the two issued about two
// instructions in three cycles on an H100. The host counts one instruction per step (the loop's own
// 3 or so per 256 are left out, so the roof errs low by about 1%) and a warp instruction per 32
// work-items' steps.
#define RL_ISSUE_STEP                                                                          \
  f0 = fma(f0, fa, fb); f1 = fma(f1, fa, fb); f2 = fma(f2, fa, fb); f3 = fma(f3, fa, fb);         \
  f4 = fma(f4, fa, fb); f5 = fma(f5, fa, fb); f6 = fma(f6, fa, fb); f7 = fma(f7, fa, fb);         \
  f8 = fma(f8, fa, fb); f9 = fma(f9, fa, fb); f10 = fma(f10, fa, fb); f11 = fma(f11, fa, fb);     \
  f12 = fma(f12, fa, fb); f13 = fma(f13, fa, fb); f14 = fma(f14, fa, fb); f15 = fma(f15, fa, fb);
#define RL_ISSUE_FOUR_STEPS RL_ISSUE_STEP RL_ISSUE_STEP RL_ISSUE_STEP RL_ISSUE_STEP

__kernel void issue_rate(__global float* restrict out, float fa, float fb, uint iterations) {
  const float start = (float)get_global_id(0);
  float f0 = start, f1 = start + 1.0f, f2 = start + 2.0f, f3 = start + 3.0f;
  float f4 = start + 4.0f, f5 = start + 5.0f, f6 = start + 6.0f, f7 = start + 7.0f;
  float f8 = start + 8.0f, f9 = start + 9.0f, f10 = start + 10.0f, f11 = start + 11.0f;
  float f12 = start + 12.0f, f13 = start + 13.0f, f14 = start + 14.0f, f15 = start + 15.0f;
  for (uint i = 0; i < iterations; ++i) {
    RL_ISSUE_FOUR_STEPS RL_ISSUE_FOUR_STEPS RL_ISSUE_FOUR_STEPS RL_ISSUE_FOUR_STEPS
  }
  // Every chain reaches the output, so none is removed.
  out[get_global_id(0)] = (((f0 + f1) + (f2 + f3)) + ((f4 + f5) + (f6 + f7))) +
                          (((f8 + f9) + (f10 + f11)) + ((f12 + f13) + (f14 + f15)));
}
