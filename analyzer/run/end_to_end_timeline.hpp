#pragma once
// Where the time of one end-to-end run went, from its commands' profiling timestamps: the upload,
// launch, kernel and download parts and the gaps no command covers (data/end_to_end.hpp,
// EndToEndParts). A pure function, so that its arithmetic is tested without a device.
#include <cstdint>
#include <vector>

#include "analyzer/data/end_to_end.hpp"

namespace rooflab {

enum class CommandPart { upload, kernel, download };

// One command of a run, as its event reported it (device ns), and the queue it ran on.
struct TimedCommand {
  CommandPart part = CommandPart::upload;
  int queue = 0;
  std::int64_t queued_ns = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  bool reported = true;  // false: the driver gave the command no times; it is left out
};

// `commands` in the order they were enqueued. Each command's own time runs from when it was queued,
// or from the end of the command before it on its queue or of the last command of its kind (uploads
// share a link, kernels the device, downloads a link) when that came later, to its end: an
// upload's or download's is all transfer (the driver's work to issue it included, as the link
// ceilings time it), a kernel's is its launch until it starts and the kernel after. The total runs
// from the first command queued to the last one ended; gaps are the part of it that no command's
// own time covers (host work between commands). Commands without reported times are left out.
// Empty: all parts 0.
EndToEndParts partsOf(const std::vector<TimedCommand>& commands);

}  // namespace rooflab
