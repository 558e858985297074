#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/config/config.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/run/bridge_arguments.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/support/host_buffer.hpp"
#include "analyzer/run/drift_control.hpp"
#include "analyzer/run/launch_timing.hpp"
#include "analyzer/run/point_data.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/run/variant_programs.hpp"

namespace rooflab {

// Runs a batch's points on one device, one point at a time: builds its program (VariantPrograms),
// launches and times it (PointLauncher), pads a mutant to its original's occupancy, verifies the
// outputs and reads the counters. One context and one in-order profiling queue for the whole batch;
// host inputs and reference outputs are cached by (family, params) so that every variant of a point
// sees the same data.
class VariantRunner {
 public:
  VariantRunner(const SelectedDevice& device, const RunSettings& settings);
  ~VariantRunner();

  // Never throws for a failing variant: the record carries status "error" and the message (a point
  // that could not be resolved included).
  RunRecord run(const PlannedPoint& point, const RepetitionProgress& progress = {});

  const DeviceInfo& device() const { return launcher_.device().info; }

  // Builds the point's program, uploads its inputs and runs each of its launches once, untimed and
  // unverified: what a simulator counts (docs/work-counts.md). Throws as a run would.
  void launchOnce(const ResolvedPoint& point);

  // "" while the context still runs commands; else the OpenCL error a tiny write gets (a driver
  // error such as an illegal address poisons the whole context on NVIDIA).
  std::string contextProblem() const;

  // Builds and warms up the drift control kernel now, when the records will time it: queued after
  // a batch's background builds, its build waited 4.6 s for them on the H100.
  void prepareDriftControl() {
    if (settings_.repetitions >= 4) timeDriftControl();
  }

  // Starts building, in the background and in this order, the programs that run() will need for
  // these points (see ProgramBuilds). Optional: run() builds whatever was not queued itself.
  void queueBuilds(const std::vector<const PlannedPoint*>& points) { programs_.queue(points); }
  // Makes each inputs key's host data (inputs, C++ reference outputs) on a background thread while
  // the key before it runs, once the background builds are over (DataAhead), for these points in
  // this order. `enabled` unset: on a GPU, unless a point runs end to end. Optional: run() makes
  // whatever was not made ahead itself.
  // The points outlive the runner.
  void prepareDataAhead(const std::vector<const PlannedPoint*>& points, std::optional<bool> enabled = std::nullopt);
  int buildThreads() const { return programs_.backgroundThreads(); }

 private:
  using Buffers = std::map<std::string, HostBuffer>;

  std::unique_ptr<PreparedPoint> prepare(const ResolvedPoint& point, RunRecord& record,
                                         const RepetitionProgress& progress = {});
  void measure(const ResolvedPoint& point, RunRecord& record, std::chrono::steady_clock::time_point started,
               const RepetitionProgress& progress);
  const Buffers& hostInputs(const ResolvedPoint& point);
  void startDataAhead();  // the next input set's data, once no build runs in the background
  const Buffers& referenceOutputs(const ResolvedPoint& point);
  void verify(const ResolvedPoint& point, const Buffers& outputs, RunRecord& record);
  OccupancyMatch padForOccupancy(PreparedPoint& prepared, RunRecord& record);
  // What the record's counters need: the program's PTX and the bridge's options, or why none.
  struct CounterPlan {
    std::string not_attempted;  // "" when the counters can be measured
    std::string ptx;
    counters::PointCounterOptions options;
  };
  CounterPlan counterPlan(const PreparedPoint& prepared, const RunRecord& record);
  // The point's end-to-end runs ([[study]] end_to_end), after its kernel runs and counters.
  EndToEndResult runEndToEnd(const PreparedPoint& prepared, const Buffers& kernel_outputs,
                             const RepetitionProgress& progress);
  // line_samples: an original's, where the bridge samples its lines (BridgeOptions::line_samples).
  counters::CounterSet measureCounters(const PreparedPoint& prepared, const Buffers& opencl_outputs,
                                       const RunRecord& record, counters::PcSampling* line_samples);
  // An original's files, and the record's samples per line (`sampled`: the pass's, when the record was
  // to be sampled), placed on them, or why there are none.
  void sourceView(const VariantSpec& variant, const cl::Program& program, const counters::PcSampling* sampled,
                  RunRecord& record) const;
  // A build the record waits for, its wall time added to the record's "build" phase.
  cl::Program timedBuild(RunRecord& record, const std::function<cl::Program()>& build);
  std::optional<double> timeDriftControl();  // one run of the control; nullopt when it cannot run

  RunSettings settings_;
  PointLauncher launcher_;
  VariantPrograms programs_;  // after launcher_: destroyed (build threads joined) before its context
  // The original's occupancy, by program and launch shapes: both mutants of a point ask once.
  std::map<std::string, std::vector<counters::KernelOccupancy>> original_occupancy_;
  std::string inputs_key_;
  Buffers inputs_;
  std::map<std::string, Buffers> references_;  // by referenceKey
  DataAhead ahead_;  // the next key's data, made on its own thread (destroyed first: waits for it)
  // How each original's bridged PTX was compiled, by "family/variant params": its mutants are
  // compiled the same way.
  std::map<std::string, std::string> original_jit_modes_;
  std::unique_ptr<DriftControl> drift_control_;  // built at the first record
  bool drift_control_failed_ = false;
};

}  // namespace rooflab
