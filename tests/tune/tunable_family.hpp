#pragma once
// A family with a tuning space, written as users write one: c = a + b over N floats, VPI elements per
// work item in work-groups of WG, and a FLAW define whose value 1 does not build and 2 computes a
// wrong sum. Nine of its twelve configurations are valid (WG * VPI <= 64); three are refused.
#include <string>

#include "test_support.hpp"

namespace rooflab::testing {

// A quick config that studies the family on the CPU: JSON only, two repetitions, no counters.
inline const char* const kTunableFamilyConfig = R"([run]
device = "cpu"
repetitions = 2
warmup = 0
max_time = 0.02
counters = "off"
ceilings = "datasheet"
formats = ["json"]
kernels = ["kernels"]
out = "out"
[[study]]
family = "tadd"
)";

inline void writeTunableFamily(const TempDir& dir) {
  dir.write("kernels/tadd/tadd.cl",
            R"cl(kernel void tadd(global const float* a, global const float* b, global float* c, int n) {
#if FLAW == 1
#error "FLAW = 1 does not build"
#endif
  for (int k = 0; k < VPI; ++k) {
    const int i = get_global_id(0) * VPI + k;
    if (i < n) c[i] = FLAW == 2 ? a[i] - b[i] : a[i] + b[i];
  }
}
)cl");
  dir.write("kernels/tadd/family.toml", R"toml(name = "tadd"
[params]
N = 4096
WG = 32
[work]
flops = "N"
bytes = "12*N"
[[buffers]]
name = "a"
type = "float"
count = "N"
[[buffers]]
name = "b"
type = "float"
count = "N"
[[buffers]]
name = "c"
type = "float"
count = "N"
access = "write"
[check]
reference = "cpu:vecadd"
tolerance = 1e-6
[[variants]]
name = "add"
source = "tadd.cl"
kernel = "tadd"
args = ["a", "b", "c", "N"]
global = ["WG*ceil(N/(WG*VPI))"]
local = ["WG"]
defines = { VPI = 1, FLAW = 0 }
[variants.tune]
constraints = ["WG*VPI <= 64"]
[variants.tune.params]
WG = [32, 64]
VPI = [1, 2]
FLAW = [0, 1, 2]
)toml");
}

}  // namespace rooflab::testing
