#pragma once
// Launching a point's kernels on one device's in-order profiling queue, and timing them with the
// queue's profiling events (never host clocks).
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzer/support/cl.hpp"
#include "analyzer/config/config.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/support/host_buffer.hpp"
#include "analyzer/manifest/launch_repetitions.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/data/run_record.hpp"
#include "analyzer/stats/stopping_rule.hpp"

namespace rooflab {

// An NDRange of 1 to 3 dimensions (NullRange for none).
cl::NDRange toNDRange(const std::vector<std::int64_t>& dims);

// The run's noise target for one point's repetitions (RunSettings: repetitions, max_noise, min_time,
// max_time), capped at a thousand repetitions.
NoiseTarget pointNoiseTarget(const RunSettings& settings);

// Called before every repetition: (phase "warmup" | "timed" | "reference", index, total).
using RepetitionProgress = std::function<void(const char* phase, int index, int total)>;

// A point on the device: its program, one kernel per launch with its arguments set, its buffers.
struct PreparedPoint {
  const ResolvedPoint* resolved = nullptr;
  const std::map<std::string, HostBuffer>* inputs = nullptr;  // the family's inputs, as initialised
  cl::Program program;
  std::vector<cl::Kernel> kernels;
  // The point's, each with rooflab's own arguments appended: a compute-only mutant's key, then its
  // occupancy pad when padded.
  std::vector<ResolvedLaunch> launches;
  std::map<std::string, cl::Buffer> buffers;
  // Per launch: its repetitions where they differ from the first (an index read, a pingpong); null
  // where every repetition is the launch as set up.
  std::vector<std::shared_ptr<const LaunchRepetitions>> repetitions;

  std::uint64_t launchCount() const;  // every repetition of every launch
};

// Enqueues one run of the point's kernels on `queue`, every repetition of each launch in order, one
// event per launch into `events` (resized). A repetition that differs from the first gets its own
// arguments first. Throws VariantError naming the launch; `device`, when given, explains a work-group
// the driver refuses.
void enqueueLaunches(const cl::CommandQueue& queue, PreparedPoint& prepared, std::vector<cl::Event>& events,
                     const cl::Device* device = nullptr);

class PointLauncher {
 public:
  using Clock = std::chrono::steady_clock;

  // Opens a context and a profiling queue on the device; throws DeviceError.
  explicit PointLauncher(const SelectedDevice& device);

  const SelectedDevice& device() const { return device_; }
  const cl::Context& context() const { return context_; }

  // Throws VariantError for a buffer larger than one allocation on the device may be (before any
  // host copy is made: a huge count must not become a host allocation failure).
  void checkBuffersFit(const ResolvedPoint& point) const;
  // Creates the point's buffers and uploads its read-only inputs. `inputs_key` names what the host
  // inputs hold (the runner's key): while it stays the same, the read-only inputs uploaded for an
  // earlier point are used again instead of uploaded afresh, for every mode and variant that reads them.
  void createBuffers(PreparedPoint& prepared, const std::string& inputs_key);
  // One kernel of prepared.program per launch, with its arguments; a compute-only mutant's kernels
  // get the key after them (mutators/mutant_key.hpp); pad_bytes (one per launch, or empty) appends a
  // __local argument of that size to each launch with a non-zero pad (the program must then be the
  // padded one). Throws VariantError naming the launch. `geometry` (the record's)
  // gets each launch once it is set up, so that a failing one shows how far the point got.
  void setUpLaunches(PreparedPoint& prepared, std::vector<LaunchGeometry>& geometry,
                     const std::vector<std::size_t>& pad_bytes = {}) const;

  // One run of every launch, from buffers reset to the point's initial state. With `on_started`, on a
  // driver that compiles a kernel at its first launch (PoCL), the first kernel's event is watched
  // until the driver reports it running (or done), and on_started is called then: only the event's
  // status tells that compile from the kernel's own run. Elsewhere on_started is called at once.
  RepetitionTiming runOnce(PreparedPoint& prepared, const std::function<void()>& on_started = {});
  // The warm-up runs, then the timed ones: at least settings.repetitions, then until the run's noise
  // target is met or its time budget spent (stopping_rule.hpp); the timings carry the median's
  // interval and whether it converged. After the first timed run, stops early when the stop flag is
  // raised or settings.variant_time_limit_s has passed since `started` (cut_short). `after_each`, when
  // given, is called after every timed run (the drift control beside it); its time does not count
  // towards the noise target's budget.
  EventTimings timeRepetitions(PreparedPoint& prepared, const RunSettings& settings, Clock::time_point started,
                               const RepetitionProgress& progress, const std::function<void()>& after_each = {});
  // The family's write and read_write buffers, read back.
  std::map<std::string, HostBuffer> readOutputs(const PreparedPoint& prepared);
  // Waits for whatever a failed launch left queued, so that the next point starts clean. Never throws.
  void drain() noexcept;

 private:
  void resetBuffers(PreparedPoint& prepared);

  SelectedDevice device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::string kept_inputs_key_;
  std::map<std::string, cl::Buffer> kept_inputs_;  // read-only inputs uploaded under kept_inputs_key_
};

}  // namespace rooflab
