#pragma once
// How far a whole run drifted from another, from a control kernel timed beside every record of both
// (docs/cost.md, "Drift"), and how one record's change stands against that drift. A change of a
// record counts only when it is beyond the repetitions' noise (sample_comparison.hpp) and beyond the
// drift: a run whose host ran 40% slower throughout shows every record 40% slower, and the control
// kernel, which did not change, shows it too.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/stats/sample_comparison.hpp"

namespace rooflab {

// The control kernel's medians of two runs, one per record, compared.
struct RunDrift {
  double ratio = 1;  // median of the new run's controls over the old run's: 1.4, the new run's device ran 40% slower
  // How far each run's own controls spread: the 90th over the 10th percentile, minus 1 (0 with fewer
  // than 3 controls): a host that came and went within one run.
  double old_spread = 0;
  double new_spread = 0;
  std::size_t old_count = 0;
  std::size_t new_count = 0;
};

// nullopt when either run has no control with a positive time.
std::optional<RunDrift> runDrift(const std::vector<double>& old_controls_ns,
                                 const std::vector<double>& new_controls_ns);

// Whether the drift is large enough to be named: the runs' controls moved, or moved within a run, by
// more than the minimum effect.
bool driftIsLarge(const RunDrift& drift, double min_effect);

enum class DriftCall {
  none,             // the drift changes nothing: both views agree
  beyond_drift,     // the record changed, as measured and once the drift is taken out
  within_drift,     // the record changed about as much as the control beside it: drift, not a change
  hidden_by_drift,  // the record looks unchanged, but taking out the drift says it changed: inconclusive
};
std::string toString(DriftCall call);  // "none", "beyond drift", "within drift", "hidden by drift"

// One record's change against the drift beside it.
struct DriftJudgement {
  double drift = 1;            // the record's ratio as measured over its ratio once corrected: the drift beside it
  double corrected_ratio = 1;  // the record's new/old ratio once each timed run is divided by its control
  DriftCall call = DriftCall::none;
  Change verdict = Change::unchanged_within_noise;  // what the comparison concludes, drift included
};

// Each timed run divided by the control run right after it: the time the run would have taken on
// the host as it was when the control ran. The controls stand beside the first timed runs (a record
// repeated beyond its floor of repetitions has more runs than controls); empty when there are more
// controls than runs, none, or one that is not positive.
std::vector<double> correctedSamples(const std::vector<double>& kernel_ns, const std::vector<double>& control_ns);

// Whether the control is seen to follow this record within the runs: the timed runs spread (their
// interquartile range over their median, in the run where it is larger) by more than half the
// minimum effect as measured, and by less than half of that once corrected. A host that lent one
// core to some runs and two to others spreads a kernel of many work-groups, and the correction
// gathers it again; a kernel the host's cores do not move gains only the control's noise.
bool controlTracks(const std::vector<double>& old_raw, const std::vector<double>& new_raw,
                   const std::vector<double>& old_corrected, const std::vector<double>& new_corrected,
                   double min_effect);

// `raw` compares the two runs' timed runs as measured, `corrected` the same runs each divided by its
// control (both with the same alpha and minimum effect). When the control is seen to follow the
// record (`tracks`), the corrected comparison decides. Otherwise a regression (improvement) must be
// beyond the repetitions' noise (significant as measured or once corrected) and beyond the drift (a
// median that moved by more than the minimum effect both as measured and once corrected, whichever
// way the record responds to what slowed the host); where the two views disagree, the record is
// within the drift (it moved only as measured) or inconclusive.
DriftJudgement judgeAgainstDrift(const SampleComparison& raw, const SampleComparison& corrected, double min_effect,
                                 bool tracks = false);

}  // namespace rooflab
