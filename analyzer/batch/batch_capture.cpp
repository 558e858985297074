#include "analyzer/batch/batch_capture.hpp"

#include <stdexcept>

#include "analyzer/diagnose/capture_timeline.hpp"
#include "analyzer/json/capture_log_json.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {

std::optional<CaptureLog> readBatchCapture(const BatchConfig& config) {
  if (!config.capture) return std::nullopt;
  try {
    // An application that was killed still shows where its time went until then: the timeline says
    // its log is incomplete.
    return readCaptureFolder(config.capture->folder, CaptureAcceptance::incomplete_too).log;
  } catch (const InputError& e) {
    throw InputError(config.capture->where.str() + ": [capture] folder: " + e.what());
  } catch (const std::runtime_error& e) {
    // A reader's own error still names the log's file and line; the config's line says which capture.
    throw InputError(config.capture->where.str() + ": [capture] folder: " + e.what());
  }
}

CaptureTimeline batchCaptureTimeline(const CaptureLog& log, const RooflineModels& models) {
  EndToEndCeilings ceilings;
  if (models.ceilings && models.ceilings->link) ceilings.link = &*models.ceilings->link;
  if (models.ceilings && models.ceilings->launch) {
    ceilings.launch_ns = models.ceilings->launch->latencyNs();
    ceilings.queued_launch_ns = models.ceilings->launch->back_to_back.median_ns;
  }
  return analyseCaptureTimeline(log, ceilings);
}

}  // namespace rooflab
