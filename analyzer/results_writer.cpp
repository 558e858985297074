#include "analyzer/results_writer.hpp"

#include <ctime>
#include <fstream>

#include "analyzer/errors.hpp"
#include "analyzer/json_file.hpp"
#include "analyzer/results_json.hpp"
#include "mutators/mutation_verdict.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

std::string utcNow() {
  std::time_t now = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return buffer;
}

nlohmann::json configJson(const BatchConfig& config) {
  const RunSettings& r = config.run;
  nlohmann::json modes = nlohmann::json::array();
  for (RunMode m : r.modes) modes.push_back(modeName(m));
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : r.kernels) kernels.push_back(k.string());
  nlohmann::json studies = nlohmann::json::array();
  for (const auto& s : config.studies) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& [name, values] : s.params) params[name] = values;
    nlohmann::json study_modes = nlohmann::json::array();
    for (RunMode m : s.modes) study_modes.push_back(modeName(m));
    studies.push_back({{"family", s.family}, {"variants", s.variants}, {"params", params}, {"modes", study_modes}});
  }
  return {{"path", config.path},
          {"run",
           {{"device", r.device}, {"repetitions", r.repetitions}, {"warmup", r.warmup}, {"modes", modes},
            {"counters", r.counters}, {"reference_model", r.reference_model}, {"ceilings", r.ceilings}, {"out", r.out},
            {"formats", r.formats}, {"kernels", kernels}, {"variant_time_limit_s", r.variant_time_limit_s},
            {"seed", r.seed}}},
          {"study", studies},
          {"text", config.text}};
}

}  // namespace

fs::path prepareOutputFolder(const std::string& out) {
  const fs::path dir = fs::absolute(out);
  std::error_code ec;
  fs::create_directories(dir, ec);
  const fs::path probe = dir / ".rooflab-write-test";
  std::ofstream test(probe);
  if (ec || !test) throw InputError("output folder '" + dir.string() + "' cannot be created or written");
  test.close();
  fs::remove(probe, ec);
  return dir;
}

ResultsWriter::ResultsWriter(nlohmann::json& document, fs::path path)
    : document_(document), path_(std::move(path)) {}

void ResultsWriter::start(const BatchConfig& config, const DeviceInfo& device,
                            const std::vector<std::string>& input_errors) {
  document_ = {{"schema", 1},
               {"tool", {{"name", "rooflab"}, {"version", ROOFLAB_VERSION}}},
               {"status", "running"},
               {"started_at", utcNow()},
               {"finished_at", nullptr},
               {"config", configJson(config)},
               {"device", toJson(device)},
               {"models", nlohmann::json::object()},
               {"input_errors", input_errors},
               {"records", nlohmann::json::array()}};
}

void ResultsWriter::setModels(const RooflineModels& models, double ceilings_seconds) {
  document_["ceilings_seconds"] = ceilings_seconds;
  document_["models"] = toJson(models);
}

void ResultsWriter::setBuildThreads(int threads) { document_["build_threads"] = threads; }

void ResultsWriter::addRecord(const RunRecord& record, bool closes_group, double timer_resolution_ns) {
  nlohmann::json& records = document_["records"];
  records.push_back(toJson(record));
  const std::string group = record.family + "/" + record.variant + " " + paramsLabel(record.params, record.param_order);
  mode_records_[group][modeName(record.mode)] = records.size() - 1;
  if (!closes_group) return;
  const auto& modes = mode_records_[group];
  auto recordAt = [&](const char* mode) -> nlohmann::json* {
    auto it = modes.find(mode);
    return it == modes.end() ? nullptr : &records[it->second];
  };
  nlohmann::json* normal = recordAt("normal");
  nlohmann::json* mem = recordAt("memory-only");
  nlohmann::json* comp = recordAt("compute-only");
  if (normal && (mem || comp)) {
    // The verdict reads typed records; the writer keeps JSON ones until it writes a ResultsDocument.
    auto typed = [](const nlohmann::json* r) { return r ? std::optional(runRecordFromJson(*r)) : std::nullopt; };
    const auto n = typed(normal), m = typed(mem), c = typed(comp);
    (*normal)["mutation"] = toJson(analyseMutation(*n, m ? &*m : nullptr, c ? &*c : nullptr, timer_resolution_ns));
  }
}

void ResultsWriter::setSummary(nlohmann::json summary) { document_["summary"] = std::move(summary); }

void ResultsWriter::finish(bool interrupted, nlohmann::json summary) {
  document_["status"] = interrupted ? "interrupted" : "complete";
  document_["finished_at"] = utcNow();
  document_["summary"] = std::move(summary);
}

void ResultsWriter::write() const { writeJsonAtomically(path_, document_); }

}  // namespace rooflab
