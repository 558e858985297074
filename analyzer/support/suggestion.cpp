#include "analyzer/support/suggestion.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace rooflab {

std::size_t editDistance(const std::string& a, const std::string& b) {
  auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // d[i][j]: distance between a's first i letters and b's first j letters.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearestName(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    const std::size_t d = editDistance(name, candidate);
    if (best.empty() || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // A third of the letters, at least one: "matmull" -> "matmul", "nbdy" -> "nbody", but "x" is
  // near nothing and "fast" is not a typo of "good".
  const std::size_t longer = std::max(name.size(), best.size());
  if (best.empty() || best_distance > std::max<std::size_t>(1, longer / 3)) return "";
  return best;
}

std::string didYouMean(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string nearest = nearestName(name, candidates);
  return nearest.empty() ? "" : " (did you mean '" + nearest + "'?)";
}

}  // namespace rooflab
