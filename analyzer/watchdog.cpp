#include "analyzer/watchdog.hpp"

#include <cstdio>
#include <cmath>
#include <cstdlib>

#include "analyzer/format.hpp"
#include "analyzer/json_file.hpp"
#include "analyzer/results_json.hpp"

namespace rooflab {

Watchdog::Watchdog(ResultsDocument& results, std::filesystem::path results_path, double hard_limit_s, int exit_code)
    : results_(results), results_path_(std::move(results_path)), hard_limit_s_(hard_limit_s), exit_code_(exit_code) {
  thread_ = std::thread([this] { watch(); });
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> guard(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::begin(RunRecord stub) {
  std::lock_guard<std::mutex> guard(mutex_);
  stub_ = std::move(stub);
  started_ = std::chrono::steady_clock::now();
  active_ = true;
}

void Watchdog::end() {
  std::lock_guard<std::mutex> guard(mutex_);
  active_ = false;
}

void Watchdog::watch() {
  std::unique_lock<std::mutex> guard(mutex_);
  while (!quit_) {
    wake_.wait_for(guard, std::chrono::milliseconds(200));
    if (quit_ || !active_) continue;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    if (elapsed < hard_limit_s_) continue;
    RunRecord record = stub_;
    record.status = RecordStatus::error;
    record.status_reason = "no result after " + formatNumber(std::round(elapsed)) +
                      " s (variant_time_limit_s allows " + formatNumber(hard_limit_s_) +
                      " s for one run): the kernel hangs or is far too slow; OpenCL cannot cancel a running "
                      "kernel, so rooflab stopped the batch here";
    const std::string reason = record.status_reason;
    results_.records.push_back(std::move(record));
    results_.status = BatchStatus::timed_out;
    try {
      writeJsonAtomically(results_path_, toJson(results_));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "rooflab: %s\n", e.what());
    }
    std::fprintf(stderr, "\nrooflab: error: %s\nrooflab: results so far: %s\n", reason.c_str(),
                 results_path_.c_str());
    std::fflush(stderr);
    std::_Exit(exit_code_);
  }
}

}  // namespace rooflab
