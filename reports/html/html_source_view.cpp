#include "reports/html/html_source_view.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "reports/html/html_text.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/source_lines_text.hpp"
#include "reports/text/stall_reason_text.hpp"

namespace rooflab::reports {
namespace {

constexpr std::size_t kSourceViewHotLines = 5;
// The stall reasons a hot line's row names, most sampled first: the rest are a small share of it.
constexpr std::size_t kStallsPerHotLine = 3;

// Colours from the palette the mutant cards use (memory blue, compute orange), one per group of
// stall reasons (stallReasonGroup); the legend says which reasons each holds.
constexpr std::string_view kSourceViewStyle = R"css(
.source-view { border: 1px solid #ccc; border-radius: 4px; padding: 0.5em 1em; margin: 0.8em 0; }
details.source-view > summary h4 { display: inline; margin: 0; }
.hot-line { font-size: 0.9em; color: #5a2a00; }
table.source { border-collapse: collapse; font-size: 0.85em; margin: 0.3em 0 0.8em; width: 100%; }
table.source td { border: none; border-top: 1px solid #f0f0f0; padding: 0 0.5em; vertical-align: middle; }
table.source td.lineno { color: #888; text-align: right; font-variant-numeric: tabular-nums; }
table.source td.code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
.line-track { display: block; width: 160px; height: 0.8em; background: #f4f4f4; }
table.source td.changes { white-space: nowrap; }
.line-bar { display: block; height: 0.8em; min-width: 1px; }
.stall-chip { padding: 0 0.4em; border-radius: 3px; white-space: nowrap; color: #fff; }
.stall-memory { background: #0072b2; }
.stall-dependency { background: #56b4e9; }
.stall-synchronisation { background: #cc79a7; }
.stall-issue { background: #e69f00; }
.stall-fetch { background: #009e73; }
.stall-other { background: #999; }
.line-change { font-size: 0.85em; padding: 0 0.4em; border-radius: 3px; margin-right: 0.3em; white-space: nowrap; }
.change-compute-only { background: #fdebd0; }
.change-memory-only { background: #d6eaf8; }
)css";

// The legend's groups, in the order a reader looks for them, with the reasons each holds.
constexpr std::pair<std::string_view, std::string_view> kStallGroups[] = {
    {"memory", "long scoreboard, LG throttle, TEX throttle, MIO throttle, drain"},
    {"dependency", "short scoreboard, wait"},
    {"synchronisation", "barrier, membar"},
    {"issue", "selected, not selected, math pipe throttle, dispatch stall"},
    {"fetch", "no instructions, branch resolving, IMC miss"},
    {"other", "every other reason"},
};

// A mutant of the original's variant and params, and the lines it changed by line.
struct MutantLines {
  std::string mode;  // "compute-only" | "memory-only"
  std::map<SourceLine, const MutantLineChange*> changes;
};

bool sameSourcePoint(const AnalysedRecord& original, const AnalysedRecord& mutant) {
  return mutant.variant == original.variant && mutant.family == original.family && mutant.device == original.device &&
         recordParamsText(mutant) == recordParamsText(original);
}

std::vector<MutantLines> mutantLinesOf(const AnalysedRecord& original,
                                       const std::vector<const AnalysedRecord*>& mutant_records) {
  std::vector<MutantLines> out;
  for (RunMode mode : {RunMode::compute_only, RunMode::memory_only})
    for (const AnalysedRecord* mutant : mutant_records) {
      if (mutant->mode != mode || !sameSourcePoint(original, *mutant)) continue;
      MutantLines lines{modeName(mode), {}};
      for (const MutantLineChange& change : mutant->mutant_line_changes) lines.changes[change.where] = &change;
      out.push_back(std::move(lines));
      break;
    }
  return out;
}

std::string stallChip(const std::string& reason) {
  return "<span class=\"stall-chip stall-" + cssToken(stallReasonGroup(reason)) + "\">" +
         escapeHtml(stallReasonWords(reason).name) + "</span>";
}

std::string lineAnchor(const std::string& card_id, const SourceLine& where) {
  return card_id + "-" + cssToken(where.file) + "-L" + std::to_string(where.line);
}

// "long scoreboard 80% · selected 12% · wait 4%": the line's reasons, each as a share of its samples.
std::string lineStallsHtml(const LineSamples& line) {
  std::vector<const StallReasonSamples*> stalls;
  for (const StallReasonSamples& stall : line.stalls)
    if (stall.samples > 0) stalls.push_back(&stall);
  std::stable_sort(stalls.begin(), stalls.end(),
                   [](const StallReasonSamples* a, const StallReasonSamples* b) { return a->samples > b->samples; });
  std::string html;
  for (std::size_t i = 0; i < stalls.size() && i < kStallsPerHotLine; ++i)
    html += (i ? " · " : "") + stallChip(stalls[i]->reason) + " " +
            escapeHtml(formatPercent(static_cast<double>(stalls[i]->samples) / static_cast<double>(line.samples)));
  return html;
}

std::string hotLinesTableHtml(const LineSampling& sampling, const std::string& card_id) {
  const std::vector<const LineSamples*> hottest = hottestLines(sampling, kSourceViewHotLines);
  if (hottest.empty()) return "<p class=\"muted\">No sample fell at a line of the program's files.</p>\n";
  const double attributed = static_cast<double>(attributedSamples(sampling));
  std::string html = "<table class=\"hot-lines\">\n<thead><tr>" + th("Line") + th("Share of samples") +
                     th("Instructions sampled") + th("Stall reasons (share of the line's samples)") +
                     th("What the most sampled reason means") + "</tr></thead>\n<tbody>\n";
  for (const LineSamples* line : hottest) {
    const StallReasonSamples* dominant = dominantStall(*line);
    const StallReasonWords words = stallReasonWords(dominant != nullptr ? dominant->reason : "");
    html += "<tr><td><a href=\"#" + lineAnchor(card_id, line->where) + "\">" + escapeHtml(sourceLineText(line->where)) +
            "</a></td>" + tdNumber(static_cast<double>(line->samples) / attributed, &formatPercent) +
            tdNumber(static_cast<double>(line->sampled_instructions), &formatCount) + td(lineStallsHtml(*line)) +
            tdText(dominant != nullptr ? words.meaning : "") + "</tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

std::string stallLegendHtml() {
  std::string html = "<p class=\"stall-legend muted\">Bars are coloured by the line's most sampled stall reason: ";
  bool first = true;
  for (const auto& [group, reasons] : kStallGroups) {
    html += std::string(first ? "" : "; ") + "<span class=\"stall-chip stall-" + std::string(group) + "\">" +
            escapeHtml(group) + "</span> " + escapeHtml(reasons);
    first = false;
  }
  return html + ".</p>\n";
}

// The cell of a line's bar: its samples against the hottest line's, the share of all samples in its title.
std::string lineShareCells(const LineSamples* line, double hottest_samples, double attributed) {
  if (line == nullptr || line->samples <= 0)
    return "<td class=\"line-share\"><span class=\"line-track\"></span></td><td class=\"num\"></td>";
  const StallReasonSamples* dominant = dominantStall(*line);
  const std::string reason = dominant != nullptr ? dominant->reason : "misc";
  const double share = static_cast<double>(line->samples) / attributed;
  const std::string title =
      formatPercent(share) + " of samples" + (dominant != nullptr ? ", most " + stallReasonWords(reason).name : "");
  return "<td class=\"line-share\"><span class=\"line-track\"><span class=\"line-bar stall-" +
         cssToken(stallReasonGroup(reason)) +
         "\" style=\"width:" + formatFixed(static_cast<double>(line->samples) / hottest_samples * 100.0, 1) +
         "%\" title=\"" + escapeHtml(title) + "\"></span></span></td>" + tdNumber(share, &formatPercent);
}

std::string lineChangesHtml(const SourceLine& where, const std::vector<MutantLines>& mutants) {
  std::string html;
  for (const MutantLines& mutant : mutants) {
    const auto found = mutant.changes.find(where);
    if (found == mutant.changes.end() || found->second->kinds.empty()) continue;
    std::string kinds;
    for (MutantLineChangeKind kind : found->second->kinds) kinds += (kinds.empty() ? "" : ", ") + toString(kind);
    html += "<span class=\"line-change change-" + cssToken(mutant.mode) + "\">" +
            escapeHtml(mutant.mode + ": " + kinds) + "</span>";
  }
  return html;
}

struct FileView {
  const SourceFileText* file = nullptr;
  const LineSampling* sampling = nullptr;  // nullptr: shown without bars
  const std::vector<MutantLines>* mutants = nullptr;
  std::string card_id;
};

std::string sourceFileHtml(const FileView& view) {
  std::map<int, const LineSamples*> sampled;
  double hottest_samples = 0;
  if (view.sampling != nullptr)
    for (const LineSamples& line : view.sampling->lines)
      if (line.where.file == view.file->path && line.samples > 0) {
        sampled[line.where.line] = &line;
        hottest_samples = std::max(hottest_samples, static_cast<double>(line.samples));
      }
  const double attributed = view.sampling != nullptr ? static_cast<double>(attributedSamples(*view.sampling)) : 0;
  const bool bars = hottest_samples > 0 && attributed > 0;
  // A file with nothing to show beside its lines is folded: a family's variants often share one long file.
  const bool changed = std::any_of(view.mutants->begin(), view.mutants->end(), [&](const MutantLines& mutant) {
    return std::any_of(mutant.changes.begin(), mutant.changes.end(),
                       [&](const auto& change) { return change.first.file == view.file->path; });
  });
  std::string html = std::string("<details class=\"source-file\"") + (bars || changed ? " open" : "") +
                     "><summary><code>" + escapeHtml(view.file->path) + "</code> <span class=\"muted\">" +
                     std::to_string(view.file->lines.size()) +
                     " lines</span></summary>\n<table class=\"source\"><tbody>\n";
  for (std::size_t index = 0; index < view.file->lines.size(); ++index) {
    const SourceLine where{view.file->path, static_cast<int>(index + 1)};
    const auto found = sampled.find(where.line);
    html += "<tr id=\"" + lineAnchor(view.card_id, where) + "\"><td class=\"lineno\">" + std::to_string(where.line) +
            "</td>";
    if (bars) html += lineShareCells(found == sampled.end() ? nullptr : found->second, hottest_samples, attributed);
    html += "<td class=\"code\">" + escapeHtml(view.file->lines[index]) + "</td><td class=\"changes\">" +
            lineChangesHtml(where, *view.mutants) + "</td></tr>\n";
  }
  return html + "</tbody></table>\n</details>\n";
}

// "Mutants' changes: compute-only at 6 lines, memory-only at 4 lines", or why there are none to show.
std::string mutantMapSummaryHtml(const std::vector<MutantLines>& mutants) {
  if (mutants.empty()) return "<p class=\"muted\">No compute-only or memory-only mutant of this variant ran.</p>\n";
  std::string text = "Beside each line, what the mutants changed there:";
  bool first = true;
  for (const MutantLines& mutant : mutants) {
    const std::size_t count = mutant.changes.size();
    text += std::string(first ? " " : ", ") + mutant.mode +
            (count == 0 ? " (no changed line recorded)"
                        : " at " + std::to_string(count) + (count == 1 ? " line" : " lines"));
    first = false;
  }
  return "<p class=\"muted\">" + escapeHtml(text) +
         " (kept: a global load kept; folded: arithmetic folded away; made-up: a load replaced by a made-up value; "
         "guarded: a store kept behind a test; removed: code the mutant does not run).</p>\n";
}

std::string sourceCardHtml(const AnalysedRecord& original, const std::vector<const AnalysedRecord*>& mutant_records) {
  const std::string card_id = "src-" + cssToken(original.family + "-" + original.variant + "-" +
                                                recordParamsText(original, "-") + "-" + original.device.value_or(""));
  const bool sampled = original.line_sampling && original.line_sampling->available;
  std::string html = "<details class=\"source-view\" open>\n<summary><h4>" + escapeHtml(original.variant) +
                     " <span class=\"muted\">" + escapeHtml(recordParamsText(original)) + "</span></h4></summary>\n";
  if (sampled) {
    html += "<p class=\"meta\">" + escapeHtml(lineSamplingSummaryText(*original.line_sampling)) +
            ". Shares are of the samples at lines of the program's files.</p>\n";
  } else {
    std::string missing = original.line_sampling ? lineSamplingMissingText(*original.line_sampling)
                                                 : std::string("No per-line samples: this record holds no sampling");
    if (missing.back() != '.') missing += '.';
    html += "<p class=\"no-samples\">" + escapeHtml(missing) + "</p>\n";
  }
  if (original.diagnosis && original.diagnosis->hot_line)
    html += "<p class=\"hot-line\">Diagnosis, hot line: " + escapeHtml(hotLineText(*original.diagnosis->hot_line)) +
            "</p>\n";
  if (sampled) html += hotLinesTableHtml(*original.line_sampling, card_id) + stallLegendHtml();
  const std::vector<MutantLines> mutants = mutantLinesOf(original, mutant_records);
  html += mutantMapSummaryHtml(mutants);
  for (const SourceFileText& file : original.source_files)
    html += sourceFileHtml({&file, sampled ? &*original.line_sampling : nullptr, &mutants, card_id});
  return html + "</details>\n";
}

}  // namespace

bool needsSourceViewStyle(const AnalysedResults& results) {
  return std::any_of(results.records.begin(), results.records.end(), [](const AnalysedRecord& record) {
    return record.mode == RunMode::normal &&
           (!record.source_files.empty() || (record.diagnosis && record.diagnosis->hot_line));
  });
}

std::string_view sourceViewStyleSheet() { return kSourceViewStyle; }

std::string sourceViewSectionHtml(const std::vector<const AnalysedRecord*>& normal_records,
                                  const std::vector<const AnalysedRecord*>& mutant_records) {
  std::string cards;
  for (const AnalysedRecord* record : normal_records)
    if (!record->source_files.empty()) cards += sourceCardHtml(*record, mutant_records);
  if (cards.empty()) return "";
  return "<h3>Source lines</h3>\n<p class=\"muted\">Each variant's program as written. Where the GPU's PC sampling "
         "ran, the lines where its warps were sampled most come first, with what they were waiting on; each line's "
         "bar is its samples against the hottest line's. Beside each line, what the compute-only and memory-only "
         "mutants changed there.</p>\n" +
         cards;
}

}  // namespace rooflab::reports
