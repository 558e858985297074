#pragma once
// A capture folder (docs/capture.md) read into a CaptureLog: the library's log.jsonl, checked
// against the seal `rooflab capture` wrote when the program ended. The seal is written here too.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "analyzer/data/capture.hpp"

namespace rooflab {

// What the seal says beside the log's own lines.
struct CaptureSeal {
  std::string rooflab_version;
  std::uint64_t log_bytes = 0;
  std::string log_hash;           // 16 hexadecimal digits of FNV-1a over the log's bytes
  bool complete = false;          // the program ran to its end and exited 0
  std::string incomplete_reason;  // why not, in words ("the program was killed by signal 9")
  CapturedProcess process;
};

// Seals the capture in `dir`: the log's length and hash, how the program ended. `complete` is
// decided by the caller (the log's exit line and the program's exit status).
void writeCaptureSeal(const std::filesystem::path& dir, const CaptureSeal& seal);

// Whether the log in `dir` ends with the library's exit line (the program reached exit()).
bool captureLogHasExit(const std::filesystem::path& dir);

struct CaptureReading {
  CaptureLog log;
  std::string incomplete_reason;           // empty for a complete capture
  std::optional<std::uint64_t> torn_line;  // a last line cut short (the program was killed mid-write), dropped
};

enum class CaptureAcceptance { complete_only, incomplete_too };

// Reads `dir`/log.jsonl into typed values. Throws InputError naming the file (and file:line for the
// log) when the folder has no seal (the capture did not finish), the log is not the one sealed (it
// was edited), the capture is another rooflab version's, a line is not what the format says, or,
// unless `acceptance` is incomplete_too, the capture is incomplete.
CaptureReading readCaptureFolder(const std::filesystem::path& dir,
                                 CaptureAcceptance acceptance = CaptureAcceptance::complete_only);

}  // namespace rooflab
