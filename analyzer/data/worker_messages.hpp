#pragma once
// What the batch (analyzer/batch/point_worker.cpp) and its worker process (analyzer/batch/worker_main.cpp) say to
// each other, as typed data. On the pipes each message is one line of JSON
// (analyzer/json/results_json_lines.cpp, the plan in analyzer/json/plan_json.cpp): the batch writes the
// setup, then "run <point index>" lines; the
// worker answers with progress lines and one record per point.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/batch_plan.hpp"
#include "analyzer/data/run_record.hpp"

namespace rooflab {

// Everything the worker needs: the config as run (overrides applied, environment settings read),
// the batch's plan whole (families and resolved points: the worker never reads a manifest or
// resolves a point), and the first point it will run (its background builds start there).
struct WorkerSetup {
  BatchConfig config;
  std::shared_ptr<const BatchPlan> plan;
  std::size_t first_point = 0;
  // The plan's points this worker runs, in order (a part of the batch, or one device's share); empty:
  // every point. Its background builds are those from first_point on.
  std::vector<std::size_t> points;
};

struct WorkerMessage {
  enum class Kind { ready, progress, record, fatal };
  Kind kind = Kind::fatal;
  int build_threads = 0;            // ready: programs built in the background
  std::string phase;                // progress: "warm-up", "run", "verify", ...
  int index = 0, count = 0;         // progress
  std::optional<RunRecord> record;  // record
  // record: the files the worker wrote (kept binaries), for the batch to list as rooflab's
  std::vector<std::string> written_files;
  std::string reason;  // fatal: why the worker cannot run points (no device...)
};

}  // namespace rooflab
