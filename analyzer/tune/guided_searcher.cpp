// The guided searcher. After the variant's own configuration and a small sample spread over the
// space (each new one as far as possible, in parameter values changed, from those measured), it fits
// log(median time) as a sum of one effect per parameter value: on GPU spaces a parameter's value
// mostly scales the time by its own factor, so a few dozen measurements rank hundreds of
// configurations. A configuration that failed (build, verification, run) counts as twice the slowest:
// the model learns to stay away from its values. Two picks in three are the best-predicted
// neighbours of the best so far (one parameter changed), the third the best-predicted anywhere, less
// a bonus for being far from anything measured. It stops when the best runs at the device's roof and
// no neighbour of it is faster.
#include "analyzer/tune/guided_searcher.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace rooflab {
namespace {

// The best's rate against the device's roof at which, once no neighbour of it is faster, nothing is
// left to win: within the noise of the roof (kernels beat a measured ceiling by a few percent).
constexpr double kAtRoofFraction = 0.97;
constexpr double kRidge = 0.5;  // in (log time)^2 units per effect: keeps effects seen once modest

class GuidedSearcher : public Searcher {
 public:
  GuidedSearcher(const SearcherSetup& setup, const TuningResult& space) : setup_(setup), random_(setup.seed) {
    for (const TuningDimension& d : space.dimensions) {
      offsets_.push_back(features_);
      features_ += d.values.size();
    }
    for (const TunedConfiguration& c : space.configurations) {
      std::vector<std::size_t> index;
      for (std::size_t d = 0; d < space.dimensions.size(); ++d) {
        const std::vector<double>& values = space.dimensions[d].values;
        index.push_back(
            static_cast<std::size_t>(std::find(values.begin(), values.end(), c.values[d]) - values.begin()));
      }
      levels_.push_back(std::move(index));
    }
    // A first sample of one more than the dimensions, within a quarter of the budget.
    sample_size_ = std::clamp<std::size_t>(space.dimensions.size() + 1, 3, std::max<std::size_t>(3, setup.budget / 4));
  }

  std::optional<std::size_t> next(const TuningResult& so_far, std::string& why) override {
    std::vector<std::size_t> tried, untried;
    for (std::size_t c : setup_.valid) (wasTried(so_far.configurations[c]) ? tried : untried).push_back(c);
    if (untried.empty()) {
      why = "every valid configuration was tried";
      return std::nullopt;
    }
    const std::optional<std::size_t> best = bestOf(so_far, tried);
    if (best && atRoof(so_far, *best) &&
        std::none_of(untried.begin(), untried.end(), [&](std::size_t c) { return distance(c, *best) == 1; })) {
      why = "the best reaches " + std::to_string(static_cast<int>(kAtRoofFraction * 100)) +
            "% of the device's roof at its intensity and every neighbour of it was tried: nothing left to win";
      return std::nullopt;
    }
    if (setup_.baseline && !wasTried(so_far.configurations[*setup_.baseline])) return *setup_.baseline;
    if (tried.size() < sample_size_ || !best) return farthest(tried, untried);
    return modelPick(so_far, tried, untried, *best, why);
  }

 private:
  static std::optional<std::size_t> bestOf(const TuningResult& so_far, const std::vector<std::size_t>& tried) {
    std::optional<std::size_t> best;
    for (std::size_t c : tried) {
      const TunedConfiguration& t = so_far.configurations[c];
      if (t.outcome == ConfigurationOutcome::ok && t.median_ns &&
          (!best || *t.median_ns < *so_far.configurations[*best].median_ns))
        best = c;
    }
    return best;
  }

  static bool atRoof(const TuningResult& so_far, std::size_t c) {
    const std::optional<double>& rate = so_far.configurations[c].rate;
    return so_far.roof_rate && rate && *rate >= kAtRoofFraction * *so_far.roof_rate;
  }

  std::size_t distance(std::size_t a, std::size_t b) const {
    std::size_t changed = 0;
    for (std::size_t d = 0; d < offsets_.size(); ++d) changed += levels_[a][d] != levels_[b][d];
    return changed;
  }

  std::size_t nearest(std::size_t c, const std::vector<std::size_t>& tried) const {
    std::size_t least = offsets_.size();
    for (std::size_t t : tried) least = std::min(least, distance(c, t));
    return least;
  }

  // The untried configuration farthest from every tried one (ties broken at random).
  std::size_t farthest(const std::vector<std::size_t>& tried, const std::vector<std::size_t>& untried) {
    std::size_t best_distance = 0;
    std::vector<std::size_t> ties;
    for (std::size_t c : untried) {
      const std::size_t d = nearest(c, tried);
      if (d > best_distance) ties.clear(), best_distance = d;
      if (d == best_distance) ties.push_back(c);
    }
    return ties[random_() % ties.size()];
  }

