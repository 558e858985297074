#include "analyzer/json/results_json_lines.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "analyzer/json/plan_json.hpp"
#include "analyzer/json/results_json.hpp"

using json = nlohmann::json;

namespace rooflab {
namespace {

json parsedObject(const std::string& line, const char* what) {
  json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) throw std::invalid_argument(std::string("not a ") + what + ": " + line.substr(0, 200));
  return j;
}

}  // namespace

std::string encodeWorkerSetup(const WorkerSetup& setup) {
  const RunSettings& run = setup.config.run;
  json setup_json = {{"config", toJson(setup.config)},
                     {"binaries_dir", run.binaries_dir},
                     {"extra_metrics", run.environment.extra_metrics},
                     {"cupti_library", run.environment.cupti_library},
                     {"private_jit_cache_dir", run.environment.private_jit_cache_dir},
                     {"keep_profiler_enabled", run.environment.keep_profiler_enabled},
                     {"first_point", setup.first_point},
                     {"plan", setup.plan ? planToJson(*setup.plan) : json(nullptr)}};
  if (run.environment.build_threads) setup_json["build_threads"] = *run.environment.build_threads;
  if (!setup.points.empty()) setup_json["points"] = setup.points;
  return setup_json.dump();
}

WorkerSetup decodeWorkerSetup(const std::string& line) {
  const json j = parsedObject(line, "worker setup");
  WorkerSetup setup;
  setup.config = batchConfigFromJson(j.value("config", json::object()));
  RunSettings& run = setup.config.run;
  run.binaries_dir = j.value("binaries_dir", std::string());
  run.environment.extra_metrics = j.value("extra_metrics", std::vector<std::string>());
  run.environment.cupti_library = j.value("cupti_library", std::string());
  run.environment.private_jit_cache_dir = j.value("private_jit_cache_dir", std::string());
  run.environment.keep_profiler_enabled = j.value("keep_profiler_enabled", true);
  if (j.contains("build_threads")) run.environment.build_threads = j["build_threads"].get<int>();
  setup.first_point = j.value("first_point", std::size_t{0});
  setup.points = j.value("points", std::vector<std::size_t>());
  if (const auto plan = j.find("plan"); plan != j.end() && !plan->is_null()) setup.plan = planFromJson(*plan);
  return setup;
}

std::string encodeWorkerMessage(const WorkerMessage& message) {
  switch (message.kind) {
    case WorkerMessage::Kind::ready: return json{{"kind", "ready"}, {"build_threads", message.build_threads}}.dump();
    case WorkerMessage::Kind::progress:
      return json{{"kind", "progress"}, {"phase", message.phase}, {"index", message.index}, {"count", message.count}}
          .dump();
    case WorkerMessage::Kind::record: {
      json j = {{"kind", "record"}, {"record", toJson(*message.record)}};
      if (!message.written_files.empty()) j["written_files"] = message.written_files;
      return j.dump();
    }
    case WorkerMessage::Kind::fatal: break;
  }
  return json{{"kind", "fatal"}, {"reason", message.reason}}.dump();
}

WorkerMessage decodeWorkerMessage(const std::string& line) {
  const json j = parsedObject(line, "worker message");
  WorkerMessage message;
  const std::string kind = j.value("kind", std::string());
  if (kind == "ready") {
    message.kind = WorkerMessage::Kind::ready;
    message.build_threads = j.value("build_threads", 0);
  } else if (kind == "progress") {
    message.kind = WorkerMessage::Kind::progress;
    message.phase = j.value("phase", std::string());
    message.index = j.value("index", 0);
    message.count = j.value("count", 0);
  } else if (kind == "record" && j.contains("record")) {
    message.kind = WorkerMessage::Kind::record;
    message.record = runRecordFromJson(j["record"]);
    message.written_files = j.value("written_files", std::vector<std::string>());
  } else if (kind == "fatal") {
    message.reason = j.value("reason", std::string());
  } else {
    throw std::invalid_argument("not a worker message: " + line.substr(0, 200));
  }
  return message;
}

std::string journalHeaderLine(const ResultsDocument& document) {
  json j = toJson(document);
  j["records"] = json::array();
  return json{{"document", j}}.dump() + "\n";
}

std::string journalLine(std::size_t index, const RunRecord& record, const RecordConclusions& conclusions) {
  return json{{"index", index}, {"record", toJson(record, conclusions)}}.dump() + "\n";
}

}  // namespace rooflab
