#pragma once
// What rooflab concludes from measured records, as typed values: the analysis step
// (analyzer/diagnose/analysis.hpp) computes an Analysis from the records and the models they are
// placed on, and reports read each record beside its conclusions (AnalysedRecord). Types only.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/diagnosis.hpp"
#include "analyzer/data/end_to_end.hpp"
#include "analyzer/data/mutation_verdict.hpp"
#include "analyzer/data/roofline.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/data/what_if.hpp"

namespace rooflab {

// What the analysis concludes about one record. Which parts a record gets depends on its mode:
// placements for every record that ran; a verdict and a diagnosis for a normal record once its
// group's modes have run; an outcome for a what-if record; predictions for end-to-end runs.
struct RecordConclusions {
  // Placement on each roofline model, by model key ("gtx670", "device", "device_counters", ...).
  std::map<std::string, RooflinePlacement> roofline;
  std::optional<MutationVerdict> mutation;              // normal records, once their mutants ran
  std::optional<Diagnosis> diagnosis;                   // normal records that ran, once their group is concluded
  std::optional<WhatIfOutcome> what_if_outcome;         // what-if records
  std::optional<EndToEndAnalysis> end_to_end_analysis;  // records with end-to-end runs
};

// The analysis of a run: records[i] concludes about the i-th measured record (ResultsDocument::records).
// A run still going has conclusions for the records it has analysed so far.
struct Analysis {
  std::vector<RecordConclusions> records;
};

// What `analysis` concludes about the record at `index`: nothing yet, when it has not reached it.
inline const RecordConclusions& conclusionsOf(const Analysis& analysis, std::size_t index) {
  static const RecordConclusions none;
  return index < analysis.records.size() ? analysis.records[index] : none;
}

// A measured record beside what the analysis concludes about it: what reports read.
struct AnalysedRecord : RunRecord, RecordConclusions {
  AnalysedRecord() = default;
  AnalysedRecord(RunRecord measured, RecordConclusions concluded)
      : RunRecord(std::move(measured)), RecordConclusions(std::move(concluded)) {}
  // What the analysis concludes of the end-to-end runs, empty when it concluded nothing; the
  // prediction of end_to_end->runs[run].
  const EndToEndAnalysis& endToEnd() const;
  const EndToEndRunPrediction& endToEndPrediction(std::size_t run) const;
};

}  // namespace rooflab
