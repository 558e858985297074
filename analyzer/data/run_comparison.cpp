// A run comparison's names, as `rooflab diff` writes them.
#include "analyzer/data/run_comparison.hpp"

#include <algorithm>

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<RunSide> kRunSideNames[] = {
    {RunSide::old_run, "OLD"},
    {RunSide::new_run, "NEW"},
};

std::string toString(RunSide side) { return nameOf(kRunSideNames, side); }

constexpr EnumName<PointVerdict> kPointVerdictNames[] = {
    {PointVerdict::regressed, "REGRESSED"},
    {PointVerdict::improved, "IMPROVED"},
    {PointVerdict::unchanged_within_noise, "unchanged within noise"},
    {PointVerdict::not_compared, "not compared"},
    {PointVerdict::unchanged_within_drift, "unchanged within drift"},
    {PointVerdict::inconclusive_drift, "INCONCLUSIVE (drift)"},
};

std::string toString(PointVerdict verdict) { return nameOf(kPointVerdictNames, verdict); }

constexpr EnumName<MeasurementSetting> kMeasurementSettingNames[] = {
    {MeasurementSetting::repetitions, "repetitions"},
    {MeasurementSetting::warmup, "warmup"},
    {MeasurementSetting::max_noise, "max_noise"},
    {MeasurementSetting::min_time, "min_time"},
    {MeasurementSetting::max_time, "max_time"},
    {MeasurementSetting::counters, "counters"},
    {MeasurementSetting::seed, "seed"},
};

std::string toString(MeasurementSetting setting) { return nameOf(kMeasurementSettingNames, setting); }

constexpr EnumName<ComparisonOutcome> kComparisonOutcomeNames[] = {
    {ComparisonOutcome::no_regression, "no regression"},
    {ComparisonOutcome::regressed, "regressed"},
    {ComparisonOutcome::inconclusive, "inconclusive"},
    {ComparisonOutcome::refused, "refused"},
};

std::string toString(ComparisonOutcome outcome) { return nameOf(kComparisonOutcomeNames, outcome); }

std::size_t RunComparison::count(PointVerdict verdict) const {
  return static_cast<std::size_t>(std::count_if(
      matched.begin(), matched.end(), [verdict](const PointComparison& point) { return point.verdict == verdict; }));
}

}  // namespace rooflab
