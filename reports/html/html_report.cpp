#include "reports/html/html_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzer/support/atomic_file.hpp"
#include "reports/html/html_chart_controls.hpp"
#include "reports/html/html_charts.hpp"
#include "reports/html/html_devices.hpp"
#include "reports/html/html_diagnosis.hpp"
#include "reports/html/html_mutation.hpp"
#include "reports/html/html_how_to_read.hpp"
#include "reports/html/html_readings.hpp"
#include "reports/html/html_end_to_end.hpp"
#include "reports/html/html_capture_timeline.hpp"
#include "reports/html/html_run_sections.hpp"
#include "reports/html/html_sizes.hpp"
#include "reports/html/html_source_view.hpp"
#include "reports/html/html_tuning.hpp"
#include "reports/html/html_text.hpp"
#include "reports/text/device_comparison.hpp"
#include "reports/text/host_sentences.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/part_text.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"
#include "reports/text/roofline_sentences.hpp"
#include "reports/chart/roofline_chart.hpp"
#include "reports/html/svg_chart.hpp"
#include "reports/html/html_style.hpp"

namespace rooflab::reports {
namespace {

std::string escaped(std::string_view text) { return escapeHtml(text); }

// A counter value as the results file writes it: counts as integers, other values round-trip.
std::string counterValueText(double value) {
  if (!std::isfinite(value)) return "–";
  if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0) {  // 2^53: exact in a double
    return std::to_string(static_cast<std::int64_t>(value));
  }
  return formatRoundTrip(value);
}

// The variants of a family in ladder order, grouped by params: the table's rungs.
struct ParamsGroup {
  std::string params_text;
  std::vector<const AnalysedRecord*> records;
};

std::vector<ParamsGroup> groupByParams(const std::vector<const AnalysedRecord*>& records) {
  std::vector<ParamsGroup> groups;
  for (const AnalysedRecord* record : records) {
    const std::string params = recordParamsText(*record);
    auto group =
        std::find_if(groups.begin(), groups.end(), [&](const ParamsGroup& g) { return g.params_text == params; });
    if (group == groups.end()) group = groups.insert(groups.end(), ParamsGroup{params, {}});
    group->records.push_back(record);
  }
  return groups;
}

bool familyDoesFloatingPointWork(const std::vector<const AnalysedRecord*>& records) {
  return std::any_of(records.begin(), records.end(),
                     [](const AnalysedRecord* record) { return known(record->work.flops).value_or(0.0) > 0; });
}

class HtmlReport {
 public:
  HtmlReport(const AnalysedResults& results, const ChartStyle& chart_style, const ChartOptions& chart_options)
      : results_(results),
        chart_style_(chart_style),
        chart_options_(chart_options),
        model_keys_(modelKeysInOrder(results)),
        reading_guide_(readingGuideOf(results)) {}

  std::string render() {
    std::string device_name = results_.device ? results_.device->name : "unknown device";
    if (comparesDevices(results_)) device_name = comparedDevicesTitle(results_);
    html_ += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    html_ += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    html_ += "<title>rooflab report: " + escaped(device_name) + "</title>\n";
    html_ += "<style>" + std::string(reportStyleSheet()) +
             std::string(needsSourceViewStyle(results_) ? sourceViewStyleSheet() : "") + "</style>\n</head>\n<body>\n";
    renderHeader(device_name);
    if (comparesDevices(results_)) {
      // Each device's part reads as a run of its own, after the table that sets them side by side.
      html_ += devicesComparedHtml(results_, chart_style_, chart_options_) + configSectionHtml(results_);
    } else {
      renderNavigation(familiesInRunOrder(results_));
      html_ += renderBody() + configSectionHtml(results_);
    }
    html_ +=
        "<footer class=\"muted\"><p>Written by " + escaped(toolText()) + " from the results document.</p></footer>\n";
    html_ += chartScriptHtml();
    html_ += "</body>\n</html>\n";
    return std::move(html_);
  }

