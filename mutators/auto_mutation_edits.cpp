// Applies the automatic mutants' source edits: renders a kernel's text with (nested) edits in place.
#if ROOFLAB_HAVE_LIBCLANG
#include <algorithm>

#include "mutators/auto_mutation_walk.hpp"

namespace rooflab::auto_mutation {
namespace {

std::string renderRange(const std::string& text, const std::vector<SourceEdit>& edits, unsigned begin, unsigned end,
                        std::size_t skip);

std::string renderEdit(const std::string& text, const std::vector<SourceEdit>& edits, std::size_t index) {
  std::string out;
  for (const SourceEdit::Piece& p : edits[index].pieces)
    out += p.end > p.begin ? renderRange(text, edits, p.begin, p.end, index) : p.text;
  return out;
}

// `edits` are sorted by begin, then by end descending, so an outer edit comes before those inside it.
std::string renderRange(const std::string& text, const std::vector<SourceEdit>& edits, unsigned begin, unsigned end,
                        std::size_t skip) {
  std::string out;
  unsigned pos = begin;
  for (std::size_t i = 0; i < edits.size(); ++i) {
    const SourceEdit& e = edits[i];
    // An insertion at `end` belongs to the text after the range (a call's added argument after its
    // last argument), not to the range.
    if (i == skip || e.begin < pos || e.end > end || (e.begin == e.end && e.begin == end)) continue;
    out.append(text, pos, e.begin - pos);
    out += renderEdit(text, edits, i);
    pos = e.end;
  }
  out.append(text, pos, end - pos);
  return out;
}

}  // namespace

std::string applyEdits(const std::string& text, const std::vector<SourceEdit>& edits) {
  std::vector<SourceEdit> sorted = edits;
  std::stable_sort(sorted.begin(), sorted.end(), [](const SourceEdit& a, const SourceEdit& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  return renderRange(text, sorted, 0, static_cast<unsigned>(text.size()), sorted.size());
}

}  // namespace rooflab::auto_mutation

#endif  // ROOFLAB_HAVE_LIBCLANG
