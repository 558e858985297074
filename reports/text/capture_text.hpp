#pragma once
// What `rooflab capture` tells the user (docs/capture.md): how the program ended, what was captured,
// what the replay cannot reproduce, and the command to replay it.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/work_count.hpp"
#include "analyzer/json/capture_log_json.hpp"

namespace rooflab::reports {

// "./app exited with code 0 after 2.71 s", "./app was killed by signal 9 (Killed) after 0.40 s".
std::string programEndText(const CapturedProcess& process);

// Why a capture is incomplete, from how the program ended and whether the log reached its exit.
std::string incompleteReason(const CapturedProcess& process, bool log_reached_exit);

// The summary: counts, one line per distinct launch, the unsupported features, the launches left out
// of the replay and why (`skipped`), the replay command (`replay_config` empty: no family).
std::string captureSummaryText(const CaptureReading& reading, const std::filesystem::path& folder,
                               const std::filesystem::path& replay_config, std::size_t families,
                               const std::vector<std::string>& skipped);

// One family's work count: "work of program1_scale_1 (oclgrind, 0.8 s): 8192 flops, 8192 global
// accesses, 32.8 KB", or "... unmeasured (oclgrind is not installed ...): the replay shows it unplaced".
std::string familyWorkCountText(const FamilyWorkCount& count);

// "no OpenCL call was seen", with the mechanism used and what to try.
std::string noOpenClCallText(const CapturedProcess& process);

}  // namespace rooflab::reports