  // The families, then the device, its models and its ceilings: a device's part of the page.
  std::string renderBody() {
    std::string page;
    page.swap(html_);  // the sections render into html_: the body is what they add
    const std::vector<std::string> families = familiesInRunOrder(results_);
    html_ += readingSectionHtml(reading_guide_) + captureTimelineSectionHtml(results_, chart_style_);
    for (std::size_t index = 0; index < families.size(); ++index) renderFamily(families[index], index);
    html_ += profilerReadingsLegendHtml(results_) + deviceSectionHtml(results_) + modelsSectionHtml(results_) +
             measuredCeilingsHtml(results_) + linkCeilingsHtml(results_);
    page.swap(html_);
    return page;
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
    if (results_.noisy_host) {
      html_ += "<p class=\"banner\">This batch ran on a <strong>noisy host</strong>: " +
               escaped(hostNoiseText(*results_.noisy_host)) +
               ". Its timings may differ from a quiet run's more than their intervals say.</p>\n";
    }
    if (results_.host && results_.host->gpu_sm_clock) {
      const GpuClockSamples& clock = *results_.host->gpu_sm_clock;
      html_ += "<p class=\"meta\">GPU SM clock during the run: " + escaped(formatRate(clock.min_mhz)) + "–" +
               escaped(formatRate(clock.max_mhz)) + " MHz (" + std::to_string(clock.count) + " samples).</p>\n";
    }
    renderNoiseNote();
    // A part, or a merge of parts: which, and what is missing, before any figure is read as the whole batch.
    if (const std::string part = batchPartText(results_); !part.empty())
      html_ += "<p class=\"banner\">This report shows " + escaped(part) + ".</p>\n";
    if (results_.status != BatchStatus::complete) {
      html_ += "<p class=\"banner\">This run is <strong>" + escaped(toString(results_.status)) +
               "</strong>: the report shows the records written so far.</p>\n";
    }
    html_ += "</header>\n";
  }

  // Once per report, for runs measured to a noise target: what the ± and the "noisy" marks mean.
  void renderNoiseNote() {
    std::size_t measured = 0, missed = 0;
    for (const AnalysedRecord& record : results_.records) {
      if (!record.timings || !record.timings->kernel_ns_interval) continue;
      ++measured;
      if (missedNoiseTarget(record)) ++missed;
    }
    if (measured == 0) return;
    std::string target = "the run's noise target";
    if (results_.config && results_.config->run.noise_target_known) {
      const RunSettings& run = results_.config->run;
      target = "the noise target (±" + formatPercent(run.max_noise) + " within " +
               formatSignificant(run.max_time_s, 3) + " s)";
    }
    html_ += "<p class=\"meta\">Times are medians; ± is the half-width of the median's 95% confidence interval. "
             "On the charts, a thick bar shows that interval and a dotted line the fastest to the slowest run. ";
    html_ += missed == 0 ? "Every record met " + escaped(target) + ".</p>\n"
                         : std::to_string(missed) + " of " + std::to_string(measured) + " records did not meet " +
                               escaped(target) +
                               ": marked <span class=\"bad\">noisy</span> in the tables and hollow on the charts; "
                               "their medians are less certain than the others'.</p>\n";
  }

  // A rung's speedup; under 1x it is a slowdown, "no gain", with the ratio on a second line to keep
  // the column narrow.
  static std::string gainCell(const std::optional<double>& speedup) {
    if (!speedup || *speedup >= 1.0) return tdNumber(speedup, &formatSpeedup);
    return td("no gain<br><span class=\"muted\">" + escaped(formatSpeedup(*speedup)) + "</span>", "num");
  }

