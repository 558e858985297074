#pragma once
// Summarising a batch: what became of its records, and the exit code that follows.
#include <cstddef>
#include <vector>

#include "analyzer/support/errors.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

// end_to_end_failed: the kernel run is good, but an end-to-end run failed or computed wrong results
// (counted with the failed verifications).
enum class RecordOutcome { ok, failed, verification_failed, skipped, end_to_end_failed };
RecordOutcome recordOutcome(const RunRecord& record);

class BatchTally {
 public:
  explicit BatchTally(std::size_t points) : points_(points) {}

  // Counts the record: an error, a skip, a failed verification, or ok.
  RecordOutcome count(const RunRecord& record);

  // The results' summary while the batch runs.
  BatchSummary summary() const;
  // Once it ends: the same and not_run, the points that have no record.
  BatchSummary finalSummary(std::size_t records) const;

  // The most urgent thing for the user to act on decides the exit code.
  ExitCode exitCode(bool interrupted, bool input_errors) const;

 private:
  std::size_t points_;
  std::size_t ok_ = 0, failed_ = 0, verification_failed_ = 0, skipped_ = 0;
};

// The tally of `records`, of a batch of `points` records.
BatchTally tallyRecords(const std::vector<RunRecord>& records, std::size_t points);

}  // namespace rooflab
