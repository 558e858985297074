#pragma once
// The replay of a capture (docs/capture.md, "The replay"): from a CaptureLog, a batch config
// DIR/capture.toml and one kernel family per distinct replayable launch under DIR/families/, whose
// buffers start from the data the capture saved and whose reference is the program's own outputs.
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/capture.hpp"
#include "analyzer/data/work_count.hpp"

namespace rooflab {

struct ReplayGeneration {
  std::filesystem::path config;       // DIR/capture.toml; empty when no launch could be replayed
  std::vector<std::string> families;  // the families' folder names, in program order
  std::vector<std::string> skipped;   // "kernel scale: why", a launch left out
};

// Writes the config and the families into `folder` (the capture folder) and returns what it wrote.
ReplayGeneration generateReplay(const CaptureLog& log, const std::filesystem::path& folder);

// The work a generated family states until its launch is counted: [work]'s flops and bytes, and its
// variant's global_accesses.
inline constexpr const char* kUnmeasuredFamilyWork = "flops = \"unmeasured\"\nbytes = \"unmeasured\"\n";
inline constexpr const char* kUnmeasuredVariantWork = "global_accesses = \"unmeasured\"\n";

// Puts the launch's counted work into a generated family.toml in place of "unmeasured", with a
// comment saying it was counted by oclgrind and how it was scaled. Throws IoError when the file
// cannot be written, std::runtime_error when it no longer holds the generated lines.
void writeFamilyWork(const std::filesystem::path& family_toml, const MeasuredWork& work);

}  // namespace rooflab
