#pragma once
// The profiler session kept across records (docs/cost.md, "Counters"): CUPTI initialised once, and a
// metric set's configuration (CUPTI's host object and config image, which also tells its pass
// count) made once and reused by every later record that asks for the same set. The range profiler
// itself is enabled for a record's range and disabled after it (disableProfiler), unless the caller
// keeps it enabled between records. A record then pays for enabling, its passes and the decoding.
// The CUPTI calls sit behind ProfilerBackend, so that the reuse, the per-pass timing and the
// recovery are tested without a GPU.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rooflab::counters {

// What one profiled range gave, and what it cost.
struct RangeProfile {
  std::map<std::string, double> values;        // metric -> value over the range
  std::map<std::string, std::string> missing;  // metric -> why CUPTI would not collect it
  int passes = 0;
  double config_seconds = 0;         // configuring the metric set and the profiler for this range
  bool session_reused = false;       // this set's configuration came from an earlier range
  std::vector<double> pass_seconds;  // each pass, its preparation included
  double decode_seconds = 0;
};

// The profiler of one context, one metric set at a time. A set is known by the id the session gives
// it at configure().
class ProfilerBackend {
 public:
  struct MetricSet {
    std::vector<std::string> collected;          // the names the chip knows
    std::map<std::string, std::string> missing;  // the others, and why
    int passes = 0;                              // what the config image says the set needs
  };
  virtual ~ProfilerBackend() = default;
  // Host side: the set's configuration. Throws when none of the metrics can be collected.
  virtual MetricSet configure(int id, const std::vector<std::string>& metrics) = 0;
  virtual void enable() = 0;           // the range profiler on the context
  virtual void setConfig(int id) = 0;  // the set's config image, and a fresh counter data image
  // One pass: the range opened, the work run, the range closed. True once every pass is submitted.
  virtual bool runPass(const std::function<void()>& work) = 0;
  virtual std::map<std::string, double> decode(int id) = 0;  // the range's values, by collected name
  // The range profiler off the context; every set's configuration stays. Never throws.
  virtual void disable() noexcept = 0;
  // Forgets everything: the profiler disabled, every set's configuration dropped. Never throws.
  virtual void reset() noexcept = 0;
};

// A metric set's name in the session: its metrics sorted, duplicates dropped, joined.
std::string metricSetKey(const std::vector<std::string>& metrics);

class ProfilerSession {
 public:
  explicit ProfilerSession(std::unique_ptr<ProfilerBackend> backend);
  ~ProfilerSession();
  ProfilerSession(const ProfilerSession&) = delete;
  ProfilerSession& operator=(const ProfilerSession&) = delete;

  // Collects `metrics` over one range around `run_work`, replayed for every pass the set needs, each
  // pass after `prepare_pass` (outside the range). When the reused session fails in the profiler,
  // it is dropped and the range profiled once more from a fresh one; a failure of the work itself
  // (prepare_pass or run_work throwing) is never retried. Throws what failed.
  RangeProfile profile(const std::vector<std::string>& metrics, const std::function<void()>& prepare_pass,
                       const std::function<void()>& run_work);
  // The range profiler off until the next range; the configurations stay. Never throws.
  void disableProfiler() noexcept;
  // Forgets the session (after the context was reset): the next range starts a fresh one.
  void reset() noexcept;

 private:
  RangeProfile profileOnce(const std::string& key, const std::vector<std::string>& metrics,
                           const std::function<void()>& prepare_pass, const std::function<void()>& run_work,
                           bool& work_failed);

  std::unique_ptr<ProfilerBackend> backend_;
  struct ConfiguredSet {
    int id = 0;
    ProfilerBackend::MetricSet set;
    int fresh_passes = 0;  // the passes its last range on a freshly enabled profiler took
  };
  std::map<std::string, ConfiguredSet> sets_;
  bool enabled_ = false;
  int active_set_ = -1;  // the set the enabled profiler was configured with
  int next_id_ = 0;
};

}  // namespace rooflab::counters
