#include "reports/text/record_text.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "analyzer/support/format.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {

std::string paramValueText(double value) { return std::isfinite(value) ? formatNumber(value) : ""; }

std::string recordParamsText(const RunRecord& record, std::string_view separator) {
  return paramsText(record.params, record.param_order, separator);
}

std::string paramsText(const ParamValues& params, const std::vector<std::string>& order, std::string_view separator) {
  std::vector<std::string> names;
  for (const std::string& name : order) {
    if (params.count(name) != 0) names.push_back(name);
  }
  for (const auto& [name, value] : params) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  std::string text;
  for (const std::string& name : names) {
    if (!text.empty()) text += separator;
    text += name + "=" + paramValueText(params.at(name));
  }
  return text;
}

std::string verificationText(const RunRecord& record) {
  const VerificationResult& verification = record.verification;
  const auto error = known(verification.rel_l2_error);
  const std::string error_text = error ? "rel. err " + formatSignificant(*error, 2) : "";
  if (verification.status == VerificationStatus::passed) return error ? "passed (" + error_text + ")" : "passed";
  if (verification.status == VerificationStatus::failed) {
    // Failed without a comparison: the reference's output was not finite (the detail says so).
    if (!error && verification.wrong_elements == 0) return "FAILED (reference at fault)";
    const std::string wrong = formatFixed(static_cast<double>(verification.wrong_elements), 0) + " wrong";
    return "FAILED (" + (error_text.empty() ? "" : error_text + ", ") + wrong + ")";
  }
  if (verification.status == VerificationStatus::not_checked) return "not checked";
  return toString(verification.status);  // reference | skipped
}

std::optional<std::string> unplacedText(const AnalysedRecord& record) {
  for (const auto& [key, placement] : record.roofline)
    if (placement.unplaced && placement.level == MemoryLevel::dram) return "unplaced: " + toString(*placement.unplaced);
  return std::nullopt;
}

std::string firstLine(std::string_view text) {
  const auto end = text.find('\n');
  return std::string(text.substr(0, end));
}

std::string noiseText(const RunRecord& record) {
  if (!record.timings || !record.timings->kernel_ns_interval) return "";
  const KernelTimeInterval& interval = *record.timings->kernel_ns_interval;
  const std::string percent = formatSignificant(interval.confidence * 100, 3) + "% interval";
  const std::string noise = interval.noise ? "±" + formatPercent(*interval.noise) : "interval unknown (too few runs)";
  return noise + " (" + percent + "), " + (interval.converged ? "converged" : "NOT converged");
}

bool missedNoiseTarget(const RunRecord& record) {
  return record.timings && record.timings->kernel_ns_interval && !record.timings->kernel_ns_interval->converged;
}

}  // namespace rooflab::reports
