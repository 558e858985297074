#pragma once
// A repeated launch's repetitions (docs/manifest.md, "Repeated launches"), made one at a time.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "analyzer/data/resolved_point.hpp"
#include "analyzer/support/expression.hpp"

namespace rooflab {

// The repetitions of one entry of a resolved point's launches, made one at a time: a repeat may be
// large, so neither the plan nor the run stores them (data/resolved_point.hpp). The entry's
// expressions are parsed once over the point's values and evaluated at each index; pingpong's
// buffers are exchanged on odd repetitions.
class LaunchRepetitions {
 public:
  // Throws InputError when an expression of the entry does not parse.
  LaunchRepetitions(const ResolvedPoint& point, std::size_t launch);
  std::uint64_t count() const { return base_.repeat; }
  bool changes() const { return base_.varies || !spec_->pingpong.empty(); }
  // Repetition k (0 <= k < count()): throws InputError (an expression fails at this index, a global
  // size is not a multiple of its local size) or, when `encode` asks for the scalar arguments' bytes,
  // VariantError (a scalar does not fit its type).
  ResolvedLaunch at(std::uint64_t k, bool encode = true) const;

 private:
  const LaunchSpec* spec_;
  ResolvedLaunch base_;
  // Per dimension or argument: parsed where the entry varies and the expression reads the index.
  std::vector<std::shared_ptr<const IndexedExpression>> global_, local_, args_;
};

}  // namespace rooflab