  // The median time, with its interval's half-width and a mark when it missed the noise target.
  static std::string medianTimeCell(const AnalysedRecord& record, const std::optional<double>& median_ns) {
    if (!median_ns || !record.timings || !record.timings->kernel_ns_interval)
      return tdNumber(median_ns, &formatDurationNs);
    const KernelTimeInterval& interval = *record.timings->kernel_ns_interval;
    std::string cell = "<span title=\"" + escaped(noiseText(record)) + "\">" + escaped(formatDurationNs(*median_ns));
    if (interval.noise) cell += " <span class=\"muted\">±" + escaped(formatPercent(*interval.noise)) + "</span>";
    if (!interval.converged) cell += " <span class=\"bad\">noisy</span>";
    return td(cell + "</span>", "num");
  }

  void renderNavigation(const std::vector<std::string>& families) {
    html_ += "<nav><p>";
    if (reading_guide_.has_mutants || reading_guide_.has_mutations)
      html_ += "<a href=\"#how-to-read\">how to read this</a>";
    if (results_.capture_timeline) html_ += "<a href=\"#capture-timeline\">timeline</a>";
    for (std::size_t index = 0; index < families.size(); ++index) {
      html_ += "<a href=\"#family-" + std::to_string(index) + "\">" + escaped(families[index]) + "</a>";
    }
    html_ += "<a href=\"#device\">device</a><a href=\"#models\">models</a><a href=\"#config\">config</a></p></nav>\n";
  }

  void renderFamily(const std::string& family, std::size_t index) {
    const std::vector<const AnalysedRecord*> records = recordsOfFamily(results_, family);
    std::vector<const AnalysedRecord*> normal_records, mutant_records, what_if_records;
    for (const AnalysedRecord* record : records) {
      (record->mode == RunMode::normal    ? normal_records
       : record->mode == RunMode::what_if ? what_if_records
                                          : mutant_records)
          .push_back(record);
    }

    html_ +=
        "<section class=\"family\" id=\"family-" + std::to_string(index) + "\">\n<h2>" + escaped(family) + "</h2>\n";
    html_ += sizeChoicesHtml(results_, family);
    renderChart(family);
    html_ += rateVsSizeHtml(results_, family, chart_style_);
    renderVariantsTable(normal_records);
    html_ += tuningSectionHtml(results_, family, chart_style_);
    if (!mutant_records.empty()) renderMutantsTable(mutant_records, normal_records);
    renderMutations(normal_records);
    html_ += sourceViewSectionHtml(normal_records, mutant_records);
    html_ += profilerReadingsTableHtml(normal_records) + endToEndSectionHtml(normal_records);
    if (!what_if_records.empty()) html_ += whatIfSectionHtml(what_if_records);
    renderCounters(records);
    html_ += "</section>\n";
  }

  void renderChart(const std::string& family) {
    html_ += familyChartsHtml(results_, family, chart_style_, chart_options_);
  }

