#pragma once
// The replay of a capture (docs/capture.md, "The replay"): from a CaptureLog, a batch config
// DIR/capture.toml and one kernel family per distinct replayable launch under DIR/families/, whose
// buffers start from the data the capture saved and whose reference is the program's own outputs.
#include <filesystem>
#include <string>
#include <vector>

#include "analyzer/data/capture.hpp"

namespace rooflab {

struct ReplayGeneration {
  std::filesystem::path config;         // DIR/capture.toml; empty when no launch could be replayed
  std::vector<std::string> families;    // the families' folder names, in program order
  std::vector<std::string> skipped;     // "kernel scale: why", a launch left out
};

// Writes the config and the families into `folder` (the capture folder) and returns what it wrote.
ReplayGeneration generateReplay(const CaptureLog& log, const std::filesystem::path& folder);

}  // namespace rooflab
