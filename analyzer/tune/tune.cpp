// `rooflab tune`: the batch's steps up to its plan sized for the device, then a search per tuned
// point, each configuration run by the batch's worker process.
#include "analyzer/tune/tune.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "analyzer/batch/batch_identity.hpp"
#include "analyzer/batch/batch_summary.hpp"
#include "analyzer/batch/point_worker.hpp"
#include "analyzer/diagnose/analysis.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/stop_flag.hpp"
#include "analyzer/support/terminal_text.hpp"
#include "analyzer/tune/searchers.hpp"
#include "analyzer/tune/tune_journal.hpp"
#include "analyzer/tune/tuning_plan.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

using Clock = std::chrono::steady_clock;

// Tuning times kernels alone: counters would multiply each configuration's cost, and the mutants
// measure the kernel's bound, not its speed.
BatchConfig tuningConfig(const BatchConfig& config_in, const TuneOptions& options) {
  BatchConfig config = withBatchOptions(config_in, options.batch);
  config.run.modes = {RunMode::normal};
  for (StudySpec& study : config.studies) study.modes.clear();
  config.run.counters = CountersSetting::off;
  return config;
}

void refuseNothingToTune(const BatchPlan& plan) {
  for (const PlannedPoint& point : plan.points)
    if (point.run_point.variant->tune) return;
  throw InputError("no studied variant declares a tuning space: add [variants.tune] to a variant of a studied family "
                   "(docs/manifest.md, \"Tuning spaces\")");
}

ConfigurationOutcome outcomeOf(const RunRecord& record) {
  if (record.status == RecordStatus::ok)
    return record.verification.status == VerificationStatus::failed ? ConfigurationOutcome::verification_failed
                                                                    : ConfigurationOutcome::ok;
  if (record.status_reason.find("OpenCL build of") != std::string::npos) return ConfigurationOutcome::build_failed;
  return ConfigurationOutcome::failed;
}

// The family's rate unit on this device, and the roof at the point's intensity: GB/s against DRAM
// for work below the device's ridge, GFLOP/s against min(peak, intensity x DRAM) above it.
// Without a model of the device, the reference model's ridge picks the unit, and there is no roof.
void setRoof(TuningResult& result, const WorkEstimate& work, const RooflineModels& models) {
  const DeviceModel& ridge_model = models.device ? *models.device : models.reference;
  const bool memory = work.flops <= 0 || (work.bytes > 0 && work.flops / work.bytes < ridge_model.ridgeIntensity());
  result.rate_unit = memory ? "GB/s" : "GFLOP/s";
  if (!models.device || work.bytes <= 0) return;
  const double peak = models.device->computePeak(work.arithmetic).value_or(models.device->peak_gflops);
  result.roof_rate =
      memory ? models.device->dram_gbps : std::min(peak, work.flops / work.bytes * models.device->dram_gbps);
}

// One search, driven to its end: the budget, the time budget, the searcher's own stop, or an interrupt.
class SearchRun {
 public:
  SearchRun(TuningSearch& search, const TuningPlan& tuning, PointWorker& worker, TuneJournal& journal,
            const std::string& device, const TuneOptions& options, const SearcherSetup& setup, bool progress,
            std::map<std::string, std::string> identity)
      : search_(search),
        tuning_(tuning),
        worker_(worker),
        journal_(journal),
        device_(device),
        identity_(std::move(identity)),
        options_(options),
        searcher_(makeSearcher(setup, search.result)),
        budget_(setup.budget),
        progress_(progress),
        records_(search.result.configurations.size()) {}

  // False when it was interrupted.
  bool run() {
    TuningResult& result = search_.result;
    result.searcher = options_.searcher;
    result.budget_evaluations = budget_;
    result.budget_seconds = options_.time_budget_s;
    const auto started = Clock::now();
    bool interrupted = false;
    for (;;) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      if (stopRequests() > 0) {
        interrupted = true;
        result.stop_reason = "interrupted";
        break;
      }
      if (std::all_of(search_.valid.begin(), search_.valid.end(),
                      [&](std::size_t c) { return wasTried(result.configurations[c]); })) {
        result.stop_reason = "every valid configuration was tried";
        break;
      }
      if (result.evaluations >= budget_) {
        result.stop_reason = "the budget of " + std::to_string(budget_) + " evaluations was spent";
        break;
      }
      if (options_.time_budget_s && elapsed >= *options_.time_budget_s) {
        result.stop_reason = "the time budget of " + formatNumber(*options_.time_budget_s) + " s was spent";
        break;
      }
      std::string why;
      const std::optional<std::size_t> next = searcher_->next(result, why);
      if (!next) {
        result.stop_reason = why;
        break;
      }
      if (!evaluate(*next)) {
        interrupted = true;
        result.stop_reason = "interrupted";
        break;
      }
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    chooseBest();
    return !interrupted;
  }

