#include "reports/html/html_diagnosis.hpp"

#include "reports/html/html_text.hpp"
#include "reports/text/diagnosis_sentences.hpp"
#include "reports/text/source_lines_text.hpp"

namespace rooflab::reports {

std::string diagnosisDetailsText(const Diagnosis& diagnosis) {
  std::string text;
  for (const DiagnosisEvidence& item : diagnosis.evidence) text += (text.empty() ? "" : "\n") + evidenceText(item);
  for (const DiagnosisDisagreement& item : diagnosis.disagreements)
    text += (text.empty() ? "" : "\n") + std::string("disagreement: ") + disagreementText(item);
  if (diagnosis.hot_line)
    text += (text.empty() ? "" : "\n") + std::string("hot line: ") + hotLineText(*diagnosis.hot_line);
  return text;
}

std::string diagnosisCellHtml(const AnalysedRecord& record) {
  if (!record.diagnosis) return td("–", "muted");
  const Diagnosis& diagnosis = *record.diagnosis;
  // The evidence names what each signal says, other bounds included: it stays in the tooltip, so
  // that the row itself names one bound.
  std::string html = "<td class=\"diagnosis\" title=\"" + escapeHtml(diagnosisDetailsText(diagnosis)) + "\">";
  html += "<span class=\"verdict bound-" + cssToken(toString(diagnosis.bound)) + "\">" +
          escapeHtml(boundText(diagnosis)) + "</span> <span class=\"muted\">" +
          escapeHtml(toString(diagnosis.confidence)) + " confidence</span>";
  if (!diagnosis.disagreements.empty()) html += " <span class=\"disagreement\">signals disagree</span>";
  // Where the time goes, in the source: the line a reader opens first.
  if (diagnosis.hot_line)
    html += "<br><span class=\"hot-line\">hot line: " + escapeHtml(hotLineText(*diagnosis.hot_line)) + "</span>";
  return html + "</td>";
}

}  // namespace rooflab::reports