  // The course's table: each row a rung of the optimisation ladder for one problem size.
  void renderVariantsTable(const std::vector<const AnalysedRecord*>& records) {
    html_ += "<h3>Variants</h3>\n";
    if (records.empty()) {
      html_ += "<p class=\"muted\">No normal-mode record.</p>\n";
      return;
    }
    const bool rate_is_flops = familyDoesFloatingPointWork(records);
    // One bound column: the diagnosis, which weighs the roofline, the mutants and the counters.
    std::string header = th("Variant") + th("Params") + th("Time (median)") + th(rate_is_flops ? "GFLOP/s" : "GB/s") +
                         th("Step") + th("Gain") + th("Verification") + th("Diagnosis");
    for (const std::string& key : model_keys_) header += th("% of roof: " + modelShortName(results_, key));
    const std::size_t columns_after_params = 6 + model_keys_.size();
    html_ += "<table class=\"variants\">\n<thead><tr>" + header + "</tr></thead>\n<tbody>\n";

    for (const ParamsGroup& group : groupByParams(records)) {
      std::optional<double> first_ns, previous_ns;
      bool first_row = true;
      for (const AnalysedRecord* record : group.records) {
        const std::string row_class = std::string(first_row ? "group-start " : "") + rowClass(*record);
        first_row = false;
        html_ += "<tr class=\"" + row_class + "\">" + tdText(record->variant) + tdText(group.params_text);
        if (record->status != RecordStatus::ok) {
          html_ +=
              "<td colspan=\"" + std::to_string(columns_after_params) + "\">" + statusHtml(*record) + "</td></tr>\n";
          continue;
        }
        const auto median_ns = record->medianKernelNs();
        html_ += medianTimeCell(*record, median_ns);
        html_ += tdNumber(rate_is_flops ? record->achievedGflops() : record->achievedGbps(), &formatRate);
        // Step: over the previous rung that has a time; gain: over the first rung (the baseline).
        html_ += gainCell(previous_ns && median_ns ? std::optional<double>(*previous_ns / *median_ns) : std::nullopt);
        html_ += gainCell(first_ns && median_ns ? std::optional<double>(*first_ns / *median_ns) : std::nullopt);
        if (median_ns) {
          if (!first_ns) first_ns = median_ns;
          previous_ns = median_ns;
        }
        html_ += td(escaped(verificationText(*record)),
                    record->verification.status == VerificationStatus::failed ? "bad" : "");
        html_ += diagnosisCellHtml(*record);
        for (const std::string& key : model_keys_) {
          const RooflinePlacement* placement = placementOn(*record, key);
          if (placement != nullptr && placement->unplaced) {  // no position: say why, not a dash
            html_ += td(escaped("unplaced: " + toString(*placement->unplaced)), "muted");
            continue;
          }
          if (placement != nullptr && placement->above_roof && known(placement->fraction_of_roof)) {
            html_ += "<td class=\"num above-roof\" title=\"" + escaped(aboveRoofText(*placement->above_roof)) + "\">" +
                     escaped(formatPercent(*known(placement->fraction_of_roof))) + " ⚠</td>";
            continue;
          }
          html_ += tdNumber(placement != nullptr ? known(placement->fraction_of_roof) : std::nullopt, &formatPercent);
        }
        html_ += "</tr>\n";
      }
    }
    html_ += "</tbody>\n</table>\n";
  }

