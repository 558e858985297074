#pragma once
// The compute-only mutants' run-time key (docs/manifest.md, "Mutation annotations"). Every kernel a
// compute-only mutant launches takes one argument more than the kernel as written, `uint
// rl_mutant_key`, after its own (an occupancy pad, when there is one, comes after it), and rooflab
// sets it at run time, on OpenCL and through the PTX bridge alike. Made-up values are made from it
// and guarded stores compare every bit of the stored value with it, so the compiler can know
// neither a made-up value nor its range, nor decide a guard; at run time the guard is false: the
// key's bits are a signalling NaN, which no arithmetic produces, and lie above 16 bits, out of reach
// of any narrower stored value.
#include <cstdint>
#include <set>
#include <string>

#include "analyzer/data/batch_config.hpp"

namespace rooflab {

// Name of the parameter; kernels must not use it themselves. prelude.cl declares a program-scope
// constant of the same name, which a function that is not given the argument (a helper of an
// annotated kernel, a kernel the variant does not launch) sees instead.
inline constexpr const char* kMutantKeyParameter = "rl_mutant_key";
// The value rooflab passes (prelude.cl's RL_NEVER_BITS).
inline constexpr std::uint32_t kMutantKeyValue = 0x7fa5c3e1u;

// Whether the kernels of a point of this mode take the key: compute-only mutants, annotated or automatic.
inline bool takesMutantKey(RunMode mode) { return mode == RunMode::compute_only; }

// `source` with the key's parameter appended to the kernels named in `kernels` (kernel_parameters.hpp).
std::string addMutantKeyParameter(const std::string& source, const std::set<std::string>& kernels);

}  // namespace rooflab