  const std::optional<RunRecord>& record(std::size_t c) const { return records_[c]; }

 private:
  // False when the user asked to stop now (the configuration has no record).
  bool evaluate(std::size_t c) {
    TuningResult& result = search_.result;
    const std::size_t point = search_.point_of[c];
    const PlannedPoint& planned = tuning_.plan->points[point];
    std::string stale;
    std::map<std::string, std::string> identity = identity_;
    identity["point"] = pointHash(*tuning_.plan, point);
    const RunRecord* earlier =
        journal_.find(device_, result.family, result.variant, search_.params, search_.named[c], identity, stale);
    if (!stale.empty() && !said_stale_) {
      said_stale_ = true;
      std::fprintf(stderr, "rooflab: tune %s/%s: the journal's measurements are not reused: %s; measured again\n",
                   result.family.c_str(), result.variant.c_str(), stale.c_str());
    }
    TunedConfiguration& configuration = result.configurations[c];
    if (earlier != nullptr) {
      records_[c] = *earlier;
      configuration.resumed = true;
    } else {
      std::optional<RunRecord> measured = worker_.run(point, recordFor(planned.run_point), {});
      if (!measured) return false;
      records_[c] = std::move(*measured);
      journal_.append(TuneJournalEntry{device_, result.family, result.variant, search_.params, search_.named[c],
                                       identity, *records_[c]});
    }
    apply(c, *records_[c]);
    if (progress_) report(c);
    return true;
  }

  void apply(std::size_t c, const RunRecord& record) {
    TuningResult& result = search_.result;
    TunedConfiguration& configuration = result.configurations[c];
    configuration.outcome = outcomeOf(record);
    configuration.order = ++result.evaluations;
    if (configuration.outcome != ConfigurationOutcome::ok) {
      configuration.reason = configuration.outcome == ConfigurationOutcome::verification_failed
                                 ? "verification failed: " + record.verification.detail
                                 : record.status_reason;
      return;
    }
    configuration.median_ns = record.medianKernelNs();
    if (record.timings && record.timings->kernel_ns_interval) {
      configuration.lower_ns = record.timings->kernel_ns_interval->lower_ns;
      configuration.upper_ns = record.timings->kernel_ns_interval->upper_ns;
    }
    configuration.rate = result.rate_unit == "GB/s" ? record.achievedGbps() : record.achievedGflops();
  }

  void report(std::size_t c) const {
    if (options_.progress_text)
      std::fprintf(stderr, "%s\n", terminalText(options_.progress_text(search_.result, c, budget_)).c_str());
  }

  void chooseBest() {
    TuningResult& result = search_.result;
    for (std::size_t c = 0; c < result.configurations.size(); ++c) {
      const TunedConfiguration& t = result.configurations[c];
      if (t.outcome == ConfigurationOutcome::ok && t.median_ns &&
          (!result.best || *t.median_ns < *result.configurations[*result.best].median_ns))
        result.best = c;
    }
  }

  TuningSearch& search_;
  const TuningPlan& tuning_;
  PointWorker& worker_;
  TuneJournal& journal_;
  std::string device_;
  std::map<std::string, std::string> identity_;  // what this search's measurements are made with
  bool said_stale_ = false;
  const TuneOptions& options_;
  std::unique_ptr<Searcher> searcher_;
  std::size_t budget_;
  bool progress_;
  std::vector<std::optional<RunRecord>> records_;
};

