#pragma once
// A variant's kernel source line by line, and what was measured or changed at each line: the warp
// samples of CUPTI's PC sampling over the bridged launches (NVIDIA), and the lines an automatic or
// annotated mutant changed. Types and their names only (docs/results-schema.md, "Source lines").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab {

// One file of a variant's program as the user wrote it: a file the manifest lists, by its path
// relative to the family folder, or a header it includes, by the path relative to the family folder
// (else its file name). Kept on the original's record so that a report shows it without the files.
struct SourceFileText {
  std::string path;
  std::vector<std::string> lines;  // line 1 first, without line ends
};

// A line of one of those files.
struct SourceLine {
  std::string file;  // a SourceFileText::path
  int line = 0;      // 1-based
  bool operator==(const SourceLine& other) const { return file == other.file && line == other.line; }
  bool operator<(const SourceLine& other) const { return file != other.file ? file < other.file : line < other.line; }
};

// The samples of one stall reason, as CUPTI names it without its "smsp__pcsamp_warps_issue_stalled_"
// prefix ("long_scoreboard", "barrier", "short_scoreboard", "mio_throttle", "selected", ...).
struct StallReasonSamples {
  std::string reason;
  std::int64_t samples = 0;
};

// The warp samples at one source line: every sampled SASS instruction that the line info of the
// bridged module maps to it.
struct LineSamples {
  SourceLine where;
  std::int64_t samples = 0;
  std::vector<StallReasonSamples> stalls;  // most samples first; their sum is `samples`
  int sampled_instructions = 0;            // distinct SASS instructions (PCs) sampled at the line
};

// CUPTI's PC sampling over one run of the original's bridged launch sequence (NVIDIA only). A record
// that could not be sampled keeps the reason, and no figure.
struct LineSampling {
  bool available = false;
  std::string reason;              // why not, when !available
  int sampling_period_log2 = 0;    // one sample per SM every 2^n cycles
  std::int64_t total_samples = 0;  // every sample of the launches, attributed or not
  std::int64_t dropped_samples = 0;
  // Samples at instructions with no line, or at a line of a file the variant's program does not
  // list (the prelude rooflab adds, a system header).
  std::int64_t unattributed_samples = 0;
  std::vector<LineSamples> lines;  // most samples first
  double seconds = 0;              // the pass's own cost: module load with line info, launches, decoding
};

// What a mutant did at one line of the original.
enum class MutantLineChangeKind {
  kept,     // a global load kept (compute-only): its value decides an address, branch, bound or divisor
  folded,   // arithmetic folded into the compute-only key or a kept value (memory-only)
  made_up,  // a global load replaced by a value made up from the key (compute-only)
  guarded,  // a store kept behind a test on the key, so that the compiler cannot drop the work
  removed,  // code the mutant does not run
};
std::string toString(MutantLineChangeKind kind);  // "kept" | "folded" | "made-up" | "guarded" | "removed"
std::optional<MutantLineChangeKind> parseMutantLineChangeKind(std::string_view text);

struct MutantLineChange {
  SourceLine where;
  std::vector<MutantLineChangeKind> kinds;  // each kind once, in the enum's order
};

}  // namespace rooflab
