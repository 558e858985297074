#pragma once
// The application around a kernel, as typed values (docs/end-to-end.md): how a study asks for its
// end-to-end runs, which buffers cross the host link, and what each run measured (upload, launch,
// kernel, download, gaps), what the ceilings predicted for it and what bounds the whole. run/
// measures the runs, diagnose/ predicts and judges them. Types and their names only.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/link_ceilings.hpp"
#include "analyzer/data/verification_result.hpp"

namespace rooflab {

// How an end-to-end run moves its data: each blocking (one part after the other), or overlapped.
enum class EndToEndStrategy {
  copy,            // default buffers, clEnqueueWriteBuffer / ReadBuffer, blocking
  map,             // default buffers, map / unmap
  use_host_ptr,    // CL_MEM_USE_HOST_PTR over the application's arrays, map / unmap
  alloc_host_ptr,  // CL_MEM_ALLOC_HOST_PTR buffers, map / unmap
  overlap,         // the data split in chunks on two queues with events: uploads, kernels and downloads overlap
};
std::string toString(EndToEndStrategy strategy);  // "copy" | "map" | "use-host-ptr" | "alloc-host-ptr" | "overlap"
std::optional<EndToEndStrategy> parseEndToEndStrategy(std::string_view text);
inline constexpr EndToEndStrategy kEndToEndStrategies[] = {EndToEndStrategy::copy, EndToEndStrategy::map,
                                                           EndToEndStrategy::use_host_ptr,
                                                           EndToEndStrategy::alloc_host_ptr, EndToEndStrategy::overlap};

// Which way a family buffer crosses the link in an end-to-end run ([[buffers]] link).
enum class BufferLink { none, up, down, both };
std::string toString(BufferLink link);  // "none" | "up" | "down" | "both"
std::optional<BufferLink> parseBufferLink(std::string_view text);
inline bool goesUp(BufferLink link) { return link == BufferLink::up || link == BufferLink::both; }
inline bool comesDown(BufferLink link) { return link == BufferLink::down || link == BufferLink::both; }

// Where the time of one end-to-end run goes, in device nanoseconds (profiling events): each command
// owns the time from when it was queued (or the command before it on its queue ended, if later) to
// its end; upload and download are their commands' own times, launch each kernel's own time until it
// starts, kernel its start -> end, gaps the time between the first command queued and the last one
// ended that no command owns (host copies, the host's own work). Overlapped parts add up to more
// than total_ns.
struct EndToEndParts {
  double upload_ns = 0;
  double launch_ns = 0;
  double kernel_ns = 0;
  double download_ns = 0;
  double gaps_ns = 0;
  double total_ns = 0;
};

// What bounds a whole end-to-end run: its largest part.
enum class EndToEndBound { link_up, link_down, launch, kernel, host, undetermined };
std::string toString(EndToEndBound bound);  // "link-up" | "link-down" | "launch" | "kernel" | "host" | "undetermined"
std::optional<EndToEndBound> parseEndToEndBound(std::string_view text);

// The figures a bound quotes, taken from the run's medians: each only for the bounds its comment names.
struct EndToEndBoundFigures {
  double time_fraction = 0;         // the largest part over the run's total, at most 1
  std::optional<double> link_gbps;  // link_up, link_down: the run's bytes that way over their part's time
  std::optional<int> launches;      // launch: kernel launches per run
  std::optional<double> launch_ns;  // launch: the launch part's time
};

// One strategy run end to end: from the application's host arrays to its host arrays.
struct EndToEndRun {
  EndToEndStrategy strategy = EndToEndStrategy::copy;
  int chunks = 1;  // overlap: the data split in this many chunks (1: the same transfers, one after the other)
  int queues = 1;  // overlap: 2
  std::vector<std::uint64_t> chunk_elements;  // overlap: each chunk's size, in its family's split parameter
  std::uint64_t upload_bytes = 0;             // per run
  std::uint64_t download_bytes = 0;
  int upload_buffers = 0;  // buffers going up (each chunk's slice of them, overlapped)
  int download_buffers = 0;
  // Bytes the host copied between the application's arrays and mapped pointers, per run (none where
  // the mapped pointer is the application's array): host work that the gaps hold.
  std::uint64_t host_copy_bytes = 0;
  int launches = 0;  // kernel launches per run
  std::vector<EndToEndParts> repetitions;
  EndToEndParts median;               // each part's median over the repetitions
  std::optional<double> total_noise;  // relative half-width of the total's median 95% interval
  bool converged = false;             // the total met the run's noise target
  int warmup = 0;
  VerificationResult verification;   // the host arrays after the run against the reference
  std::optional<std::string> error;  // the run failed: no timings, the others still ran
};

// Where a run's prediction came from, or why it has none.
enum class EndToEndPredictionBasis {
  not_judged,        // the run failed or computed wrong results: not predicted
  ceilings,          // predicted from the link and launch ceilings (EndToEndPredictionInputs)
  missing_ceiling,   // the ceilings lack the launch time or a link ceiling this strategy needs
  no_link_ceilings,  // the run measured no link ceilings ([run] ceilings = "datasheet")
  no_kernel_median,  // the kernel run has no median time
};
std::string toString(EndToEndPredictionBasis basis);  // "not-judged" | "ceilings" | "missing-ceiling" | ...
std::optional<EndToEndPredictionBasis> parseEndToEndPredictionBasis(std::string_view text);

// A link ceiling as a prediction used it: its figures and the buffers it timed.
struct UsedLinkCeiling {
  LinkStrategy strategy = LinkStrategy::copy;
  bool zero_copy = false;
  std::optional<double> gbps;
  double latency_ns = 0;  // a buffer (0 where the ceiling has none)
  int buffers = 0;
};

// What a prediction from the ceilings rests on, each figure as the model used it.
struct EndToEndPredictionInputs {
  std::optional<UsedLinkCeiling> upload;  // where the strategy has a host-to-device ceiling
  double launch_ns = 0;                   // one launch
  bool back_to_back = false;              // overlap: launches queued behind other commands
  int launches = 0;
  double kernel_ns = 0;                     // the kernel run's median, for the whole run
  std::optional<UsedLinkCeiling> download;  // where the strategy has a device-to-host ceiling
  // Host copies at the host's memcpy speed, where the run copies on the host and memcpy was measured.
  std::optional<std::uint64_t> host_copy_bytes;
  std::optional<double> host_memcpy_gbps;
  std::optional<int> chunks;  // overlap: the chunks through the pipeline
  std::optional<int> queues;  // overlap: on this many queues
};

// What the analysis concludes of one end-to-end run (EndToEndAnalysis::runs, in the order of the
// measured runs): each part as the link and launch ceilings predict it, the kernel as the point's
// own kernel-alone median, host copies at the host's memcpy speed (in gaps_ns); and what bounds it.
// reports/text/end_to_end_sentences.hpp says its basis and bound in words.
struct EndToEndRunPrediction {
  std::optional<EndToEndParts> predicted;
  EndToEndPredictionBasis basis = EndToEndPredictionBasis::not_judged;
  std::optional<EndToEndPredictionInputs> inputs;      // basis ceilings: the ceilings and counts each part came from
  std::optional<std::string> predicted_from_as_saved;  // the basis as a schema-1 results file wrote it
  EndToEndBound bound = EndToEndBound::undetermined;
  EndToEndBoundFigures bound_figures;
  std::optional<std::string> bound_text_as_saved;  // the bound as a schema-1 results file wrote it
};

// The overlap what-if of one chunk count: the pipeline's predicted time (its longest stage once per
// chunk plus fill and drain) beside the measured two-queue run, both against the same transfers made
// one after the other (the one-chunk run).
struct OverlapWhatIf {
  int chunks = 0;
  double upload_stage_ns = 0;  // the largest chunk's stages, predicted
  double kernel_stage_ns = 0;
  double download_stage_ns = 0;
  double predicted_serial_ns = 0;
  double predicted_overlapped_ns = 0;
  std::optional<double> predicted_gain;  // serial / overlapped
  std::optional<double> measured_serial_ns;
  std::optional<double> measured_overlapped_ns;
  std::optional<double> measured_gain;
};

// What the end-to-end runs of one point conclude.
struct EndToEndVerdict {
  EndToEndBound bound = EndToEndBound::undetermined;  // of the best strategy's run
  EndToEndBoundFigures bound_figures;                 // of the best strategy's run
  std::optional<std::string> bound_text_as_saved;     // the bound as a schema-1 results file wrote it
  std::optional<EndToEndStrategy> best;               // the fastest verified run
  int best_chunks = 1;
  std::optional<double> best_ns;
  // The slowest verified blocking run, and how much faster the best is: what choosing the strategy wins.
  std::optional<EndToEndStrategy> worst;
  std::optional<double> worst_ns;
  // The summary as a schema-1 results file wrote it; the reports otherwise say it from best and worst
  // ("overlap (4 chunks) 12.30 ms, 2.10x faster than copy (25.80 ms)").
  std::optional<std::string> summary_as_saved;
};

// What a point's end-to-end runs measured.
struct EndToEndResult {
  std::vector<EndToEndRun> runs;
  // Whether a run failed or computed wrong results (the point then counts as failed).
  bool failed() const;
};

// What the analysis concludes of a point's end-to-end runs. Results files write it inside the
// measured "end_to_end" object, as they always have.
struct EndToEndAnalysis {
  std::vector<EndToEndRunPrediction> runs;  // runs[i] is of EndToEndResult::runs[i]
  std::vector<OverlapWhatIf> overlap;       // one per overlap run of more than one chunk
  std::optional<EndToEndVerdict> verdict;
};

}  // namespace rooflab
