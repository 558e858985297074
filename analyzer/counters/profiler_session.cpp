#include "analyzer/counters/profiler_session.hpp"
#include "analyzer/support/wall_clock.hpp"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

namespace rooflab::counters {
namespace {

using Clock = std::chrono::steady_clock;

// No metric table needs this many passes; more means the replay loop is not converging.
constexpr int kMaxPasses = 64;

}  // namespace

std::string metricSetKey(const std::vector<std::string>& metrics) {
  const std::set<std::string> unique(metrics.begin(), metrics.end());
  std::string key;
  for (const std::string& name : unique) key += (key.empty() ? "" : ",") + name;
  return key;
}

ProfilerSession::ProfilerSession(std::unique_ptr<ProfilerBackend> backend) : backend_(std::move(backend)) {}

ProfilerSession::~ProfilerSession() { reset(); }

void ProfilerSession::reset() noexcept {
  if (backend_) backend_->reset();
  sets_.clear();
  enabled_ = false;
  active_set_ = -1;
}

void ProfilerSession::disableProfiler() noexcept {
  if (backend_ && enabled_) backend_->disable();
  enabled_ = false;
  active_set_ = -1;
}

RangeProfile ProfilerSession::profile(const std::vector<std::string>& metrics,
                                      const std::function<void()>& prepare_pass,
                                      const std::function<void()>& run_work) {
  const std::string key = metricSetKey(metrics);
  for (int attempt = 0;; ++attempt) {
    const bool reusing = enabled_ || sets_.count(key) > 0;
    bool work_failed = false;
    try {
      return profileOnce(key, metrics, prepare_pass, run_work, work_failed);
    } catch (...) {
      reset();
      // Only a session that was reused gets a second chance, once: a fresh one failing is the answer.
      if (work_failed || !reusing || attempt > 0) throw;
    }
  }
}

RangeProfile ProfilerSession::profileOnce(const std::string& key, const std::vector<std::string>& metrics,
                                          const std::function<void()>& prepare_pass,
                                          const std::function<void()>& run_work, bool& work_failed) {
  RangeProfile profile;
  const Clock::time_point config_started = Clock::now();
  profile.session_reused = sets_.count(key) > 0;
  auto found = sets_.find(key);
  if (found == sets_.end()) {
    const int id = next_id_++;
    found = sets_.emplace(key, ConfiguredSet{id, backend_->configure(id, metrics)}).first;
  }
  ConfiguredSet& configured = found->second;
  // An enabled range profiler keeps the pass schedule of the first set it was configured with: given
  // another set's config, the H100's ran 2 of the 5 passes the full table needs, and left the
  // counters of the other 3 empty. It is enabled afresh for a new set.
  if (enabled_ && active_set_ != configured.id) {
    backend_->disable();
    enabled_ = false;
  }
  const bool fresh = !enabled_;
  if (!enabled_) {
    backend_->enable();
    enabled_ = true;
  }
  active_set_ = configured.id;
  backend_->setConfig(configured.id);
  profile.config_seconds = secondsSince(config_started);
  profile.missing = configured.set.missing;

  auto work = [&](const std::function<void()>& f) {
    try {
      f();
    } catch (...) {
      work_failed = true;
      throw;
    }
  };
  for (bool all_passes_submitted = false; !all_passes_submitted;) {
    if (profile.passes >= kMaxPasses)
      throw std::runtime_error("CUPTI still wanted passes after " + std::to_string(kMaxPasses) + " replays");
    const Clock::time_point pass_started = Clock::now();
    work(prepare_pass);
    all_passes_submitted = backend_->runPass([&] { work(run_work); });
    profile.pass_seconds.push_back(secondsSince(pass_started));
    ++profile.passes;
  }
  // The same set on a profiler left enabled must take the passes it took on a fresh one.
  if (fresh) configured.fresh_passes = profile.passes;
  else if (profile.passes < configured.fresh_passes)
    throw std::runtime_error("CUPTI submitted every pass after " + std::to_string(profile.passes) + " of the " +
                             std::to_string(configured.fresh_passes) + " the metric set took on a fresh profiler");
  const Clock::time_point decode_started = Clock::now();
  profile.values = backend_->decode(configured.id);
  profile.decode_seconds = secondsSince(decode_started);
  return profile;
}

}  // namespace rooflab::counters
