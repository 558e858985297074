#include "analyzer/batch/batch_summary.hpp"

namespace rooflab {

RecordOutcome recordOutcome(const RunRecord& record) {
  if (isFault(record.status)) return RecordOutcome::failed;
  if (record.status == RecordStatus::skipped) return RecordOutcome::skipped;
  if (record.verification.status == VerificationStatus::failed) return RecordOutcome::verification_failed;
  if (record.end_to_end && record.end_to_end->failed()) return RecordOutcome::end_to_end_failed;
  return RecordOutcome::ok;
}

RecordOutcome BatchTally::count(const RunRecord& record) {
  const RecordOutcome outcome = recordOutcome(record);
  switch (outcome) {
    case RecordOutcome::failed: ++failed_; break;
    case RecordOutcome::skipped: ++skipped_; break;
    case RecordOutcome::verification_failed:
    case RecordOutcome::end_to_end_failed: ++verification_failed_; break;
    case RecordOutcome::ok: ++ok_; break;
  }
  return outcome;
}

BatchTally tallyRecords(const std::vector<RunRecord>& records, std::size_t points) {
  BatchTally tally(points);
  for (const RunRecord& record : records) tally.count(record);
  return tally;
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
