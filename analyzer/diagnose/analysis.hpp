#pragma once
// The analysis step: what rooflab concludes from measured records (data/analysis.hpp), computed from
// them and the models they are placed on, never written into them. A batch calls it record by record
// (RecordAnalysis): each record is placed as it comes; a (family, variant, params) group's normal
// record gets its mutation verdict and then its diagnosis once the group's last mode has run; what-ifs
// are compared once every record is in (each reads two normal records that may come in any order).
// `rooflab report`, `merge` and `diff` call analyse() on the records a file saved.
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/data/analysis.hpp"
#include "analyzer/data/device_model.hpp"
#include "analyzer/data/link_ceilings.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// What the analysis of one device's records reads besides them: the models they are placed on (their
// ceilings, the device's timer and cache among them) and the device's kind.
struct DeviceAnalysisInputs {
  RooflineModels models;
  // The device that ran the records is a CPU: a mutant slower than its original is explained by
  // what a CPU's OpenCL compiler does (vectorisation across work items), not a GPU's.
  bool cpu_device = false;
};

class RecordAnalysis {
 public:
  explicit RecordAnalysis(DeviceAnalysisInputs inputs);

  // records[index] has just come and analysis.records holds the conclusions of the records before
  // it: appends its own (placements, end-to-end predictions). When it closes its group, the group's
  // normal record gets its verdict and diagnosis: returns that record's index when it got either.
  std::optional<std::size_t> recordAdded(const std::vector<RunRecord>& records, Analysis& analysis, std::size_t index,
                                         bool closes_group);

  // The groups that got a record but never their last (the run stopped before it): each normal record
  // among them gets its verdict from the modes that ran and its diagnosis. Returns the indices of
  // the records that got either.
  std::vector<std::size_t> concludeOpenGroups(const std::vector<RunRecord>& records, Analysis& analysis);

  // Once the batch is over (complete or interrupted): every what-if record's outcome.
  static void batchOver(const std::vector<RunRecord>& records, Analysis& analysis);

 private:
  // The launch latency measured by the ceilings, else the device model's.
  std::optional<double> launchLatencyNs() const;
  // The device's roofs, measured or from its datasheet, when known: a compute-only mutant faster than
  // its compute roof allows has lost work, a memory-only mutant faster than its fastest memory roof
  // allows has lost traffic.
  const std::optional<DeviceModel>& deviceRoofs() const;
  // The group's normal record concluded (verdict, diagnosis) from its modes; its index when it got either.
  std::optional<std::size_t> conclude(const std::vector<RunRecord>& records, Analysis& analysis,
                                      const std::string& group);

  DeviceAnalysisInputs inputs_;
  std::map<std::string, std::map<RunMode, std::size_t>> mode_records_;  // group -> mode -> record index
  std::set<std::string> concluded_;                                     // groups whose last record came
};

// The analysis of a saved run: `saved`, the conclusions its file holds (one per record, as the run
// made them), kept; what a file written before them lacks is made from `run`'s models and device: a
// diagnosis for each normal record without one (marked derived_when_read: shown, never written back,
// docs/results-schema.md "Diagnosis"), and an outcome for each what-if record without one.
Analysis analyse(const std::vector<RunRecord>& records, const ResultsHeader& run, Analysis saved);

}  // namespace rooflab
