#include "reports/html/html_how_to_read.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "reports/html/html_text.hpp"
#include "reports/text/mutation_sentences.hpp"
#include "reports/text/number_format.hpp"

namespace rooflab::reports {
namespace {

bool sameMargins(const VerdictMargins& a, const VerdictMargins& b) {
  return a.near == b.near && a.sum_tolerance == b.sum_tolerance &&
         a.min_kernel_ns_per_resolution == b.min_kernel_ns_per_resolution && a.min_kernel_ns == b.min_kernel_ns &&
         a.counter_tolerance == b.counter_tolerance;
}

}  // namespace

std::size_t ReadingGuide::sharedNoteNumber(const std::string& note) const {
  const auto found = std::find(shared_notes.begin(), shared_notes.end(), note);
  return found == shared_notes.end() ? 0 : static_cast<std::size_t>(found - shared_notes.begin()) + 1;
}

bool ReadingGuide::cardStatesMargins(const VerdictMargins& margins) const {
  return !common_margins || !sameMargins(*common_margins, margins);
}

ReadingGuide readingGuideOf(const AnalysedResults& results) {
  ReadingGuide guide;
  std::vector<std::string> notes_in_order;
  std::map<std::string, std::size_t> note_counts;
  bool margins_agree = true;
  for (const AnalysedRecord& record : results.records) {
    if (record.mode != RunMode::normal) guide.has_mutants = true;
    if (!record.mutation) continue;
    const MutationVerdict& mutation = *record.mutation;
    if (!guide.has_mutations) {
      guide.common_margins = mutation.margins;
    } else if (guide.common_margins && !sameMargins(*guide.common_margins, mutation.margins)) {
      margins_agree = false;
    }
    guide.has_mutations = true;
    for (const std::optional<MutantValidation>* check :
         {&mutation.validation.compute_only, &mutation.validation.memory_only}) {
      if (!*check) continue;
      const std::optional<std::string> note = mutantValidationNoteText(**check);
      if (!note || note->empty()) continue;
      if (note_counts[*note]++ == 0) notes_in_order.push_back(*note);
    }
  }
  if (!margins_agree) guide.common_margins.reset();
  for (const std::string& note : notes_in_order)
    if (note_counts[note] > 1) guide.shared_notes.push_back(note);
  return guide;
}

std::string marginsText(const VerdictMargins& margins) {
  const std::pair<const char*, double> values[] = {{"counter_tolerance", margins.counter_tolerance},
                                                   {"min_kernel_ns", margins.min_kernel_ns},
                                                   {"near", margins.near},
                                                   {"sum_tolerance", margins.sum_tolerance}};
  std::string text;
  for (const auto& [name, value] : values)
    text += (text.empty() ? "" : " · ") + std::string(name) + " " + formatRoundTrip(value);
  return text;
}

std::string sharedNoteAnchor(std::size_t number) { return "reading-note-" + std::to_string(number); }

std::string readingSectionHtml(const ReadingGuide& guide) {
  if (!guide.has_mutants && !guide.has_mutations) return "";
  std::string html = "<section id=\"how-to-read\">\n<h2>How to read this</h2>\n<ul class=\"reading\">\n";
  if (guide.has_mutants) {
    html += "<li><strong>Mutants</strong>: compute-only keeps the arithmetic and fakes the loads; memory-only keeps "
            "the traffic and drops the arithmetic. Their time against the original's says what bounds it.</li>\n";
  }
  if (guide.has_mutations) {
    html += "<li><strong>What bounds each variant</strong>: one folded card per variant, its verdict on the line; open "
            "it for t (the original), t_mem (memory-only) and t_comp (compute-only) as bars, what freeing memory "
            "traffic or arithmetic could win (a mutant slower than the original promises <em>no gain</em>), how each "
            "mutant was checked, and the notes.</li>\n";
    if (guide.common_margins) {
      html += "<li class=\"margins\"><strong>Margins</strong> of every verdict: " +
              escapeHtml(marginsText(*guide.common_margins)) +
              ". A mutant takes about as long as the whole when its time is at least <code>near</code> × t; the "
              "kernel is latency-bound when t is within <code>sum_tolerance</code> × t of t_mem + t_comp; under "
              "<code>min_kernel_ns</code> launch overhead dominates; counters confirm a mutant when its FLOPs or "
              "memory sectors are within <code>counter_tolerance</code> of the original's.</li>\n";
    }
  }
  html += "</ul>\n";
  if (!guide.shared_notes.empty()) {
    html += "<p>Notes the cards refer to by number:</p>\n<ol class=\"reading-notes\">\n";
    for (std::size_t i = 0; i < guide.shared_notes.size(); ++i) {
      html += "<li id=\"" + sharedNoteAnchor(i + 1) + "\">" + escapeHtml(guide.shared_notes[i]) + "</li>\n";
    }
    html += "</ol>\n";
  }
  return html + "</section>\n";
}

}  // namespace rooflab::reports
