#pragma once
// How `rooflab tune` picks the next configuration of a space (docs/tuning.md, "Searchers"):
//   exhaustive  every valid configuration, the variant's own first, then in the space's order;
//   random      the variant's own first, then the others in a random order (seeded: a second run
//               tries them in the same order, so it resumes from the journal);
//   guided      the variant's own first, a few configurations spread over the space, then the ones a
//               model of the measurements so far predicts fastest, mostly among the neighbours of the
//               best so far; it stops early when the best reaches the device's roof with no faster
//               neighbour, or when every neighbour of the best was tried and the model expects nothing faster.
// A searcher reads what was measured from the search's configurations (their outcomes and medians),
// which the driver fills in as each configuration ends.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/tuning.hpp"

namespace rooflab {

class Searcher {
 public:
  virtual ~Searcher() = default;
  // The next configuration to run (an index into the result's configurations, one of `valid` not yet
  // tried), or nullopt with why the search is over.
  virtual std::optional<std::size_t> next(const TuningResult& so_far, std::string& why) = 0;
  // The order it will try configurations in, when that is known in advance (exhaustive, random);
  // empty for a searcher that decides as it goes.
  virtual std::vector<std::size_t> plannedOrder() const { return {}; }
};

struct SearcherSetup {
  TuneSearcher kind = TuneSearcher::guided;
  std::vector<std::size_t> valid;  // the valid configurations, in the space's order
  std::optional<std::size_t> baseline;
  std::size_t budget = 0;  // evaluations the search may make (the guided searcher sizes its first sample by it)
  std::uint64_t seed = 0;
  double noise = 0.03;  // the run's noise target: differences below it are not improvements
};

std::unique_ptr<Searcher> makeSearcher(const SearcherSetup& setup, const TuningResult& space);

// Whether the configuration was run (whatever became of it).
bool wasTried(const TunedConfiguration& configuration);

}  // namespace rooflab
