#pragma once
// The guided searcher (searchers.hpp): a model of log(kernel time) fitted to the configurations
// measured so far, each parameter value an effect of its own (ridge regression), steering a local
// search around the best configuration, with the device's roof as a stopping point.
#include <memory>

#include "analyzer/tune/searchers.hpp"

namespace rooflab {

std::unique_ptr<Searcher> makeGuidedSearcher(const SearcherSetup& setup, const TuningResult& space);

}  // namespace rooflab
