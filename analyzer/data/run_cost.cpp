#include "analyzer/data/run_cost.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<AbSide> kAbSideNames[] = {
    {AbSide::baseline, "baseline"},
    {AbSide::candidate, "candidate"},
};

std::string toString(AbSide side) { return nameOf(kAbSideNames, side); }

std::optional<AbSide> parseAbSide(std::string_view text) { return valueOf(kAbSideNames, text); }

}  // namespace rooflab
