#include "reports/html/html_run_sections.hpp"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "reports/text/ceilings_sentences.hpp"
#include "reports/text/config_text.hpp"
#include "reports/html/html_text.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

template <class Number>
std::optional<double> asDouble(const std::optional<Number>& value) {
  return value ? std::optional<double>(static_cast<double>(*value)) : std::nullopt;
}

// The device as the results file holds it: each field under its key, alphabetically.
std::vector<std::pair<std::string, std::string>> deviceFields(const DeviceInfo& device) {
  std::string sizes;
  for (std::size_t size : device.max_work_item_sizes) sizes += (sizes.empty() ? "" : ",") + std::to_string(size);
  auto bytes = [](std::uint64_t count) {
    return std::to_string(count) + " (" + formatBytes(static_cast<double>(count)) + ")";
  };
  return {{"clock_mhz", std::to_string(device.clock_mhz)},
          {"compute_units", std::to_string(device.compute_units)},
          {"device_index", std::to_string(device.device_index)},
          {"driver_version", device.driver_version},
          {"global_mem_bytes", bytes(device.global_mem_bytes)},
          {"local_mem_bytes", bytes(device.local_mem_bytes)},
          {"max_alloc_bytes", bytes(device.max_alloc_bytes)},
          {"max_work_group_size", std::to_string(device.max_work_group_size)},
          {"max_work_item_sizes", "[" + sizes + "]"},
          {"name", device.name},
          {"opencl_version", device.opencl_version},
          {"platform", device.platform},
          {"platform_index", std::to_string(device.platform_index)},
          {"timer_resolution_ns", std::to_string(device.timer_resolution_ns)},
          {"type", device.type},
          {"vendor", device.vendor}};
}

}  // namespace

std::string deviceSectionHtml(const AnalysedResults& results) {
  std::string html = "<section id=\"device\">\n<h2>Device</h2>\n";
  if (!results.device) {
    return html + "<p class=\"muted\">Not recorded.</p>\n</section>\n";
  }
  html += "<table class=\"device\">\n<tbody>\n";
  for (const auto& [key, text] : deviceFields(*results.device)) html += "<tr>" + th(key) + tdText(text) + "</tr>\n";
  return html + "</tbody>\n</table>\n</section>\n";
}

std::string modelsSectionHtml(const AnalysedResults& results) {
  const std::vector<std::string> model_keys = modelKeysInOrder(results);
  std::string html = "<section id=\"models\">\n<h2>Roofline models</h2>\n";
  if (model_keys.empty()) {
    return html + "<p class=\"muted\">No model recorded.</p>\n</section>\n";
  }
  html += "<table class=\"models\">\n<thead><tr>" + th("Key") + th("Role") + th("Model") + th("Peak FP32 GFLOP/s") +
          th("DRAM GB/s") + th("Ridge FLOP/byte") + th("Local GB/s") + th("Local memory") + th("Compute units") +
          th("Clock MHz") + th("Sources") + "</tr></thead>\n<tbody>\n";
  for (const std::string& key : model_keys) {
    const DeviceModel& model = results.models.roofline_models.at(key).model;
    const double peak = model.peak_gflops, dram = model.dram_gbps;
    html += "<tr>" + tdText(key) + tdText(modelRoleText(results, key)) + tdText(model.display_name) +
            tdNumber(peak, &formatRate) + tdNumber(dram, &formatRate) +
            tdNumber(dram > 0 ? std::optional<double>(peak / dram) : std::nullopt, &formatRate) +
            tdNumber(model.local_gbps, &formatRate) + tdNumber(asDouble(model.local_mem_bytes), &formatBytes) +
            tdNumber(asDouble(model.compute_units), &formatRoundTrip) +
            tdNumber(asDouble(model.clock_mhz), &formatRoundTrip);
    html += "<td>";
    for (const auto& [field, source] : model.sources) html += escapeHtml(field) + ": " + escapeHtml(source) + "<br>";
    html += "</td></tr>\n";
  }
  return html + "</tbody>\n</table>\n</section>\n";
}

// The benchmarks `rooflab ceilings` ran at the start of the batch: where the device model's
// numbers come from.
std::string measuredCeilingsHtml(const AnalysedResults& results) {
  if (!results.models.ceilings) return "";
  const CeilingsReport& ceilings = *results.models.ceilings;
  if (ceilings.dram_copy.name.empty() && ceilings.fp32_fma.name.empty()) return "";  // the link and launch alone
  std::string html = "<section id=\"ceilings\">\n<h3>Measured ceilings</h3>\n<p class=\"muted\">Measured at " +
                     escapeHtml(ceilings.measured_at) + "; the device model takes the best of the repetitions.</p>\n";
  html += "<table class=\"ceilings\">\n<thead><tr>" + th("Benchmark") + th("Best") + th("Median") + th("Repetitions") +
          th("Geometry") + "</tr></thead>\n<tbody>\n";
  for (const CeilingBenchmark* benchmark : ceilings.benchmarks()) {
    // Without a best rate a FLOP benchmark shows no median either: the report has always told the
    // unit by the key of the best rate.
    const bool is_bandwidth = benchmark->unit == "GB/s";
    const bool has_rate = is_bandwidth || known(benchmark->best_rate);
    const std::string unit = is_bandwidth ? " GB/s" : " GFLOP/s";
    const auto best = has_rate ? known(benchmark->best_rate) : std::nullopt;
    const auto median = has_rate ? known(benchmark->median_rate) : std::nullopt;
    html += "<tr>" + tdText(benchmark->name) + td(best ? escapeHtml(formatRate(*best) + unit) : "–", "num") +
            td(median ? escapeHtml(formatRate(*median) + unit) : "–", "num") +
            tdText(std::to_string(benchmark->repetitions), "num");
    const std::string error = benchmark->error.value_or("");
    html += error.empty() ? tdText(benchmarkGeometryText(*benchmark))
                          : td("<span class=\"bad\">" + escapeHtml(error) + "</span>");
    html += "</tr>\n";
  }
  return html + "</tbody>\n</table>\n</section>\n";
}

std::string configSectionHtml(const AnalysedResults& results) {
  std::string html = "<section id=\"config\">\n<h2>Configuration</h2>\n";
  if (!results.config) {
    return html + "<p class=\"muted\">Not recorded.</p>\n</section>\n";
  }
  const BatchConfig& config = *results.config;
  html += "<p>From " + escapeHtml(config.path) + ", as run (command-line overrides applied):</p>\n";
  html += "<pre class=\"config\">" + escapeHtml(configTomlText(config)) + "</pre>\n";
  // The file as given keeps its comments, which say why a study is there.
  if (!config.text.empty()) {
    html += "<details class=\"config-text\"><summary>The file as given</summary><pre class=\"config\">" +
            escapeHtml(config.text) + "</pre></details>\n";
  }
  return html + "</section>\n";
}

}  // namespace rooflab::reports
