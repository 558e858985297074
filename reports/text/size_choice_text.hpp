#pragma once
// What a family's size rule chose on the device, in one sentence: printed as the batch starts and
// shown in the report. analyzer/plan/size_rules.cpp chooses, with every figure kept in SizeChoice.
#include <string>

#include "analyzer/data/size_choice.hpp"

namespace rooflab::reports {

// "N = 3072 (size rule \"fill\"): waves: 2 x 8 compute units = 16 work-groups; kernel time: ...;
// decided by the waves"; an older file's sentence as saved.
std::string sizeChoiceText(const SizeChoice& choice);

}  // namespace rooflab::reports
