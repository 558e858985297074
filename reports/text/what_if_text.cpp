#include "reports/text/what_if_text.hpp"

#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/what_if_sentences.hpp"

namespace rooflab::reports {
namespace {

// A ratio under 1x promises nothing: "none (0.97×)", never "up to 0.97× faster".
std::string gainText(double ratio) {
  return ratio < 1.0 ? "none (" + formatSpeedup(ratio) + ")" : "up to " + formatSpeedup(ratio) + " faster";
}

std::string countText(const std::optional<double>& value) {
  const auto v = known(value);
  return v ? formatCount(*v) : std::string("?");
}

}  // namespace

std::string whatIfCheckText(const WhatIfRun& run, const WhatIfOutcome& w) {
  if (w.check == WhatIfCheck::not_checked) return "expectation not checked: " + whatIfCheckDetailText(run, w);
  std::string text = std::string("expectation ") + (w.check == WhatIfCheck::met ? "met" : "FAILED") + ": ";
  if (run.expectation) {
    text += run.expectation->counter + " " + countText(w.counter_original) + " (original) -> " +
            countText(w.counter_what_if) + " (what-if), expected " + whatIfExpectationText(*run.expectation);
  }
  if (w.check == WhatIfCheck::failed) text += "; the mutation may not remove what it claims, so its gain is suspect";
  return text;
}

std::string whatIfPredictedText(const WhatIfOutcome& w) {
  const auto gain = known(w.predicted_gain);
  if (gain) return "predicted gain: " + gainText(*gain);
  if (w.predicted_gain_unavailable)
    return "predicted gain: none shown: " + whatIfGainWithheldText(*w.predicted_gain_unavailable);
  return "predicted gain: not measured";
}

std::string whatIfRealisedText(const WhatIfRun& run, const WhatIfOutcome& w) {
  if (run.realised_by.empty()) return "";
  const auto gain = known(w.realised_gain);
  if (!gain && w.realised_gain_unavailable)
    return run.realised_by +
           " (the real optimisation): no gain shown: " + whatIfGainWithheldText(*w.realised_gain_unavailable);
  // Files written before the reasons: a missing gain was a record missing at these parameters.
  if (!gain)
    return run.realised_by + " (the real optimisation): not measured at these parameters (study it in normal mode)";
  return run.realised_by + " (the real optimisation) measured: " +
         (*gain < 1.0 ? "slower (" + formatSpeedup(*gain) + ")" : formatSpeedup(*gain) + " faster");
}

}  // namespace rooflab::reports
