// The names of a mutant's line changes, as results files spell them.
#include "analyzer/data/source_lines.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<MutantLineChangeKind> kMutantLineChangeKindNames[] = {
    {MutantLineChangeKind::kept, "kept"},       {MutantLineChangeKind::folded, "folded"},
    {MutantLineChangeKind::made_up, "made-up"}, {MutantLineChangeKind::guarded, "guarded"},
    {MutantLineChangeKind::removed, "removed"},
};

std::string toString(MutantLineChangeKind kind) { return nameOf(kMutantLineChangeKindNames, kind); }

std::optional<MutantLineChangeKind> parseMutantLineChangeKind(std::string_view text) {
  return valueOf(kMutantLineChangeKindNames, text);
}

}  // namespace rooflab
