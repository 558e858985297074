#include "reports/chart/end_to_end_chart.hpp"

#include <algorithm>
#include <cmath>

#include "reports/chart/chart_style.hpp"
#include "reports/text/end_to_end_text.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/results_order.hpp"

namespace rooflab::reports {
namespace {

constexpr double kRowPx = 46;
constexpr double kBarPx = 26;
constexpr double kRunLabelPx = 430;  // left of the bars: the run's name
constexpr double kFigurePx = 470;    // right of the bars: measured and predicted time

double partNs(const EndToEndParts& parts, int part) {
  const double values[] = {parts.upload_ns, parts.launch_ns, parts.kernel_ns, parts.download_ns, parts.gaps_ns};
  return std::isfinite(values[part]) && values[part] > 0 ? values[part] : 0;
}

std::vector<const AnalysedRecord*> recordsWithRuns(const AnalysedResults& results, const std::string& family) {
  std::vector<const AnalysedRecord*> out;
  for (const AnalysedRecord* record : recordsOfFamily(results, family))
    if (record->end_to_end && !record->end_to_end->runs.empty()) out.push_back(record);
  return out;
}

// A round step for the time axis, about a fifth of `span`.
double strategyTickStep(double span) { return roundTickStep(span, 5); }

// The longest time a bar or a prediction's tick reaches: the chart's full width (1 ns when none is timed).
double longestTimeNs(const std::vector<const AnalysedRecord*>& records) {
  double longest_ns = 0;
  for (const AnalysedRecord* record : records)
    for (std::size_t i = 0; i < record->end_to_end->runs.size(); ++i) {
      longest_ns = std::max(longest_ns, record->end_to_end->runs[i].median.total_ns);
      if (const auto& predicted = record->endToEndPrediction(i).predicted)
        longest_ns = std::max(longest_ns, predicted->total_ns);
    }
  return longest_ns > 0 ? longest_ns : 1;
}

}  // namespace

Rgb endToEndPartColor(int part) {
  static const Rgb kColors[] = {
      {0x1f, 0x77, 0xb4}, {0xff, 0x7f, 0x0e}, {0x2c, 0xa0, 0x2c}, {0x94, 0x67, 0xbd}, {0xc7, 0xc7, 0xc7}};
  return kColors[std::clamp(part, 0, kEndToEndParts - 1)];
}

const char* endToEndPartName(int part) {
  static const char* kNames[] = {"upload", "launch", "kernel", "download", "gaps"};
  return kNames[std::clamp(part, 0, kEndToEndParts - 1)];
}

std::optional<ChartScene> layoutEndToEndChart(const AnalysedResults& results, const std::string& family,
                                              const ChartStyle& style) {
  const std::vector<const AnalysedRecord*> records = recordsWithRuns(results, family);
  if (records.empty()) return std::nullopt;
  const double longest_ns = longestTimeNs(records);
  std::size_t rows = 0;
  for (const AnalysedRecord* record : records) rows += 1 + record->end_to_end->runs.size();
  const double font = style.legend_font_px;
  const double top = 130, left = kRunLabelPx, width = style.width_px - kRunLabelPx - kFigurePx;
  ChartScene scene;
  scene.width_px = style.width_px;
  scene.height_px = top + double(rows) * kRowPx + 90;
  scene.title = "End to end: " + family;
  auto text = [&](std::string content, PixelPoint at, double size, TextAlign align, Rgb color, bool bold = false) {
    scene.items.push_back(SceneText{std::move(content), at, size, bold, align, 0, color, std::nullopt});
  };
  scene.items.push_back(SceneRect{{0, 0}, scene.width_px, scene.height_px, Rgb{0xff, 0xff, 0xff}, std::nullopt, 1});
  text(scene.title, {scene.width_px / 2, 44}, style.title_font_px, TextAlign::middle, kInk, true);
  double legend_x = left;
  for (int part = 0; part < kEndToEndParts; ++part) {
    scene.items.push_back(SceneRect{{legend_x, 72}, 26, 20, endToEndPartColor(part), kInk, 1});
    text(endToEndPartName(part), {legend_x + 34, 89}, font, TextAlign::start, kInk);
    legend_x += 60 + estimatedTextWidthPx(endToEndPartName(part), font);
  }
  scene.items.push_back(SceneLine{{legend_x, 70}, {legend_x, 96}, kInk, 3, StrokeDash::solid, std::nullopt});
  text("predicted from the ceilings", {legend_x + 10, 89}, font, TextAlign::start, kInk);

  const double scale = width / longest_ns;
  double y = top;
  for (const AnalysedRecord* record : records) {
    text(record->variant + " " + recordParamsText(*record), {20, y + kRowPx * 0.6}, font, TextAlign::start, kInk, true);
    y += kRowPx;
    for (std::size_t i = 0; i < record->end_to_end->runs.size(); ++i) {
      const EndToEndRun& run = record->end_to_end->runs[i];
      const std::optional<EndToEndParts>& predicted = record->endToEndPrediction(i).predicted;
      text(endToEndRunName(run), {left - 14, y + kBarPx * 0.8}, font, TextAlign::end, kInk);
      if (run.error || run.repetitions.empty()) {
        text("error: " + run.error.value_or("not run"), {left, y + kBarPx * 0.8}, font * 0.9, TextAlign::start, kMuted);
        y += kRowPx;
        continue;
      }
      // Overlapped parts add up to more than the total: each part's share of their sum fills the bar.
      double sum = 0;
      for (int part = 0; part < kEndToEndParts; ++part) sum += partNs(run.median, part);
      const double bar_px = run.median.total_ns * scale;
      double x = left;
      for (int part = 0; part < kEndToEndParts; ++part) {
        const double w = sum > 0 ? partNs(run.median, part) / sum * bar_px : 0;
        if (w > 0) scene.items.push_back(SceneRect{{x, y}, w, kBarPx, endToEndPartColor(part), std::nullopt, 1});
        x += w;
      }
      scene.items.push_back(SceneRect{{left, y}, bar_px, kBarPx, std::nullopt, kInk, 1});
      std::string figure = formatDurationNs(run.median.total_ns);
      if (predicted) {
        const double px = left + predicted->total_ns * scale;
        scene.items.push_back(SceneLine{{px, y - 6}, {px, y + kBarPx + 6}, kInk, 3, StrokeDash::solid, std::nullopt});
        figure += ", predicted " + formatDurationNs(predicted->total_ns);
      }
      if (run.verification.status == VerificationStatus::failed) figure += ", WRONG RESULTS";
      text(figure, {left + width + 16, y + kBarPx * 0.8}, font * 0.9, TextAlign::start, kInk);
      y += kRowPx;
    }
  }
  // The time axis under the bars.
  const double axis_y = y + 10;
  scene.items.push_back(SceneLine{{left, axis_y}, {left + width, axis_y}, kInk, 1.5, StrokeDash::solid, std::nullopt});
  const double step = strategyTickStep(longest_ns);
  for (double t = 0; t <= longest_ns * 1.0001; t += step) {
    const double px = left + t * scale;
    scene.items.push_back(SceneLine{{px, axis_y}, {px, axis_y + 8}, kInk, 1.5, StrokeDash::solid, std::nullopt});
    text(t == 0 ? "0" : formatDurationNs(t), {px, axis_y + 8 + font}, font * 0.9, TextAlign::middle, kMuted);
  }
  return scene;
}

}  // namespace rooflab::reports
