#pragma once
// A batch whose config names a capture (`[capture] folder`): the application's log read before any
// device work, and its timeline computed once the link ceilings are measured (docs/capture-timeline.md).
#include <optional>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/capture.hpp"
#include "analyzer/data/capture_timeline.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// The capture log of the config's [capture] folder; nullopt without one. Throws InputError naming the
// config's line and the log's file when the log cannot be read.
std::optional<CaptureLog> readBatchCapture(const BatchConfig& config);

// The timeline of `log` with the link and launch ceilings of `models` (none where they were not measured).
CaptureTimeline batchCaptureTimeline(const CaptureLog& log, const RooflineModels& models);

}  // namespace rooflab
