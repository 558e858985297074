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

}  // namespace rooflab::reports