  // log(median) for the measured configurations; a failure counts as twice the slowest success.
  std::vector<std::pair<std::size_t, double>> observations(const TuningResult& so_far,
                                                           const std::vector<std::size_t>& tried) const {
    std::vector<std::pair<std::size_t, double>> seen;
    double slowest = -std::numeric_limits<double>::infinity();
    for (std::size_t c : tried) {
      const TunedConfiguration& t = so_far.configurations[c];
      if (t.outcome == ConfigurationOutcome::ok && t.median_ns && *t.median_ns > 0) {
        seen.emplace_back(c, std::log(*t.median_ns));
        slowest = std::max(slowest, seen.back().second);
      }
    }
    for (std::size_t c : tried)
      if (so_far.configurations[c].outcome != ConfigurationOutcome::ok) seen.emplace_back(c, slowest + std::log(2.0));
    return seen;
  }

  // Ridge regression of the observations on one indicator per parameter value, about their mean:
  // the effects, solved by Gaussian elimination (a few dozen unknowns at most).
  std::vector<double> fit(const std::vector<std::pair<std::size_t, double>>& seen, double& mean) const {
    mean = 0;
    for (const auto& [c, y] : seen) mean += y / static_cast<double>(seen.size());
    const std::size_t n = features_;
    std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
    for (std::size_t i = 0; i < n; ++i) a[i][i] = kRidge;
    for (const auto& [c, y] : seen)
      for (std::size_t d = 0; d < offsets_.size(); ++d) {
        const std::size_t i = offsets_[d] + levels_[c][d];
        for (std::size_t e = 0; e < offsets_.size(); ++e) a[i][offsets_[e] + levels_[c][e]] += 1;
        a[i][n] += y - mean;
      }
    for (std::size_t col = 0; col < n; ++col) {
      std::size_t pivot = col;
      for (std::size_t row = col + 1; row < n; ++row)
        if (std::fabs(a[row][col]) > std::fabs(a[pivot][col])) pivot = row;
      std::swap(a[col], a[pivot]);
      for (std::size_t row = 0; row < n; ++row) {
        if (row == col || a[row][col] == 0) continue;
        const double factor = a[row][col] / a[col][col];
        for (std::size_t k = col; k <= n; ++k) a[row][k] -= factor * a[col][k];
      }
    }
    std::vector<double> effects(n);
    for (std::size_t i = 0; i < n; ++i) effects[i] = a[i][n] / a[i][i];
    return effects;
  }

  double predict(std::size_t c, const std::vector<double>& effects, double mean) const {
    double y = mean;
    for (std::size_t d = 0; d < offsets_.size(); ++d) y += effects[offsets_[d] + levels_[c][d]];
    return y;
  }

  std::optional<std::size_t> modelPick(const TuningResult& so_far, const std::vector<std::size_t>& tried,
                                       const std::vector<std::size_t>& untried, std::size_t best, std::string& why) {
    double mean = 0;
    const std::vector<std::pair<std::size_t, double>> seen = observations(so_far, tried);
    const std::vector<double> effects = fit(seen, mean);
    double spread = 0;  // the model's error on what it saw: how far to trust it
    for (const auto& [c, y] : seen)
      spread += std::pow(y - predict(c, effects, mean), 2) / static_cast<double>(seen.size());
    spread = std::max(std::sqrt(spread), setup_.noise);
    std::optional<std::size_t> local, global;
    double local_score = 0, global_score = 0;
    for (std::size_t c : untried) {
      const double predicted = predict(c, effects, mean);
      if (distance(c, best) == 1 && (!local || predicted < local_score)) local = c, local_score = predicted;
      const double bonus = spread * static_cast<double>(nearest(c, tried)) / static_cast<double>(offsets_.size());
      if (!global || predicted - bonus < global_score) global = c, global_score = predicted - bonus;
    }
    const double best_y = std::log(*so_far.configurations[best].median_ns);
    // Even two model errors on the bright side, nothing untried would beat the best by the noise.
    if (!local && global_score - 2 * spread > best_y - std::log1p(setup_.noise)) {
      why = "converged: every neighbour of the best was tried and the model expects nothing faster";
      return std::nullopt;
    }
    ++picks_;
    if (local && (picks_ % 3 != 0 || !global)) return local;
    return global;
  }

  SearcherSetup setup_;
  std::mt19937_64 random_;
  std::vector<std::size_t> offsets_;  // per dimension: its first feature
  std::size_t features_ = 0;
  std::vector<std::vector<std::size_t>> levels_;  // per configuration: each dimension's value index
  std::size_t sample_size_ = 3;
  std::size_t picks_ = 0;
};

}  // namespace

std::unique_ptr<Searcher> makeGuidedSearcher(const SearcherSetup& setup, const TuningResult& space) {
  return std::make_unique<GuidedSearcher>(setup, space);
}

}  // namespace rooflab
