// The names of tuning searchers and configuration outcomes, in results files and on the command line.
#include "analyzer/data/tuning.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {
namespace {

constexpr EnumName<TuneSearcher> kSearcherNames[] = {
    {TuneSearcher::exhaustive, "exhaustive"}, {TuneSearcher::random, "random"}, {TuneSearcher::guided, "guided"}};

constexpr EnumName<ConfigurationOutcome> kOutcomeNames[] = {
    {ConfigurationOutcome::ok, "ok"},
    {ConfigurationOutcome::invalid, "invalid"},
    {ConfigurationOutcome::build_failed, "build_failed"},
    {ConfigurationOutcome::verification_failed, "verification_failed"},
    {ConfigurationOutcome::failed, "failed"},
    {ConfigurationOutcome::not_evaluated, "not_evaluated"},
};

}  // namespace

std::string toString(TuneSearcher searcher) { return nameOf(kSearcherNames, searcher); }
std::optional<TuneSearcher> parseTuneSearcher(std::string_view text) { return valueOf(kSearcherNames, text); }
std::string toString(ConfigurationOutcome outcome) { return nameOf(kOutcomeNames, outcome); }
std::optional<ConfigurationOutcome> parseConfigurationOutcome(std::string_view text) {
  return valueOf(kOutcomeNames, text);
}

}  // namespace rooflab
