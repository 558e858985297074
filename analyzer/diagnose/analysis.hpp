#pragma once
// The analysis step: what rooflab concludes from placed records, called by the batch as records come
// in and by `rooflab report` for a saved file. A (family, variant, params) group's normal record gets
// its mutation verdict and then its diagnosis once the group's last mode has run; what-ifs are
// analysed once every record is in (each reads two normal records that may come in any order).
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/data/device_model.hpp"
#include "analyzer/data/link_ceilings.hpp"
#include "analyzer/data/results_document.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

class RecordAnalysis {
 public:
  // `device_roofs`: the roofs of the device that ran (measured or its datasheet), when known: a
  // compute-only mutant faster than its compute roof allows has lost work, a memory-only mutant
  // faster than its fastest memory roof allows has lost traffic.
  explicit RecordAnalysis(double timer_resolution_ns, std::optional<DeviceModel> device_roofs = std::nullopt)
      : timer_resolution_ns_(timer_resolution_ns), device_roofs_(std::move(device_roofs)) {}

  // records[index] has just been added. When it closes its group, the group's normal record gets its
  // verdict and diagnosis: returns that record's index when it got either.
  std::optional<std::size_t> recordAdded(std::vector<RunRecord>& records, std::size_t index, bool closes_group);

  // The groups that got a record but never their last (the run stopped before it): each normal record
  // among them gets its verdict from the modes that ran and its diagnosis. Returns the indices of
  // the records that got either.
  std::vector<std::size_t> concludeOpenGroups(std::vector<RunRecord>& records);

  // Once the batch is over (complete or interrupted).
  static void batchOver(std::vector<RunRecord>& records);

  // The device that runs the records is a CPU: a mutant slower than its original is explained by
  // what a CPU's OpenCL compiler does (vectorisation across work items), not a GPU's.
  void setCpuDevice(bool cpu_device) { cpu_device_ = cpu_device; }

  // The link and launch ceilings measured at the start of the run (when its studies asked for
  // end-to-end runs): a record's end-to-end runs are predicted from them. `link` must outlive this.
  void setLinkCeilings(const LinkCeilings* link, const std::optional<LaunchCeilings>& launch) {
    link_ = link;
    if (launch) {
      launch_latency_ns_ = launch->latencyNs();
      queued_launch_ns_ = launch->back_to_back.median_ns;
    }
  }

 private:
  // The launch latency measured by the ceilings, else the device model's.
  std::optional<double> launchLatencyNs() const;

  const LinkCeilings* link_ = nullptr;
  std::optional<double> launch_latency_ns_;
  std::optional<double> queued_launch_ns_;
  double timer_resolution_ns_;
  bool cpu_device_ = false;
  std::optional<DeviceModel> device_roofs_;
  // The group's normal record concluded (verdict, diagnosis) from its modes; its index when it got either.
  std::optional<std::size_t> conclude(std::vector<RunRecord>& records, const std::string& group);

  std::map<std::string, std::map<RunMode, std::size_t>> mode_records_;  // group -> mode -> record index
  std::set<std::string> concluded_;                                      // groups whose last record came
};

// A results file read back: every normal record saved without a diagnosis gets one, marked as derived
// when read (docs/results-schema.md, "Diagnosis").
void analyseSavedResults(ResultsDocument& document);

}  // namespace rooflab
