#pragma once
// What `rooflab tune` found for one studied point of a variant with a tuning space (docs/manifest.md,
// "Tuning spaces"; docs/results-schema.md, "Tuning"): the whole space as data, every configuration
// with what became of it, the best one with its interval, and a manifest snippet that keeps it.
// Types only; analyzer/tune/ searches.
#include <cstddef>
#include <functional>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/data/run_record.hpp"
#include "analyzer/support/expression.hpp"

namespace rooflab {

// How the next configuration is picked (docs/tuning.md).
enum class TuneSearcher { exhaustive, random, guided };
std::string toString(TuneSearcher searcher);  // "exhaustive", "random", "guided"
std::optional<TuneSearcher> parseTuneSearcher(std::string_view text);

enum class ConfigurationOutcome {
  ok,                   // built, ran, verified (or its family has no reference)
  invalid,              // never run: a constraint is false, or the plan refuses its geometry
  build_failed,         // its program did not compile: recorded and skipped
  verification_failed,  // it ran and computed a wrong result: recorded and skipped
  failed,               // it errored at run time, crashed or hung
  not_evaluated,        // valid, but the search did not try it
};
std::string toString(ConfigurationOutcome outcome);  // "ok", "invalid", "build_failed", ...
std::optional<ConfigurationOutcome> parseConfigurationOutcome(std::string_view text);

struct TuningDimension {
  std::string name;
  std::string kind;            // "param", "define" or "new define"
  std::vector<double> values;  // as evaluated on the device
};

struct TunedConfiguration {
  std::vector<double> values;  // one per dimension
  ConfigurationOutcome outcome = ConfigurationOutcome::not_evaluated;
  std::string reason;                // why invalid or failed
  std::optional<std::size_t> order;  // 1 for the first configuration the search ran
  bool resumed = false;              // measured by an earlier run (the journal), not again
  std::optional<double> median_ns;   // ok configurations
  std::optional<double> lower_ns;    // the median's 95% interval
  std::optional<double> upper_ns;
  std::optional<double> rate;  // in TuningResult::rate_unit, at the median
};

struct TuningResult {
  std::string family;
  std::string variant;
  ParamValues params;  // the studied point
  std::vector<std::string> param_order;
  TuneSearcher searcher = TuneSearcher::guided;
  std::optional<std::size_t> budget_evaluations;
  std::optional<double> budget_seconds;
  std::vector<TuningDimension> dimensions;
  std::vector<std::string> constraints;
  std::vector<TunedConfiguration> configurations;  // the whole space, in the order of its dimensions
  std::size_t valid = 0;                           // configurations that pass the constraints and the plan's checks
  std::size_t evaluations = 0;                     // configurations run, those of the journal included
  std::optional<std::size_t> best;                 // into configurations
  std::optional<std::size_t> baseline;             // the variant's own configuration, when it is in the space
  std::string rate_unit = "GFLOP/s";               // or "GB/s" for a family bound by memory
  std::optional<double> roof_rate;                 // the device's attainable rate at the family's intensity
  std::string stop_reason;                         // why the search ended
  double seconds = 0;
  std::string tuned_variant;     // the record of the best configuration, a rung of its own
  std::string manifest_snippet;  // a [[variants]] entry that keeps the best configuration
};

// One line of <out>/tune-journal.jsonl: a configuration measured on a device, so that a search cut
// short, or run again, does not measure it twice.
struct TuneJournalEntry {
  std::string device;
  std::string family;
  std::string variant;
  ParamValues params;         // the studied point
  ParamValues configuration;  // dimension name -> value
  // What the measurement was made with: "kernel sources" and "point" (hashes of the variant's program
  // and of the point as resolved), and each measurement setting by its config key. An entry whose
  // identity differs is not reused.
  std::map<std::string, std::string> identity;
  RunRecord record;
};

// The line a search prints after each evaluation: the configuration `configuration` of `result`, the
// evaluations made of `budget`, and its time and rate (reports::tuneProgressText).
struct VariantSpec;

// The manifest entry that keeps the best configuration as a variant of its own: `best` of `result`,
// on the base variant's entry, named `name`, found on `device` (reports::manifestSnippet).
using TunedVariantText =
    std::function<std::string(const VariantSpec& base, const TuningResult& result, std::size_t best,
                              const std::string& name, const std::string& device)>;

using TuneProgressText =
    std::function<std::string(const TuningResult& result, std::size_t configuration, std::size_t budget)>;

}  // namespace rooflab
