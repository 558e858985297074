#pragma once
// "How to read this": the explanations the report would otherwise repeat for every variant, said once.
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/results_document.hpp"

namespace rooflab::reports {

struct ReadingGuide {
  bool has_mutants = false;    // mutant records ran: what compute-only and memory-only mean
  bool has_mutations = false;  // verdicts were read: what the cards show
  // The margins every verdict of the report used, when they all agree (the usual case): stated once.
  // nullopt when they differ, and each card states its own.
  std::optional<VerdictMargins> common_margins;
  // Validation notes that more than one mutant carries (the same long "why construction had to do"
  // for every variant on a device without counters), numbered from 1 in the order they first appear.
  std::vector<std::string> shared_notes;

  // The 1-based number of a shared note, or 0 when the note is a card's own.
  std::size_t sharedNoteNumber(const std::string& note) const;
  // Whether a card must state its margins: they are not the report's common ones.
  bool cardStatesMargins(const VerdictMargins& margins) const;
};

ReadingGuide readingGuideOf(const AnalysedResults& results);

// The "How to read this" section (id "how-to-read"); empty when there is nothing to explain.
std::string readingSectionHtml(const ReadingGuide& guide);

// "counter_tolerance 0.05 · min_kernel_ns 10000 · near 0.8 · sum_tolerance 0.2": the margins by their
// names in the results file, alphabetically.
std::string marginsText(const VerdictMargins& margins);

// The anchor a card's validation line links a shared note with.
std::string sharedNoteAnchor(std::size_t number);

}  // namespace rooflab::reports
