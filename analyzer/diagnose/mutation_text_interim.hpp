#pragma once
// Interim: the words diagnosis.cpp quotes from a mutation verdict (its last note, a failed
// validation's quantity), until the diagnosis's evidence is data that reports/ says in words with
// reports/text/mutation_sentences.hpp. A copy of that renderer's text for these two items; removed
// once the diagnosis no longer builds sentences.
#include <string>

#include "analyzer/data/mutation_verdict.hpp"

namespace rooflab {

// reports::mutationNoteText's sentence.
std::string interimMutationNoteText(const MutationNote& note, bool cpu_device);

// reports::mutantValidationQuantityText's text.
std::string interimValidationQuantityText(const MutantValidation& validation);

}  // namespace rooflab
