#include "analyzer/data/run_record.hpp"

#include <cmath>

#include "analyzer/support/format.hpp"

namespace rooflab {

std::optional<double> WorkEstimate::globalBytes() const {
  if (!global_accesses || !access_element_bytes) return std::nullopt;
  return *global_accesses * *access_element_bytes;
}

std::optional<double> WorkEstimate::cgma() const {
  if (!global_accesses || *global_accesses <= 0) return std::nullopt;
  return flops / *global_accesses;
}

std::optional<double> achievedRate(double work, const EventTimings& timings) {
  const double seconds = timings.kernel_ns.median * 1e-9;
  if (!(seconds > 0)) return std::nullopt;
  const double rate = work / seconds * 1e-9;
  return std::isfinite(rate) ? std::optional<double>(rate) : std::nullopt;
}

std::string toString(RecordStatus status) {
  switch (status) {
    case RecordStatus::ok: return "ok";
    case RecordStatus::error: return "error";
    case RecordStatus::skipped: return "skipped";
    case RecordStatus::crashed: return "crashed";
    case RecordStatus::timed_out: return "timed_out";
  }
  return "error";
}

std::optional<RecordStatus> parseRecordStatus(std::string_view text) {
  for (RecordStatus status : {RecordStatus::ok, RecordStatus::error, RecordStatus::skipped, RecordStatus::crashed,
                              RecordStatus::timed_out})
    if (text == toString(status)) return status;
  return std::nullopt;
}

std::string toString(VerificationStatus status) {
  switch (status) {
    case VerificationStatus::passed: return "passed";
    case VerificationStatus::failed: return "failed";
    case VerificationStatus::reference: return "reference";
    case VerificationStatus::not_checked: return "not_checked";
    case VerificationStatus::skipped: return "skipped";
  }
  return "not_checked";
}

std::optional<VerificationStatus> parseVerificationStatus(std::string_view text) {
  for (VerificationStatus status : {VerificationStatus::passed, VerificationStatus::failed, VerificationStatus::reference,
                                    VerificationStatus::not_checked, VerificationStatus::skipped})
    if (text == toString(status)) return status;
  return std::nullopt;
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

}  // namespace rooflab
