#include "reports/text/progress_text.hpp"

#include <algorithm>

#include "reports/text/number_format.hpp"

namespace rooflab::reports {

std::string estimateText(double seconds) {
  // A whole second at least: "about 0 s" would read as done.
  if (seconds < 90) return "about " + formatFixed(std::max(seconds, 1.0), 0) + " s";
  if (seconds < 5400) return "about " + formatFixed(seconds / 60, 1) + " min";
  return "about " + formatFixed(seconds / 3600, 1) + " h";
}

std::string batchStartText(const BatchStart& start) {
  // The settings as printf's %g wrote them when the batch wrote this line.
  return "rooflab: " + std::to_string(start.points) + " points (" + std::to_string(start.families) +
         (start.families == 1 ? " family" : " families") + ") on " + start.devices + "; " +
         std::to_string(start.warmup) + " warm-up + at least " + std::to_string(start.repetitions) +
         " timed runs each, to ±" + formatGeneral(start.max_noise * 100, 6) + "% noise within " +
         formatGeneral(start.max_time_s, 6) + " s; " +
         (start.estimate_seconds ? "estimated " + estimateText(*start.estimate_seconds) + "; " : "") + "results in " +
         start.results_path;
}

}  // namespace rooflab::reports
