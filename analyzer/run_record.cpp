#include "analyzer/run_record.hpp"

#include <cmath>

#include "analyzer/format.hpp"

namespace rooflab {

std::optional<double> WorkEstimate::cgma() const {
  if (!global_accesses || *global_accesses <= 0) return std::nullopt;
  return flops / *global_accesses;
}

nlohmann::json finiteOrNull(double value) {
  return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
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
  return family + "/" + variant + " " + paramsLabel(params, param_order) + " (" + modeName(mode) + ")";
}

namespace {
nlohmann::json summaryJson(const SampleSummary& s) {
  return {{"median", finiteOrNull(s.median)}, {"min", finiteOrNull(s.min)}, {"max", finiteOrNull(s.max)},
          {"mean", finiteOrNull(s.mean)}, {"cv", finiteOrNull(s.cv)}, {"count", s.count}};
}
nlohmann::json optionalNumber(const std::optional<double>& v) { return v ? finiteOrNull(*v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json toJson(const RunRecord& r) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : r.params) {
    if (value == std::trunc(value) && std::fabs(value) < 9e15)
      params[name] = static_cast<std::int64_t>(value);
    else
      params[name] = value;
  }
  nlohmann::json geometry = nlohmann::json::array();
  for (const auto& g : r.geometry) geometry.push_back({{"kernel", g.kernel}, {"global", g.global}, {"local", g.local}});

  nlohmann::json timings = nullptr;
  if (r.timings) {
    const EventTimings& t = *r.timings;
    nlohmann::json reps = nlohmann::json::array();
    for (const auto& rep : t.repetitions)
      reps.push_back({{"queued_ns", rep.queued_ns}, {"submit_ns", rep.submit_ns}, {"start_ns", rep.start_ns},
                      {"end_ns", rep.end_ns}, {"kernel_ns", rep.kernel_ns}, {"span_ns", rep.span_ns},
                      {"launch_overhead_ns", rep.launch_overhead_ns}});
    const double seconds = t.kernel_ns.median * 1e-9;
    timings = {{"warmup", t.warmup},
               {"repetitions", reps},
               {"kernel_ns", summaryJson(t.kernel_ns)},
               {"launch_overhead_ns", summaryJson(t.launch_overhead_ns)},
               {"cut_short", t.cut_short},
               {"gflops", seconds > 0 ? finiteOrNull(r.work.flops / seconds * 1e-9) : nlohmann::json(nullptr)},
               {"gbps", seconds > 0 ? finiteOrNull(r.work.bytes / seconds * 1e-9) : nlohmann::json(nullptr)}};
  }
  const VerificationResult& v = r.verification;
  return {
      {"family", r.family},
      {"variant", r.variant},
      {"mode", modeName(r.mode)},
      {"params", params},
      {"param_order", r.param_order},
      {"status", r.status},
      {"error", r.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error)},
      {"build", {{"options", r.build_options}, {"seconds", r.build_seconds}, {"log", r.build_log}}},
      {"geometry", {{"launches", geometry}}},
      {"work",
       {{"flops", finiteOrNull(r.work.flops)},
        {"bytes", finiteOrNull(r.work.bytes)},
        {"global_accesses", optionalNumber(r.work.global_accesses)},
        {"local_accesses", optionalNumber(r.work.local_accesses)},
        {"cgma", optionalNumber(r.work.cgma())}}},
      {"timings", timings},
      {"verification",
       {{"status", v.status},
        {"reference", v.reference.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.reference)},
        {"rel_l2_error", optionalNumber(v.rel_l2_error)},
        {"wrong_elements", v.wrong_elements},
        {"non_finite", v.non_finite},
        {"tolerance", v.tolerance},
        {"detail", v.detail.empty() ? nlohmann::json(nullptr) : nlohmann::json(v.detail)}}},
      {"counters", r.counters.is_null() ? nlohmann::json{{"available", false}, {"reason", "not measured"}} : r.counters},
      {"roofline", r.roofline},
      {"mutation", r.mutation},
      {"occupancy_padding", r.occupancy_padding},
      {"phase_seconds", r.phase_seconds},
  };
}

}  // namespace rooflab