// What a search's measurements are made with (TuneJournalEntry::identity, with each configuration's
// "point" as resolved): its variant's program as it is now, and the settings that change a
// measurement. Not the manifest's text: a variant added to it (the tuned snippet) changes no point.
std::map<std::string, std::string> searchIdentity(const VariantSpec& variant, const RunSettings& run) {
  std::map<std::string, std::string> identity{{"kernel sources", sourcesHash(variant)}};
  for (const auto& [name, value] : measurementSettings(run)) identity[name] = value;
  return identity;
}

// The tuned rung's name: `<variant>_tuned`, unless the family has a variant of that name already.
std::string tunedName(const FamilyManifest& family, const std::string& variant) {
  std::string name = variant + "_tuned";
  for (int n = 2; family.findVariant(name) != nullptr; ++n) name = variant + "_tuned" + std::to_string(n);
  return name;
}

std::string fileSafe(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return out;
}

// The records the document keeps, placed and analysed as the batch does: the ladder, then for each
// search its variant as written (when the space holds it) and its best configuration as a rung.
class TuneRecords {
 public:
  // `planned`: the records it will hold when nothing is cut short.
  TuneRecords(ResultsDocument& document, ResultsWriter& results, const RooflineModels& models, const DeviceInfo& device,
              std::size_t planned)
      : document_(document),
        results_(results),
        tally_(planned),
        analysis_(DeviceAnalysisInputs{models, device.type == "CPU"}) {}

  void add(RunRecord record, const std::string& variant_name = "") {
    if (!variant_name.empty()) record.variant = variant_name;
    tally_.count(record);
    const std::size_t index = results_.append(std::move(record));
    analysis_.recordAdded(document_.records, document_.analysis, index, true);
    results_.journal(index);
    results_.setSummary(tally_.summary());
  }
  const BatchTally& tally() const { return tally_; }

 private:
  ResultsDocument& document_;
  ResultsWriter& results_;
  BatchTally tally_;
  RecordAnalysis analysis_;
};

SearcherSetup searcherSetup(const TuneOptions& options, const TuningSearch& search, const BatchConfig& config) {
  SearcherSetup setup;
  setup.kind = options.searcher;
  setup.valid = search.valid;
  setup.baseline = search.result.baseline;
  if (setup.baseline && search.point_of[*setup.baseline] == static_cast<std::size_t>(-1)) setup.baseline.reset();
  setup.budget = options.budget.value_or(defaultTuneBudget(options.searcher, search.valid.size()));
  setup.seed = options.seed.value_or(config.run.seed);
  setup.noise = config.run.max_noise;
  return setup;
}

void announceSearch(const TuningSearch& search, const SearcherSetup& setup) {
  const TuningResult& r = search.result;
  std::string params;
  for (const std::string& name : r.param_order)
    if (r.params.count(name)) params += " " + name + "=" + formatNumber(r.params.at(name));
  std::string first_refusal;
  for (const TunedConfiguration& c : r.configurations)
    if (c.outcome == ConfigurationOutcome::invalid) {
      first_refusal = "; e.g. " + c.reason;
      break;
    }
  std::fprintf(
      stderr, "rooflab: tune %s/%s%s: %zu configurations, %zu valid%s; %s searcher, at most %zu evaluations\n",
      terminalText(r.family).c_str(), terminalText(r.variant).c_str(), params.c_str(), r.configurations.size(), r.valid,
      r.valid == r.configurations.size()
          ? ""
          : (" (" + std::to_string(r.configurations.size() - r.valid) + " refused" + first_refusal + ")").c_str(),
      toString(setup.kind).c_str(), setup.budget);
}

}  // namespace

std::size_t defaultTuneBudget(TuneSearcher searcher, std::size_t valid) {
  if (searcher == TuneSearcher::exhaustive) return valid;
  return std::min(valid, std::max<std::size_t>(8, valid / 4));
}

