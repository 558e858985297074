// The searchers whose order is known in advance: exhaustive and random. The guided one is in
// guided_searcher.cpp.
#include "analyzer/tune/searchers.hpp"

#include <algorithm>
#include <random>

#include "analyzer/tune/guided_searcher.hpp"

namespace rooflab {
namespace {

// Tries configurations in a fixed order, the variant's own first.
class OrderedSearcher : public Searcher {
 public:
  explicit OrderedSearcher(std::vector<std::size_t> order) : order_(std::move(order)) {}

  std::optional<std::size_t> next(const TuningResult& so_far, std::string& why) override {
    for (std::size_t c : order_)
      if (!wasTried(so_far.configurations[c])) return c;
    why = "every valid configuration was tried";
    return std::nullopt;
  }
  std::vector<std::size_t> plannedOrder() const override { return order_; }

 private:
  std::vector<std::size_t> order_;
};

std::vector<std::size_t> baselineFirst(std::vector<std::size_t> order, const std::optional<std::size_t>& baseline) {
  if (baseline) {
    const auto at = std::find(order.begin(), order.end(), *baseline);
    if (at != order.end()) std::rotate(order.begin(), at, at + 1);
  }
  return order;
}

}  // namespace

bool wasTried(const TunedConfiguration& configuration) {
  return configuration.outcome != ConfigurationOutcome::not_evaluated &&
         configuration.outcome != ConfigurationOutcome::invalid;
}

std::unique_ptr<Searcher> makeSearcher(const SearcherSetup& setup, const TuningResult& space) {
  switch (setup.kind) {
    case TuneSearcher::exhaustive: return std::make_unique<OrderedSearcher>(baselineFirst(setup.valid, setup.baseline));
    case TuneSearcher::random: {
      std::vector<std::size_t> order = setup.valid;
      // A permutation of our own (Fisher-Yates over mt19937_64), the same with every standard library.
      std::mt19937_64 random(setup.seed);
      for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[random() % i]);
      return std::make_unique<OrderedSearcher>(baselineFirst(std::move(order), setup.baseline));
    }
    case TuneSearcher::guided: return makeGuidedSearcher(setup, space);
  }
  return nullptr;
}

}  // namespace rooflab
