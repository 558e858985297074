#pragma once
// The work of each family `rooflab capture` generated, counted under oclgrind right after the capture
// (docs/capture.md, "Work counts") and written into its family.toml in place of "unmeasured".
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "analyzer/data/work_count.hpp"

namespace rooflab {

// At most this many work-groups of a launch are simulated; the counts are scaled to the whole launch.
inline constexpr std::uint64_t kCaptureCountWorkGroups = 16;
// A family whose count takes longer stays unmeasured.
inline constexpr double kCaptureCountTimeoutS = 60;

// Counts each family of the replay config `config` (the families' folder names, as generated) and
// writes the counts into its family.toml; `done` is called after each family, counted or not. A
// family keeps "unmeasured" when oclgrind is missing, fails or takes too long, with the reason.
std::vector<FamilyWorkCount> countCapturedWork(const std::filesystem::path& config,
                                               const std::vector<std::string>& families,
                                               const std::function<void(const FamilyWorkCount&)>& done);

}  // namespace rooflab
