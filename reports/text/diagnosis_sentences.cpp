#include "reports/text/diagnosis_sentences.hpp"

#include "reports/text/roofline_sentences.hpp"

namespace rooflab::reports {

std::string evidenceText(const DiagnosisEvidence& evidence) {
  std::string text = toString(evidence.signal);
  if (evidence.level) text += ", " + levelName(*evidence.level) + " level";
  text += ": " + evidence.says;
  if (evidence.above_roof) text += "; above its roof: " + aboveRoofText(*evidence.above_roof);
  return text;
}

}  // namespace rooflab::reports
