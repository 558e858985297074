#include "analyzer/data/run_record.hpp"

#include "analyzer/data/analysis.hpp"

#include <limits>

#include "analyzer/support/enum_names.hpp"

#include <cmath>

#include "analyzer/support/format.hpp"

namespace rooflab {

std::optional<double> WorkEstimate::globalBytes() const {
  if (!global_accesses || !access_element_bytes) return std::nullopt;
  return *global_accesses * *access_element_bytes;
}

WorkEstimate WorkEstimate::recorded() const {
  WorkEstimate work = *this;
  if (flops_unmeasured) work.flops = std::numeric_limits<double>::quiet_NaN();
  if (bytes_unmeasured) work.bytes = std::numeric_limits<double>::quiet_NaN();
  return work;
}

std::optional<double> WorkEstimate::cgma() const {
  if (flops_unmeasured || !global_accesses || *global_accesses <= 0) return std::nullopt;
  return flops / *global_accesses;
}

std::optional<double> achievedRate(double work, const EventTimings& timings) {
  const double seconds = timings.kernel_ns.median * 1e-9;
  if (!(seconds > 0)) return std::nullopt;
  const double rate = work / seconds * 1e-9;
  return std::isfinite(rate) ? std::optional<double>(rate) : std::nullopt;
}

constexpr EnumName<RecordStatus> kRecordStatusNames[] = {
    {RecordStatus::ok, "ok"},           {RecordStatus::error, "error"},         {RecordStatus::skipped, "skipped"},
    {RecordStatus::crashed, "crashed"}, {RecordStatus::timed_out, "timed_out"},
};

std::string toString(RecordStatus status) { return nameOf(kRecordStatusNames, status); }

std::optional<RecordStatus> parseRecordStatus(std::string_view text) { return valueOf(kRecordStatusNames, text); }

constexpr EnumName<VerificationStatus> kVerificationStatusNames[] = {
    {VerificationStatus::passed, "passed"},       {VerificationStatus::failed, "failed"},
    {VerificationStatus::reference, "reference"}, {VerificationStatus::not_checked, "not_checked"},
    {VerificationStatus::skipped, "skipped"},
};

std::string toString(VerificationStatus status) { return nameOf(kVerificationStatusNames, status); }

std::optional<VerificationStatus> parseVerificationStatus(std::string_view text) {
  return valueOf(kVerificationStatusNames, text);
}

std::string paramsLabel(const ParamValues& params, const std::vector<std::string>& order) {
  std::string out;
  for (const auto& name : order) {
    auto it = params.find(name);
    if (it == params.end()) continue;
    out += (out.empty() ? "" : " ") + name + "=" + formatNumber(it->second);
  }
  return out;
}

std::string RunRecord::label() const {
  const std::string mode_text = modeName(mode) + (what_if ? " " + what_if->name : "");
  return family + "/" + variant + " " + paramsLabel(params, param_order) + " (" + mode_text + ")";
}

std::optional<double> RunRecord::medianKernelNs() const {
  if (!timings || !std::isfinite(timings->kernel_ns.median)) return std::nullopt;
  return timings->kernel_ns.median;
}

std::optional<double> RunRecord::achievedGflops() const {
  return timings ? achievedRate(work.flops, *timings) : std::nullopt;
}

std::optional<double> RunRecord::achievedGbps() const {
  return timings ? achievedRate(work.bytes, *timings) : std::nullopt;
}

const EndToEndAnalysis& AnalysedRecord::endToEnd() const {
  static const EndToEndAnalysis none;
  return end_to_end_analysis ? *end_to_end_analysis : none;
}

const EndToEndRunPrediction& AnalysedRecord::endToEndPrediction(std::size_t run) const {
  static const EndToEndRunPrediction none;
  const EndToEndAnalysis& analysis = endToEnd();
  return run < analysis.runs.size() ? analysis.runs[run] : none;
}

}  // namespace rooflab
