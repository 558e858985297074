#pragma once
// "Did you mean ...?" for a misspelt name: the one place that picks the nearest valid name.
#include <string>
#include <vector>

namespace rooflab {

// Edit distance: insertions, deletions, substitutions and swaps of two neighbours, one each
// (optimal string alignment; case-insensitive).
std::size_t editDistance(const std::string& a, const std::string& b);

// The candidate nearest to `name`, when it is near enough to be a likely typo (at most a third of
// the longer name's letters differ, and at least one); "" otherwise.
std::string nearestName(const std::string& name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" for the nearest candidate, or "" when none is near: appended to an
// unknown-name error.
std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace rooflab