TuneOutcome runTune(const BatchConfig& config_in, const TuneOptions& options) {
  BatchConfig config = tuningConfig(config_in, options);
  auto planned = std::make_shared<const BatchPlan>(planBatch(config));
  for (const auto& w : planned->warnings) std::fprintf(stderr, "rooflab: warning: %s\n", terminalText(w, true).c_str());
  if (!planned->input_errors.empty()) throw InputError(joinedInputErrors(planned->input_errors));
  refuseNothingToTune(*planned);
  // The device before the folder: a selector that matches nothing leaves no folder behind.
  const SelectedDevice device = selectDevice(config.run.device);
  TuneOutcome outcome;
  outcome.folder = std::make_unique<OutputFolder>(config.run.out);
  outcome.out_dir = outcome.folder->dir();
  ResultsWriter results(outcome.results, *outcome.folder);
  results.start(config, device.info, {});
  const MeasuredModels measured =
      measureModels(config.run, device, options.batch.progress, options.batch.ceilings_words, *planned);
  const RooflineModels& models = measured.models;
  results.setModels(models, measured.seconds);
  planned = planForDevice(config, planned, device, models, results, false, options.batch.size_choice_text);
  TuningPlan tuning = planTuning(*planned, device.info);
  TuneJournal journal(outcome.out_dir / "tune-journal.jsonl", options.fresh);
  for (const std::string& warning : journal.warnings()) std::fprintf(stderr, "rooflab: warning: %s\n", warning.c_str());
  std::vector<SearcherSetup> setups;
  for (std::size_t s = 0; s < tuning.searches.size(); ++s) {
    TuningSearch& search = tuning.searches[s];
    setups.push_back(searcherSetup(options, search, config));
    if (!search.valid.empty())
      setRoof(search.result, tuning.plan->points[search.point_of[search.valid.front()]].resolved->work, models);
    orderConfigurationPoints(tuning, s, makeSearcher(setups.back(), search.result)->plannedOrder());
    announceSearch(search, setups.back());
  }
  // A guided search decides as it goes: programs built ahead in the plan's order would mostly be wasted.
  if (options.searcher == TuneSearcher::guided && !config.run.environment.build_threads)
    config.run.environment.build_threads = 0;
  WorkerSetup setup;
  setup.config = config;
  setup.plan = tuning.plan;
  PointWorker worker(std::move(setup), device.info.name);
  std::size_t planned_records = tuning.ladder_points;
  for (const SearcherSetup& setup : setups) planned_records += setup.baseline ? 2 : 1;
  TuneRecords records(outcome.results, results, models, device.info, planned_records);
  bool interrupted = false;
  for (std::size_t i = 0; i < tuning.ladder_points && !interrupted; ++i) {
    std::optional<RunRecord> record = worker.run(i, recordFor(tuning.plan->points[i].run_point), {});
    interrupted = !record || stopRequests() > 0;
    if (record) records.add(std::move(*record));
  }
  bool some_search_found_nothing = false;
  for (std::size_t s = 0; s < tuning.searches.size() && !interrupted; ++s) {
    TuningSearch& search = tuning.searches[s];
    const FamilyManifest& family = tuning.plan->families[search.family_index];
    TuningResult& result = search.result;
    SearchRun run(search, tuning, worker, journal, device.info.name, options, setups[s], options.batch.progress,
                  searchIdentity(*family.findVariant(result.variant), config.run));
    interrupted = !run.run();
    if (result.baseline && run.record(*result.baseline)) records.add(*run.record(*result.baseline), result.variant);
    if (!result.best) {
      some_search_found_nothing = true;
    } else {
      result.tuned_variant = tunedName(family, result.variant);
      records.add(*run.record(*result.best), result.tuned_variant);
      if (options.tuned_variant_text) {
        result.manifest_snippet = options.tuned_variant_text(*family.findVariant(result.variant), result, *result.best,
                                                             result.tuned_variant, device.info.name);
        const fs::path file =
            outcome.out_dir / ("tuned-" + fileSafe(result.family) + "-" + fileSafe(result.variant) + ".toml");
        writeFileAtomically(file, result.manifest_snippet);
        outcome.snippets.push_back(file);
      }
    }
    outcome.results.tuning.push_back(result);
    results.checkpoint();
  }
  interrupted = interrupted || stopRequests() > 0;
  results.finish(interrupted, records.tally().finalSummary(std::min(planned_records, outcome.results.records.size())));
  results.write();
  outcome.exit_code = records.tally().exitCode(interrupted, false);
  if (outcome.exit_code == ExitCode::ok && some_search_found_nothing) outcome.exit_code = ExitCode::variant_failed;
  return outcome;
}

}  // namespace rooflab
