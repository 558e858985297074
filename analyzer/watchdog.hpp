#pragma once
// OpenCL cannot cancel a kernel that never finishes. The runner stops a variant between
// repetitions once it passes its time limit; a single run that hangs is caught here instead: the
// watchdog records the variant as hung, writes the results so far and ends the process, so a batch
// is never lost to one kernel.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "analyzer/results_document.hpp"

namespace rooflab {

class Watchdog {
 public:
  // `results` is the document the batch writes to `results_path`; every access to it from the
  // batch must hold lock(). A point that runs longer than `hard_limit_s` ends the process with `exit_code`.
  Watchdog(ResultsDocument& results, std::filesystem::path results_path, double hard_limit_s, int exit_code);
  ~Watchdog();

  // `stub` is the record written for the point if it hangs (family, variant, mode, params).
  void begin(RunRecord stub);
  void end();
  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mutex_); }

 private:
  void watch();

  ResultsDocument& results_;
  std::filesystem::path results_path_;
  double hard_limit_s_;
  int exit_code_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool active_ = false;
  bool quit_ = false;
  RunRecord stub_;
  std::chrono::steady_clock::time_point started_;
  std::thread thread_;
};

}  // namespace rooflab
