#include "analyzer/batch_summary.hpp"

namespace rooflab {

RecordOutcome BatchTally::count(const RunRecord& record) {
  if (record.status == RecordStatus::error) {
    ++failed_;
    return RecordOutcome::failed;
  }
  if (record.status == RecordStatus::skipped) {
    ++skipped_;
    return RecordOutcome::skipped;
  }
  if (record.verification.status == "failed") {
    ++verification_failed_;
    return RecordOutcome::verification_failed;
  }
  ++ok_;
  return RecordOutcome::ok;
}

nlohmann::json BatchTally::summary() const {
  return {{"points", points_}, {"ok", ok_}, {"failed", failed_}, {"verification_failed", verification_failed_},
          {"skipped", skipped_}};
}

nlohmann::json BatchTally::finalSummary(std::size_t records) const {
  nlohmann::json s = summary();
  s["not_run"] = points_ - records;
  return s;
}

ExitCode BatchTally::exitCode(bool interrupted, bool input_errors) const {
  if (interrupted) return ExitCode::interrupted;
  if (input_errors) return ExitCode::bad_input;
  if (failed_ || verification_failed_) return ExitCode::variant_failed;
  return ExitCode::ok;
}

}  // namespace rooflab
