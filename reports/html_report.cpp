#include "reports/html_report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/json_file.hpp"
#include "analyzer/results_file.hpp"
#include "reports/html_text.hpp"
#include "reports/known_value.hpp"
#include "reports/number_format.hpp"
#include "reports/record_text.hpp"
#include "reports/results_order.hpp"
#include "reports/roofline_chart.hpp"
#include "reports/svg_chart.hpp"

namespace rooflab::reports {
namespace {

constexpr std::string_view kStyleSheet = R"css(
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0 auto; padding: 1.5em 2em 3em;
       max-width: 1280px; color: #1a1a1a; background: #fff; line-height: 1.4; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #1a1a1a; padding-bottom: 0.2em; margin-top: 2.2em; }
h3 { margin-top: 1.6em; }
nav a { margin-right: 1em; }
.meta { color: #555; }
.banner { background: #fff3cd; border: 1px solid #e0b000; padding: 0.6em 1em; }
figure { margin: 1em 0; }
svg.roofline { width: 100%; height: auto; border: 1px solid #ddd; }
svg.roofline g.point:hover > *, svg.roofline g.point:focus > * { stroke-width: 3; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.group-start td { border-top: 2px solid #666; }
tr.failed td { background: #fde8e8; }
tr.error td, tr.skipped td { background: #f6f6f6; }
.bad { color: #b00020; font-weight: bold; }
.muted { color: #666; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0.2em 0; font-size: 0.92em; }
pre.config { background: #f7f7f7; border: 1px solid #ddd; padding: 0.8em; }
.mutation { border: 1px solid #ccc; border-radius: 4px; padding: 0.5em 1em; margin: 0.8em 0; }
.mutation h4 { margin: 0.2em 0 0.5em; }
.bar-row { display: flex; align-items: center; gap: 0.6em; margin: 0.15em 0; }
.bar-label { width: 11em; }
.bar { flex: 0 0 420px; height: 1.1em; background: #f0f0f0; position: relative; }
.bar > span { position: absolute; left: 0; top: 0; bottom: 0; }
.fill-total { background: #555; }
.fill-memory { background: #0072b2; }
.fill-compute { background: #e69f00; }
.verdict { padding: 0.05em 0.5em; border-radius: 3px; background: #eee; font-weight: normal; white-space: nowrap; }
table.counters td, table.mutants td { white-space: nowrap; }
.verdict-memory-bound { background: #d6eaf8; }
.verdict-compute-bound { background: #fdebd0; }
.verdict-latency-bound { background: #e8daef; }
.verdict-balanced { background: #d5f5e3; }
.verdict-memory-leaning { background: #eaf2f8; }
.verdict-compute-leaning { background: #fef5e7; }
.verdict-overhead-dominated { background: #f2f3f4; }
ul.validation { margin: 0.3em 0; }
details summary { cursor: pointer; }
)css";

std::string escaped(std::string_view text) { return escapeHtml(text); }

std::string td(const std::string& html_content, std::string_view css_class = "") {
  return css_class.empty() ? "<td>" + html_content + "</td>"
                           : "<td class=\"" + std::string(css_class) + "\">" + html_content + "</td>";
}
std::string tdText(std::string_view text, std::string_view css_class = "") { return td(escaped(text), css_class); }
std::string tdNumber(const std::optional<double>& value, std::string (*format)(double)) {
  return td(value ? escaped(format(*value)) : "<span class=\"muted\">–</span>", "num");
}
std::string th(std::string_view text) { return "<th>" + escaped(text) + "</th>"; }

template <class Number>
std::optional<double> asDouble(const std::optional<Number>& value) {
  return value ? std::optional<double>(static_cast<double>(*value)) : std::nullopt;
}

std::string cssToken(std::string_view text) {
  std::string token;
  for (char c : text) token += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '-';
  return token;
}

// A counter value as the results file writes it: counts as integers, other values round-trip.
std::string counterValueText(double value) {
  if (!std::isfinite(value)) return "–";
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {  // 2^53: exact in a double
    return std::to_string(static_cast<std::int64_t>(value));
  }
  return formatRoundTrip(value);
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

// The variants of a family in ladder order, grouped by params: the table's rungs.
struct ParamsGroup {
  std::string params_text;
  std::vector<const RunRecord*> records;
};

std::vector<ParamsGroup> groupByParams(const std::vector<const RunRecord*>& records) {
  std::vector<ParamsGroup> groups;
  for (const RunRecord* record : records) {
    const std::string params = recordParamsText(*record);
    auto group = std::find_if(groups.begin(), groups.end(), [&](const ParamsGroup& g) { return g.params_text == params; });
    if (group == groups.end()) group = groups.insert(groups.end(), ParamsGroup{params, {}});
    group->records.push_back(record);
  }
  return groups;
}

bool familyDoesFloatingPointWork(const std::vector<const RunRecord*>& records) {
  return std::any_of(records.begin(), records.end(),
                     [](const RunRecord* record) { return known(record->work.flops).value_or(0.0) > 0; });
}

class HtmlReport {
 public:
  HtmlReport(const ResultsDocument& results, const ChartStyle& chart_style)
      : results_(results), chart_style_(chart_style), model_keys_(modelKeysInOrder(results)) {}

  std::string render() {
    const std::string device_name = results_.device ? results_.device->name : "unknown device";
    html_ += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html_ += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    html_ += "<title>rooflab report: " + escaped(device_name) + "</title>\n";
    html_ += "<style>" + std::string(kStyleSheet) + "</style>\n</head>\n<body>\n";
    renderHeader(device_name);
    const std::vector<std::string> families = familiesInRunOrder(results_);
    renderNavigation(families);
    for (std::size_t index = 0; index < families.size(); ++index) renderFamily(families[index], index);
    renderDevice();
    renderModels();
    renderMeasuredCeilings();
    renderConfig();
    html_ += "<footer class=\"muted\"><p>Written by " + escaped(toolText()) + " from the results document.</p></footer>\n";
    html_ += "</body>\n</html>\n";
    return std::move(html_);
  }

 private:
  std::string toolText() const { return results_.tool.name + " " + results_.tool.version; }

  void renderHeader(const std::string& device_name) {
    html_ += "<header>\n<h1>rooflab report: " + escaped(device_name) + "</h1>\n<p class=\"meta\">";
    html_ += "Started " + escaped(results_.started_at) + ", finished " + escaped(results_.finished_at.value_or("–")) +
             " · " + escaped(toolText());
    if (const auto& summary = results_.summary) {
      html_ += " · " + std::to_string(summary->points) + " points: " + std::to_string(summary->ok) + " ok, " +
               std::to_string(summary->failed) + " failed, " + std::to_string(summary->verification_failed) +
               " failed verification, " + std::to_string(summary->skipped) + " skipped";
    }
    html_ += "</p>\n";
    if (!results_.input_errors.empty()) {
      html_ += "<div class=\"banner\"><strong>Input errors</strong> (these parts of the batch did not run):<ul>";
      for (const std::string& error : results_.input_errors) html_ += "<li>" + escaped(error) + "</li>";
      html_ += "</ul></div>\n";
    }
    if (results_.status != BatchStatus::complete) {
      html_ += "<p class=\"banner\">This run is <strong>" + escaped(toString(results_.status)) +
               "</strong>: the report shows the records written so far.</p>\n";
    }
    html_ += "</header>\n";
  }

  void renderNavigation(const std::vector<std::string>& families) {
    html_ += "<nav><p>";
    for (std::size_t index = 0; index < families.size(); ++index) {
      html_ += "<a href=\"#family-" + std::to_string(index) + "\">" + escaped(families[index]) + "</a>";
    }
    html_ += "<a href=\"#device\">device</a><a href=\"#models\">models</a><a href=\"#config\">config</a></p></nav>\n";
  }

  void renderFamily(const std::string& family, std::size_t index) {
    const std::vector<const RunRecord*> records = recordsOfFamily(results_, family);
    std::vector<const RunRecord*> normal_records, mutant_records;
    for (const RunRecord* record : records) {
      (record->mode == RunMode::normal ? normal_records : mutant_records).push_back(record);
    }

    html_ += "<section class=\"family\" id=\"family-" + std::to_string(index) + "\">\n<h2>" + escaped(family) + "</h2>\n";
    renderChart(family);
    renderVariantsTable(normal_records);
    if (!mutant_records.empty()) renderMutantsTable(mutant_records, normal_records);
    renderMutations(normal_records);
    renderCounters(records);
    html_ += "</section>\n";
  }

  void renderChart(const std::string& family) {
    const RooflineChart chart = buildRooflineChart(results_, family);
    html_ += "<figure>\n" + renderSvgChart(layoutRooflineChart(chart, chart_style_), family);
    html_ += "<figcaption class=\"muted\">Normal-mode variants at (FLOP per DRAM byte, achieved GFLOP/s). "
             "Solid: the device that ran; dashed: the reference model; dotted: local-memory roofs. "
             "Hover a point for its details.";
    if (!chart.unplaced.empty()) {
      html_ += " Not on the chart:<ul class=\"unplaced\">";
      for (const UnplacedRecord& unplaced : chart.unplaced) {
        html_ += "<li>" + escaped(unplaced.variant) + " " + escaped(unplaced.params_text) + ": " +
                 escaped(unplaced.reason) + "</li>";
      }
      html_ += "</ul>";
    }
    html_ += "</figcaption>\n</figure>\n";
  }

  // The course's table: each row a rung of the optimisation ladder for one problem size.
  void renderVariantsTable(const std::vector<const RunRecord*>& records) {
    html_ += "<h3>Variants</h3>\n";
    if (records.empty()) {
      html_ += "<p class=\"muted\">No normal-mode record.</p>\n";
      return;
    }
    const bool rate_is_flops = familyDoesFloatingPointWork(records);
    const bool has_mutation =
        std::any_of(records.begin(), records.end(), [](const RunRecord* r) { return r->mutation.has_value(); });
    std::string header = th("Variant") + th("Params") + th("Time (median)") + th(rate_is_flops ? "GFLOP/s" : "GB/s") +
                         th("Step") + th("Gain") + th("Verification") + th("Bound (roofline, device)");
    for (const std::string& key : model_keys_) header += th("% of roof: " + modelShortName(results_, key));
    if (has_mutation) header += th("Mutation verdict");
    const std::size_t columns_after_params = 6 + model_keys_.size() + (has_mutation ? 1 : 0);
    html_ += "<table class=\"variants\">\n<thead><tr>" + header + "</tr></thead>\n<tbody>\n";

    for (const ParamsGroup& group : groupByParams(records)) {
      std::optional<double> first_ns, previous_ns;
      bool first_row = true;
      for (const RunRecord* record : group.records) {
        const std::string row_class = std::string(first_row ? "group-start " : "") + rowClass(*record);
        first_row = false;
        html_ += "<tr class=\"" + row_class + "\">" + tdText(record->variant) + tdText(group.params_text);
        if (record->status != RecordStatus::ok) {
          html_ += "<td colspan=\"" + std::to_string(columns_after_params) + "\">" + statusHtml(*record) + "</td></tr>\n";
          continue;
        }
        const auto median_ns = record->medianKernelNs();
        html_ += tdNumber(median_ns, &formatDurationNs);
        html_ += tdNumber(rate_is_flops ? record->achievedGflops() : record->achievedGbps(), &formatRate);
        // Step: over the previous rung that has a time; gain: over the first rung (the baseline).
        html_ += tdNumber(previous_ns && median_ns ? std::optional<double>(*previous_ns / *median_ns) : std::nullopt,
                          &formatSpeedup);
        html_ += tdNumber(first_ns && median_ns ? std::optional<double>(*first_ns / *median_ns) : std::nullopt,
                          &formatSpeedup);
        if (median_ns) {
          if (!first_ns) first_ns = median_ns;
          previous_ns = median_ns;
        }
        html_ += td(escaped(verificationText(*record)), record->verification.status == "failed" ? "bad" : "");
        html_ += tdText(boundOn(*record, "device"));
        for (const std::string& key : model_keys_) {
          const RooflinePlacement* placement = placementOn(*record, key);
          html_ += tdNumber(placement != nullptr ? known(placement->fraction_of_roof) : std::nullopt, &formatPercent);
        }
        if (has_mutation) {
          html_ += record->mutation ? verdictHtml(toString(record->mutation->verdict)) : td("–", "muted");
        }
        html_ += "</tr>\n";
      }
    }
    html_ += "</tbody>\n</table>\n";
  }

  void renderMutantsTable(const std::vector<const RunRecord*>& mutants,
                          const std::vector<const RunRecord*>& normal_records) {
    html_ += "<h3>Mutants</h3>\n<p class=\"muted\">compute-only keeps the arithmetic and fakes the loads; "
             "memory-only keeps the traffic and drops the arithmetic. Their time against the original's says "
             "what bounds it.</p>\n";
    html_ += "<table class=\"mutants\">\n<thead><tr>" + th("Variant") + th("Params") + th("Mode") + th("Time (median)") +
             th("vs. original") + th("GFLOP/s") + th("GB/s") + th("Status") + "</tr></thead>\n<tbody>\n";
    for (const RunRecord* record : mutants) {
      html_ += "<tr class=\"" + rowClass(*record) + "\">" + tdText(record->variant) + tdText(recordParamsText(*record)) +
               tdText(modeName(record->mode));
      if (record->status != RecordStatus::ok) {
        html_ += "<td colspan=\"5\">" + statusHtml(*record) + "</td></tr>\n";
        continue;
      }
      const auto median_ns = record->medianKernelNs();
      const auto original_ns = originalMedianNs(*record, normal_records);
      html_ += tdNumber(median_ns, &formatDurationNs);
      html_ += tdNumber(median_ns && original_ns ? std::optional<double>(*median_ns / *original_ns) : std::nullopt,
                        &formatPercent);
      html_ += tdNumber(record->achievedGflops(), &formatRate) + tdNumber(record->achievedGbps(), &formatRate);
      html_ += tdText(toString(record->status)) + "</tr>\n";
    }
    html_ += "</tbody>\n</table>\n";
  }

  void renderMutations(const std::vector<const RunRecord*>& records) {
    std::vector<const RunRecord*> with_mutation;
    for (const RunRecord* record : records) {
      if (record->mutation) with_mutation.push_back(record);
    }
    if (with_mutation.empty()) return;
    html_ += "<h3>What bounds each variant</h3>\n";
    for (const RunRecord* record : with_mutation) renderMutation(*record, *record->mutation);
  }

  void renderMutation(const RunRecord& record, const MutationVerdict& mutation) {
    const std::string verdict = toString(mutation.verdict);
    html_ += "<div class=\"mutation\">\n<h4>" + escaped(record.variant) + " <span class=\"muted\">" +
             escaped(recordParamsText(record)) + "</span> <span class=\"verdict verdict-" + cssToken(verdict) + "\">" +
             escaped(verdict) + "</span></h4>\n";
    const auto t_ns = known(mutation.t_ns);
    const auto t_mem_ns = known(mutation.t_mem_ns);
    const auto t_comp_ns = known(mutation.t_comp_ns);
    const double longest_ns = std::max({t_ns.value_or(0.0), t_mem_ns.value_or(0.0), t_comp_ns.value_or(0.0)});
    renderBar("t (original)", t_ns, longest_ns, "fill-total");
    renderBar("t_mem (memory-only)", t_mem_ns, longest_ns, "fill-memory");
    renderBar("t_comp (compute-only)", t_comp_ns, longest_ns, "fill-compute");

    std::vector<std::string> impact;
    if (const auto speedup = known(mutation.speedup_if_memory_free)) {
      impact.push_back("if memory traffic were free: up to " + formatSpeedup(*speedup) + " faster");
    }
    if (const auto speedup = known(mutation.speedup_if_compute_free)) {
      impact.push_back("if arithmetic were free: up to " + formatSpeedup(*speedup) + " faster");
    }
    if (!impact.empty()) {
      html_ += "<p class=\"impact\">";
      for (std::size_t i = 0; i < impact.size(); ++i) html_ += (i ? "; " : "") + escaped(impact[i]);
      html_ += "</p>\n";
    }
    // The margins the results file records, by their names there (alphabetically).
    const VerdictMargins& margins = mutation.margins;
    const std::pair<const char*, double> margin_values[] = {{"counter_tolerance", margins.counter_tolerance},
                                                            {"min_kernel_ns", margins.min_kernel_ns},
                                                            {"near", margins.near},
                                                            {"sum_tolerance", margins.sum_tolerance}};
    html_ += "<p class=\"margins muted\">Margins: ";
    bool first = true;
    for (const auto& [name, value] : margin_values) {
      html_ += (first ? "" : " · ") + escaped(name) + " " + escaped(formatRoundTrip(value));
      first = false;
    }
    html_ += "</p>\n";
    const std::pair<const char*, const std::optional<MutantValidation>*> validations[] = {
        {"compute-only", &mutation.validation.compute_only}, {"memory-only", &mutation.validation.memory_only}};
    if (mutation.validation.compute_only || mutation.validation.memory_only) {
      html_ += "<ul class=\"validation\">";
      for (const auto& [mode, check] : validations) {
        if (*check) html_ += "<li>" + escaped(validationText(mode, **check)) + "</li>";
      }
      html_ += "</ul>\n";
    }
    if (!mutation.notes.empty()) {
      html_ += "<ul class=\"notes\">";
      for (const std::string& note : mutation.notes) html_ += "<li>" + escaped(note) + "</li>";
      html_ += "</ul>\n";
    }
    html_ += "</div>\n";
  }

  void renderBar(std::string_view label, const std::optional<double>& value_ns, double longest_ns,
                 std::string_view fill_class) {
    html_ += "<div class=\"bar-row\"><span class=\"bar-label\">" + escaped(label) + "</span><span class=\"bar\">";
    if (value_ns && longest_ns > 0) {
      html_ += "<span class=\"" + std::string(fill_class) + "\" style=\"width:" +
               formatFixed(*value_ns / longest_ns * 100.0, 1) + "%\"></span>";
    }
    html_ += "</span><span class=\"bar-value\">" +
             (value_ns ? escaped(formatDurationNs(*value_ns)) : std::string("<span class=\"muted\">not measured</span>")) +
             "</span></div>\n";
  }

  void renderCounters(const std::vector<const RunRecord*>& records) {
    html_ += "<h3>Hardware counters</h3>\n";
    std::vector<const RunRecord*> available;
    std::vector<std::pair<std::string, std::vector<const RunRecord*>>> unavailable_by_reason;
    for (const RunRecord* record : records) {
      if (record->counters.available) {
        available.push_back(record);
        continue;
      }
      const std::string& reason = record->counters.reason;
      auto entry = std::find_if(unavailable_by_reason.begin(), unavailable_by_reason.end(),
                                [&](const auto& e) { return e.first == reason; });
      if (entry == unavailable_by_reason.end()) entry = unavailable_by_reason.insert(entry, {reason, {}});
      entry->second.push_back(record);
    }
    if (!available.empty()) renderCountersTable(available);
    for (const auto& [reason, without] : unavailable_by_reason) {
      html_ += "<p class=\"counters-unavailable\">Counters unavailable";
      if (without.size() != records.size()) {
        html_ += " for ";
        for (std::size_t i = 0; i < without.size(); ++i) {
          html_ += (i ? ", " : "") + escaped(without[i]->variant + " " + modeName(without[i]->mode) + " " +
                                             recordParamsText(*without[i]));
        }
      }
      html_ += ": " + escaped(reason) + "</p>\n";
    }
  }

  void renderCountersTable(const std::vector<const RunRecord*>& records) {
    html_ += "<table class=\"counters\">\n<thead><tr>" + th("Variant") + th("Params") + th("Mode") +
             th("FP32 FLOPs (counted)") + th("FLOPs (analytic)") + th("DRAM read") + th("DRAM write") +
             th("DRAM bytes vs. analytic") + th("Bridged kernel time") + th("Raw metrics") + "</tr></thead>\n<tbody>\n";
    for (const RunRecord* record : records) {
      const counters::CounterSet& counters = record->counters;
      // A set the bridge was never asked for holds no metric, whatever its flag says.
      auto derived = [&](const char* name) -> std::optional<double> {
        const auto found = counters.derived.find(name);
        if (counters.not_attempted || found == counters.derived.end()) return std::nullopt;
        return known(found->second);
      };
      const auto read_bytes = derived("dram_bytes_read");
      const auto write_bytes = derived("dram_bytes_write");
      const auto analytic_bytes = known(record->work.bytes);
      std::optional<double> traffic_ratio;
      if (read_bytes && write_bytes && analytic_bytes && *analytic_bytes > 0) {
        traffic_ratio = (*read_bytes + *write_bytes) / *analytic_bytes;
      }
      const std::optional<double> bridged_ns = counters.not_attempted ? std::nullopt : asDouble(counters.bridged_kernel_ns);
      html_ += "<tr>" + tdText(record->variant) + tdText(recordParamsText(*record)) + tdText(modeName(record->mode)) +
               tdNumber(derived("fp32_flops"), &formatCount) + tdNumber(known(record->work.flops), &formatCount) +
               tdNumber(read_bytes, &formatBytes) + tdNumber(write_bytes, &formatBytes) +
               tdNumber(traffic_ratio, &formatPercent) + tdNumber(bridged_ns, &formatDurationNs);
      html_ += "<td>";
      if (!counters.not_attempted) {
        html_ += "<details><summary>" + std::to_string(counters.values.size()) + " metrics</summary><table>";
        for (const auto& [metric, value] : counters.values) {
          html_ += "<tr>" + tdText(metric) + td(escaped(counterValueText(value)), "num") + "</tr>";
        }
        html_ += "</table></details>";
      }
      html_ += "</td></tr>\n";
    }
    html_ += "</tbody>\n</table>\n";
  }

  void renderDevice() {
    html_ += "<section id=\"device\">\n<h2>Device</h2>\n";
    if (!results_.device) {
      html_ += "<p class=\"muted\">Not recorded.</p>\n</section>\n";
      return;
    }
    html_ += "<table class=\"device\">\n<tbody>\n";
    for (const auto& [key, text] : deviceFields(*results_.device)) html_ += "<tr>" + th(key) + tdText(text) + "</tr>\n";
    html_ += "</tbody>\n</table>\n</section>\n";
  }

  void renderModels() {
    html_ += "<section id=\"models\">\n<h2>Roofline models</h2>\n";
    if (model_keys_.empty()) {
      html_ += "<p class=\"muted\">No model recorded.</p>\n</section>\n";
      return;
    }
    html_ += "<table class=\"models\">\n<thead><tr>" + th("Key") + th("Role") + th("Model") + th("Peak FP32 GFLOP/s") +
             th("DRAM GB/s") + th("Ridge FLOP/byte") + th("Local GB/s") + th("Local memory") + th("Compute units") +
             th("Clock MHz") + th("Sources") + "</tr></thead>\n<tbody>\n";
    for (const std::string& key : model_keys_) {
      const DeviceModel& model = results_.models.roofline_models.at(key).model;
      const double peak = model.peak_gflops, dram = model.dram_gbps;
      html_ += "<tr>" + tdText(key) + tdText(modelRoleText(results_, key)) + tdText(model.display_name) +
               tdNumber(peak, &formatRate) + tdNumber(dram, &formatRate) +
               tdNumber(dram > 0 ? std::optional<double>(peak / dram) : std::nullopt, &formatRate) +
               tdNumber(model.local_gbps, &formatRate) + tdNumber(asDouble(model.local_mem_bytes), &formatBytes) +
               tdNumber(asDouble(model.compute_units), &formatRoundTrip) +
               tdNumber(asDouble(model.clock_mhz), &formatRoundTrip);
      html_ += "<td>";
      for (const auto& [field, source] : model.sources) html_ += escaped(field) + ": " + escaped(source) + "<br>";
      html_ += "</td></tr>\n";
    }
    html_ += "</tbody>\n</table>\n</section>\n";
  }

  // The benchmarks `rooflab ceilings` ran at the start of the batch: where the device model's
  // numbers come from.
  void renderMeasuredCeilings() {
    if (!results_.models.ceilings) return;
    const CeilingsReport& ceilings = *results_.models.ceilings;
    html_ += "<section id=\"ceilings\">\n<h3>Measured ceilings</h3>\n<p class=\"muted\">Measured at " +
             escaped(ceilings.measured_at) + "; the device model takes the best of the repetitions.</p>\n";
    html_ += "<table class=\"ceilings\">\n<thead><tr>" + th("Benchmark") + th("Best") + th("Median") + th("Repetitions") +
             th("Geometry") + "</tr></thead>\n<tbody>\n";
    for (const CeilingBenchmark* benchmark : ceilings.benchmarks()) {
      // A FLOP-rate benchmark without a result shows no rate at all: its unit was never measured.
      const bool is_bandwidth = benchmark->unit == "GB/s";
      const bool has_rate = is_bandwidth || known(benchmark->best_rate);
      const std::string unit = is_bandwidth ? " GB/s" : " GFLOP/s";
      const auto best = has_rate ? known(benchmark->best_rate) : std::nullopt;
      const auto median = has_rate ? known(benchmark->median_rate) : std::nullopt;
      html_ += "<tr>" + tdText(benchmark->name) + td(best ? escaped(formatRate(*best) + unit) : "–", "num") +
               td(median ? escaped(formatRate(*median) + unit) : "–", "num") +
               tdText(std::to_string(benchmark->repetitions), "num");
      const std::string error = benchmark->error.value_or("");
      html_ += error.empty() ? tdText(benchmark->geometry) : td("<span class=\"bad\">" + escaped(error) + "</span>");
      html_ += "</tr>\n";
    }
    html_ += "</tbody>\n</table>\n</section>\n";
  }

  void renderConfig() {
    html_ += "<section id=\"config\">\n<h2>Configuration</h2>\n";
    if (!results_.config) {
      html_ += "<p class=\"muted\">Not recorded.</p>\n</section>\n";
      return;
    }
    html_ += "<p>From " + escaped(results_.config->path) + "</p>\n";
    html_ += "<pre class=\"config\">" + escaped(configEchoText(*results_.config)) + "</pre>\n</section>\n";
  }

  // "memory-only mutant: global memory sectors (load + store) 1.57 M vs 1.57 M (counters): valid".
  static std::string validationText(const std::string& mode, const MutantValidation& check) {
    std::string text = mode + " mutant";
    if (!check.quantity.empty()) text += ": " + check.quantity;
    const auto original = known(check.original);
    const auto mutant = known(check.mutant);
    if (original && mutant) text += " " + formatCount(*original) + " (original) vs " + formatCount(*mutant) + " (mutant)";
    text += std::string(", checked by ") +
            (check.by == MutantValidation::Method::counters ? "counters" : "construction");
    text += check.valid ? ": valid" : ": NOT valid, its time is not used";
    if (check.note && !check.note->empty()) text += " (" + *check.note + ")";
    return text;
  }

  static std::string rowClass(const RunRecord& record) {
    if (record.status != RecordStatus::ok) return cssToken(toString(record.status));
    if (record.verification.status == "failed") return "failed";
    return "ok";
  }

  // "error: <message>" for a record that did not run, with its whole text (build logs included).
  static std::string statusHtml(const RunRecord& record) {
    const std::string status = toString(record.status);
    std::string html = "<span class=\"" + std::string(record.status == RecordStatus::error ? "bad" : "muted") + "\">" +
                       escaped(status) + "</span>";
    if (!record.status_reason.empty()) html += "<pre class=\"error-text\">" + escaped(record.status_reason) + "</pre>";
    return html;
  }

  static std::string verdictHtml(const std::string& verdict) {
    return "<td><span class=\"verdict verdict-" + cssToken(verdict) + "\">" + escaped(verdict) + "</span></td>";
  }

  std::string boundOn(const RunRecord& record, const std::string& key) const {
    const RooflinePlacement* placement = placementOn(record, key);
    if (placement == nullptr) placement = model_keys_.empty() ? nullptr : placementOn(record, model_keys_.front());
    return placement != nullptr ? toString(placement->bound) : "unknown";
  }

  // The normal-mode run of the same variant and params, which a mutant is compared with.
  static std::optional<double> originalMedianNs(const RunRecord& mutant,
                                                const std::vector<const RunRecord*>& normal_records) {
    for (const RunRecord* record : normal_records) {
      if (record->variant == mutant.variant && recordParamsText(*record) == recordParamsText(mutant)) {
        return record->medianKernelNs();
      }
    }
    return std::nullopt;
  }

  const ResultsDocument& results_;
  const ChartStyle& chart_style_;
  std::vector<std::string> model_keys_;
  std::string html_;
};

}  // namespace

std::string renderHtmlReport(const ResultsDocument& results, const ChartStyle& chart_style) {
  return HtmlReport(results, chart_style).render();
}

void writeHtmlReport(const ResultsDocument& results, const std::filesystem::path& file) {
  writeFileAtomically(file, renderHtmlReport(results));
}

}  // namespace rooflab::reports