  void renderMutantsTable(const std::vector<const AnalysedRecord*>& mutants,
                          const std::vector<const AnalysedRecord*>& normal_records) {
    // What they are is in "How to read this"; their figures, one row per run, are folded: the cards
    // below read them.
    html_ += "<h3>Mutants</h3>\n<details class=\"mutants\"><summary>" + std::to_string(mutants.size()) +
             " compute-only and memory-only runs: time against the original's, rates, status</summary>\n";
    html_ += "<table class=\"mutants\">\n<thead><tr>" + th("Variant") + th("Params") + th("Mode") +
             th("Time (median)") + th("vs. original") + th("GFLOP/s") + th("GB/s") + th("Status") +
             "</tr></thead>\n<tbody>\n";
    for (const AnalysedRecord* record : mutants) {
      html_ += "<tr class=\"" + rowClass(*record) + "\">" + tdText(record->variant) +
               tdText(recordParamsText(*record)) + tdText(modeName(record->mode));
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
    html_ += "</tbody>\n</table>\n</details>\n";
  }

  void renderMutations(const std::vector<const AnalysedRecord*>& records) {
    std::vector<const AnalysedRecord*> with_mutation;
    for (const AnalysedRecord* record : records) {
      if (record->mutation) with_mutation.push_back(record);
    }
    if (with_mutation.empty()) return;
    html_ += "<h3>The mutants' evidence</h3>\n";
    for (const AnalysedRecord* record : with_mutation)
      html_ += mutationCardHtml(*record, *record->mutation, reading_guide_);
  }

  void renderCounters(const std::vector<const AnalysedRecord*>& records) {
    html_ += "<h3>Hardware counters</h3>\n";
    std::vector<const AnalysedRecord*> available;
    std::vector<std::pair<std::string, std::vector<const AnalysedRecord*>>> unavailable_by_reason;
    for (const AnalysedRecord* record : records) {
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

  void renderCountersTable(const std::vector<const AnalysedRecord*>& records) {
    html_ += "<details class=\"counters\"><summary>" + std::to_string(records.size()) +
             " runs with counters: FLOPs and DRAM bytes counted against the analytic ones, raw metrics</summary>\n";
    // Integer work counted beside the manifest's, as FLOPs are, where the counters counted it.
    const bool integer_ops = std::any_of(records.begin(), records.end(), [](const AnalysedRecord* r) {
      return !r->counters.not_attempted && r->counters.derived.count("integer_ops") != 0;
    });
    html_ += "<table class=\"counters\">\n<thead><tr>" + th("Variant") + th("Params") + th("Mode") +
             th("FP32 FLOPs (counted)") + th("FLOPs (analytic)") + (integer_ops ? th("Integer ops (counted)") : "") +
             th("DRAM read") + th("DRAM write") + th("DRAM bytes vs. analytic") + th("Bridged kernel time") +
             th("Raw metrics") + "</tr></thead>\n<tbody>\n";
    for (const AnalysedRecord* record : records) {
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
      std::optional<double> bridged_ns;
      if (!counters.not_attempted && counters.bridged_kernel_ns)
        bridged_ns = static_cast<double>(*counters.bridged_kernel_ns);
      html_ += "<tr>" + tdText(record->variant) + tdText(recordParamsText(*record)) + tdText(modeName(record->mode)) +
               tdNumber(derived("fp32_flops"), &formatCount) + tdNumber(known(record->work.flops), &formatCount) +
               (integer_ops ? tdNumber(derived("integer_ops"), &formatCount) : "") +
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
    html_ += "</tbody>\n</table>\n</details>\n";
  }

  static std::string rowClass(const AnalysedRecord& record) {
    if (record.status != RecordStatus::ok) return cssToken(toString(record.status));
    if (record.verification.status == VerificationStatus::failed) return "failed";
    return "ok";
  }

  // "error: <message>" for a record that did not run, with its whole text (build logs included).
  static std::string statusHtml(const AnalysedRecord& record) {
    const std::string status = toString(record.status);
    std::string html =
        "<span class=\"" + std::string(isFault(record.status) ? "bad" : "muted") + "\">" + escaped(status) + "</span>";
    if (!record.status_reason.empty()) html += "<pre class=\"error-text\">" + escaped(record.status_reason) + "</pre>";
    return html;
  }

  // The normal-mode run of the same variant and params, which a mutant is compared with.
  static std::optional<double> originalMedianNs(const AnalysedRecord& mutant,
                                                const std::vector<const AnalysedRecord*>& normal_records) {
    for (const AnalysedRecord* record : normal_records) {
      if (record->variant == mutant.variant && recordParamsText(*record) == recordParamsText(mutant)) {
        return record->medianKernelNs();
      }
    }
    return std::nullopt;
  }

  const AnalysedResults& results_;
  const ChartStyle& chart_style_;
  const ChartOptions& chart_options_;
  std::vector<std::string> model_keys_;
  ReadingGuide reading_guide_;
  std::string html_;
};

}  // namespace

std::string renderHtmlReport(const AnalysedResults& results, const ChartStyle& chart_style,
                             const ChartOptions& chart_options) {
  return HtmlReport(results, chart_style, chart_options).render();
}

std::string renderHtmlReportBody(const AnalysedResults& results, const ChartStyle& chart_style,
                                 const ChartOptions& chart_options) {
  return HtmlReport(results, chart_style, chart_options).renderBody();
}

void writeHtmlReport(const AnalysedResults& results, const std::filesystem::path& file,
                     const ChartOptions& chart_options) {
  writeFileAtomically(file, renderHtmlReport(results, {}, chart_options));
}

}  // namespace rooflab::reports
