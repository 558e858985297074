#include "analyzer/batch/batch_summary.hpp"

namespace rooflab {

RecordOutcome BatchTally::count(const RunRecord& record) {
  if (isFault(record.status)) {
    ++failed_;
    return RecordOutcome::failed;
  }
  if (record.status == RecordStatus::skipped) {
    ++skipped_;
    return RecordOutcome::skipped;
  }
  if (record.verification.status == VerificationStatus::failed) {
    ++verification_failed_;
    return RecordOutcome::verification_failed;
  }
  if (record.end_to_end && record.end_to_end->failed()) {
    ++verification_failed_;
    return RecordOutcome::end_to_end_failed;
  }
  ++ok_;
  return RecordOutcome::ok;
}

BatchSummary BatchTally::summary() const {
  BatchSummary s;
  s.points = points_;
  s.ok = ok_;
  s.failed = failed_;
  s.verification_failed = verification_failed_;
  s.skipped = skipped_;
  return s;
}

BatchSummary BatchTally::finalSummary(std::size_t records) const {
  BatchSummary s = summary();
  s.not_run = points_ - records;
  return s;
}

ExitCode BatchTally::exitCode(bool interrupted, bool input_errors) const {
  if (interrupted) return ExitCode::interrupted;
  if (input_errors) return ExitCode::bad_input;
  if (failed_ || verification_failed_) return ExitCode::variant_failed;
  return ExitCode::ok;
}

}  // namespace rooflab
