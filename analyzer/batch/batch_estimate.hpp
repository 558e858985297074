#pragma once
// What a batch will cost (docs/cost.md, "Estimate"): printed beside its point count before it starts,
// so that a sweep that explodes combinatorially says so before it runs, then updated from what each
// point really cost, for the ETA on the progress line.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "analyzer/config/config.hpp"
#include "analyzer/data/device_info.hpp"
#include "analyzer/data/run_cost.hpp"
#include "analyzer/plan/batch_plan.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// One point's cost before it ran: a fixed part (builds, uploads, verification, counters, bookkeeping)
// and its timed runs.
struct PointCostPrior {
  std::string kind;  // points of one kind cost alike: "family mode"
  std::string mode;  // the fallback when no point of the kind has run: points of one mode
  double fixed_seconds = 0;
  double timed_seconds = 0;
};

// The estimate of a batch as it runs. Before any point ran, every point costs its prior. Once points
// have run, a point costs the mean fixed part measured on points of its kind (else of its mode, else
// of all, scaled by the priors), plus its prior timed runs scaled by what the timed runs measured so
// far cost against their priors. The tail (analysis, results, reports) is a prior throughout.
class BatchEstimator {
 public:
  // `parallel`: how many workers run the points at once (a batch sharded over devices).
  BatchEstimator(std::vector<PointCostPrior> points, double tail_seconds, int parallel = 1);

  // The priors of the plan's points `slots` (plan indices, one per point the batch will run, a point
  // run on several devices once each) on a device: each point's timed runs at the roofline time of
  // its analytic work on the device's model (or half its noise-target budget, whichever is longer)
  // and a fixed part whose constants were measured on the default config (batch_estimate.cpp), a
  // fifth more for GPUs sharing their host with the workers of a sharded batch (`parallel` > 1).
  static BatchEstimator forPlan(const BatchPlan& plan, const std::vector<std::size_t>& slots,
                                const RooflineModels& models, const RunSettings& settings, const DeviceInfo& device,
                                int parallel = 1);

  double initialSeconds() const { return trace_.initial_seconds; }
  // Each slot's prior, fixed part and timed runs, in slot order.
  std::vector<double> priorSeconds() const;
  // Point `index` ran: its wall seconds on the batch's side (worker start excluded) and its timed
  // runs' seconds (the record's "run" phase). Adds an update to the trace.
  void pointDone(std::size_t index, double wall_seconds, double timed_seconds, double elapsed_seconds);
  // Seconds left: the points not run yet, and the tail.
  double remainingSeconds() const;
  const BatchEstimateTrace& trace() const { return trace_; }

 private:
  // Sums over the points of one kind (or one mode, or all): those done and those still to run.
  struct Tally {
    std::size_t done = 0;
    double measured_fixed = 0, prior_fixed_done = 0;  // of the points done
    std::size_t left = 0;
    double prior_fixed_left = 0, prior_timed_left = 0;  // of the points still to run
  };

  std::vector<PointCostPrior> points_;
  std::vector<bool> done_;
  std::size_t points_done_ = 0;
  std::map<std::string, Tally> kinds_, modes_;
  Tally all_;
  std::map<std::string, std::string> mode_of_kind_;
  double tail_seconds_ = 0;
  int parallel_ = 1;
  double timed_prior_done_ = 0, timed_measured_done_ = 0;
  BatchEstimateTrace trace_;
};

}  // namespace rooflab
