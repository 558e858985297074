#pragma once
// Options whose text CLI11 takes as given and rooflab must check: each problem an input error that
// names the option and what it allows, found before anything is created.
#include <cstdint>
#include <string>

namespace rooflab {

// What is wrong with `--device` as given ("" when nothing): an empty selector, an empty one between
// commas, or, where a command runs on one device (`several` false), several selectors or `all`.
std::string deviceOptionProblem(const std::string& selectors, bool several);

// `--seed`: a whole number from 0 to 2^64-1 (a minus sign is refused, not wrapped). Throws InputError.
std::uint64_t parseSeedOption(const std::string& text);

}  // namespace rooflab
