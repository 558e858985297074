#include "reports/html/html_mutation.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "reports/html/html_how_to_read.hpp"
#include "reports/html/html_text.hpp"
#include "reports/text/known_value.hpp"
#include "reports/text/mutation_sentences.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/record_text.hpp"
#include "reports/text/what_if_text.hpp"

namespace rooflab::reports {
namespace {

std::string barHtml(std::string_view label, const std::optional<double>& value_ns, double longest_ns,
                    std::string_view fill_class) {
  std::string html =
      "<div class=\"bar-row\"><span class=\"bar-label\">" + escapeHtml(label) + "</span><span class=\"bar\">";
  if (value_ns && longest_ns > 0) {
    html += "<span class=\"" + std::string(fill_class) +
            "\" style=\"width:" + formatFixed(*value_ns / longest_ns * 100.0, 1) + "%\"></span>";
  }
  html +=
      "</span><span class=\"bar-value\">" +
      (value_ns ? escapeHtml(formatDurationNs(*value_ns)) : std::string("<span class=\"muted\">not measured</span>")) +
      "</span></div>\n";
  return html;
}

// "memory-only mutant: global memory sectors (load + store) 1.57 M vs 1.57 M (counters): valid"; a note
// that "How to read this" states once becomes a link to it.
std::string validationHtml(const std::string& mode, const MutantValidation& check, const ReadingGuide& guide) {
  std::string text = mode + " mutant";
  if (const std::string quantity = mutantValidationQuantityText(check); !quantity.empty()) text += ": " + quantity;
  const auto original = known(check.original);
  const auto mutant = known(check.mutant);
  if (original && mutant) text += " " + formatCount(*original) + " (original) vs " + formatCount(*mutant) + " (mutant)";
  text += std::string(", checked by ") + (check.by == MutantValidation::Method::counters ? "counters" : "construction");
  text += check.valid ? ": valid" : ": NOT valid, its time is not used";
  const std::optional<std::string> note = mutantValidationNoteText(check);
  if (!note || note->empty()) return escapeHtml(text);
  if (const std::size_t number = guide.sharedNoteNumber(*note)) {
    return escapeHtml(text) + " <a href=\"#" + sharedNoteAnchor(number) + "\">[note " + std::to_string(number) +
           "]</a>";
  }
  return escapeHtml(text + " (" + *note + ")");
}

}  // namespace

std::string mutationCardHtml(const AnalysedRecord& record, const MutationVerdict& mutation, const ReadingGuide& guide) {
  const std::string verdict = toString(mutation.verdict);
  // Folded: the verdict is on the summary line, the evidence a click away.
  std::string html = "<details class=\"mutation\">\n<summary><h4>" + escapeHtml(record.variant) +
                     " <span class=\"muted\">" + escapeHtml(recordParamsText(record)) +
                     "</span> <span class=\"verdict verdict-" + cssToken(verdict) + "\">" + escapeHtml(verdict) +
                     "</span></h4></summary>\n";
  const auto t_ns = known(mutation.t_ns);
  const auto t_mem_ns = known(mutation.t_mem_ns);
  const auto t_comp_ns = known(mutation.t_comp_ns);
  const double longest_ns = std::max({t_ns.value_or(0.0), t_mem_ns.value_or(0.0), t_comp_ns.value_or(0.0)});
  html += barHtml("t (original)", t_ns, longest_ns, "fill-total");
  html += barHtml("t_mem (memory-only)", t_mem_ns, longest_ns, "fill-memory");
  html += barHtml("t_comp (compute-only)", t_comp_ns, longest_ns, "fill-compute");

  // A mutant slower than the original (a speedup under 1x) promises nothing: "no gain", not
  // "up to 0.25x faster".
  auto gainText = [](double speedup) {
    return speedup < 1.0 ? std::string("no gain") : "up to " + formatSpeedup(speedup) + " faster";
  };
  std::vector<std::string> impact;
  if (const auto speedup = known(mutation.speedup_if_memory_free)) {
    impact.push_back("if memory traffic were free: " + gainText(*speedup));
  }
  if (const auto speedup = known(mutation.speedup_if_compute_free)) {
    impact.push_back("if arithmetic were free: " + gainText(*speedup));
  }
  if (!impact.empty()) {
    html += "<p class=\"impact\">";
    for (std::size_t i = 0; i < impact.size(); ++i) html += (i ? "; " : "") + escapeHtml(impact[i]);
    html += "</p>\n";
  }
  // The margins, when they are not the ones "How to read this" states for every card.
  if (guide.cardStatesMargins(mutation.margins)) {
    html += "<p class=\"margins muted\">Margins: " + escapeHtml(marginsText(mutation.margins)) + "</p>\n";
  }
  const std::pair<const char*, const std::optional<MutantValidation>*> validations[] = {
      {"compute-only", &mutation.validation.compute_only}, {"memory-only", &mutation.validation.memory_only}};
  if (mutation.validation.compute_only || mutation.validation.memory_only) {
    html += "<ul class=\"validation\">";
    for (const auto& [mode, check] : validations) {
      if (*check) html += "<li>" + validationHtml(mode, **check, guide) + "</li>";
    }
    html += "</ul>\n";
  }
  if (!mutation.notes.empty()) {
    html += "<ul class=\"notes\">";
    for (const MutationNote& note : mutation.notes)
      html += "<li>" + escapeHtml(mutationNoteText(note, mutation.cpu_device)) + "</li>";
    html += "</ul>\n";
  }
  html += "</details>\n";
  return html;
}

std::string whatIfSectionHtml(const std::vector<const AnalysedRecord*>& what_if_records) {
  std::string html =
      "<h3>What-if mutations</h3>\n<p class=\"muted\">Each what-if is the kernel made deliberately incorrect with "
      "one inefficiency removed; it is not verified. Its time against the original's is the most that removing "
      "the inefficiency can win; counters, where there are any, confirm that it was removed.</p>\n";
  for (const AnalysedRecord* record : what_if_records) {
    if (!record->what_if) continue;
    const WhatIfRun& run = *record->what_if;
    const WhatIfOutcome w = record->what_if_outcome.value_or(WhatIfOutcome{});
    const std::string check = toString(w.check);
    html += "<div class=\"mutation what-if\">\n<h4>" + escapeHtml(record->variant) + " · " + escapeHtml(run.name) +
            " <span class=\"muted\">" + escapeHtml(recordParamsText(*record)) + " · -D " + escapeHtml(run.define) +
            "</span> <span class=\"verdict what-if-" + cssToken(check) + "\">" +
            escapeHtml(w.check == WhatIfCheck::not_checked ? "not checked" : check) + "</span></h4>\n";
    if (record->status != RecordStatus::ok) {
      html += "<p class=\"bad\">" + escapeHtml(toString(record->status) + ": " + firstLine(record->status_reason)) +
              "</p>\n</div>\n";
      continue;
    }
    const auto t_ns = known(w.t_ns);
    const auto t_what_if_ns = known(w.t_what_if_ns);
    const auto t_realised_ns = known(w.t_realised_ns);
    const double longest_ns = std::max({t_ns.value_or(0.0), t_what_if_ns.value_or(0.0), t_realised_ns.value_or(0.0)});
    html += barHtml("t (original)", t_ns, longest_ns, "fill-total");
    html += barHtml("t (what-if " + run.name + ")", t_what_if_ns, longest_ns, "fill-compute");
    if (!run.realised_by.empty())
      html += barHtml("t (" + run.realised_by + ")", t_realised_ns, longest_ns, "fill-memory");
    html += "<p class=\"impact\">" + escapeHtml(whatIfPredictedText(w));
    if (!run.realised_by.empty()) html += "; " + escapeHtml(whatIfRealisedText(run, w));
    html += "</p>\n<ul class=\"validation\"><li>" + escapeHtml(whatIfCheckText(run, w)) + "</li></ul>\n</div>\n";
  }
  return html;
}

}  // namespace rooflab::reports
