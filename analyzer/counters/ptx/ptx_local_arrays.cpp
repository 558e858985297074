#include "analyzer/counters/ptx/ptx_local_arrays.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <tuple>

namespace rooflab::counters::ptx_detail {
namespace {

constexpr std::size_t kOpenClReservedSharedBytes = 4;

// `.shared .align 4 .b8 mm_$_a[1024];` -> {name, align, bytes}.
std::optional<std::tuple<std::string, std::size_t, std::size_t>> demotedSharedArray(const std::string& code) {
  std::istringstream in(code);
  std::string space, align_kw, align, type, declarator, extra;
  if (!(in >> space >> align_kw >> align >> type >> declarator) || (in >> extra)) return std::nullopt;
  if (space != ".shared" || align_kw != ".align" || type != ".b8") return std::nullopt;
  const std::size_t open = declarator.find('[');
  if (open == std::string::npos || open == 0 || declarator.size() < open + 4 ||
      declarator.substr(declarator.size() - 2) != "];")
    return std::nullopt;
  const std::string count = declarator.substr(open + 1, declarator.size() - open - 3);
  if (align.empty() || count.empty() || !std::all_of(align.begin(), align.end(), ::isdigit) ||
      !std::all_of(count.begin(), count.end(), ::isdigit))
    return std::nullopt;
  return std::make_tuple(declarator.substr(0, open), std::stoul(align), std::stoul(count));
}

bool mentionsDemotedArray(const std::string& code, const StaticLocalLayout& layout) {
  return std::any_of(layout.offsets.begin(), layout.offsets.end(),
                     [&](const auto& array) { return findToken(code, array.first) != std::string::npos; });
}

// Rewrites the references of a body line that mentions demoted arrays into `symbol` + offset; nullopt
// when a reference has a form this does not know (the kernel then keeps CUDA's own layout).
std::optional<std::string> relocateStaticLocal(const SourceLine& line, const StaticLocalLayout& layout,
                                               const std::string& symbol) {
  const std::string& code = line.code;
  std::string compact;
  for (char c : code)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
  // mov.u64 %rdX, name;  ->  mov.u64 %rdX, symbol;  add.s64 %rdX, %rdX, offset;
  for (const std::string op : {"mov.u64", "mov.b64", "mov.u32", "mov.b32"}) {
    if (compact.rfind(op + "%", 0) != 0) continue;
    const std::size_t comma = compact.find(',');
    if (comma == std::string::npos || compact.back() != ';') break;
    const std::string reg = compact.substr(op.size(), comma - op.size());
    const std::string source = compact.substr(comma + 1, compact.size() - comma - 2);
    const auto it = layout.offsets.find(source);
    if (it == layout.offsets.end()) break;
    const std::string indent = leadingWhitespace(line.text);
    const std::string add = op.find("64") != std::string::npos ? "add.s64" : "add.s32";
    return indent + op + " \t" + reg + ", " + symbol + ";\n" + indent + add + " \t" + reg + ", " + reg + ", " +
           std::to_string(it->second) + ";";
  }
  // [name] or [name+imm] inside an address operand.
  std::string out;
  std::size_t i = 0;
  while (i < code.size()) {
    bool matched = false;
    if (code[i] == '[') {
      std::size_t j = i + 1;
      while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
      const std::size_t name_begin = j;
      while (j < code.size() && isIdentifierChar(code[j])) ++j;
      const auto it = layout.offsets.find(code.substr(name_begin, j - name_begin));
      if (it != layout.offsets.end()) {
        long long extra = 0;
        while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
        if (j < code.size() && (code[j] == '+' || code[j] == '-')) {
          const bool negative = code[j] == '-';
          ++j;
          while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
          const std::size_t digits = j;
          while (j < code.size() && std::isdigit(static_cast<unsigned char>(code[j]))) ++j;
          if (digits == j) return std::nullopt;
          extra = std::stoll(code.substr(digits, j - digits)) * (negative ? -1 : 1);
          while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
        }
        if (j >= code.size() || code[j] != ']') return std::nullopt;
        out += "[" + symbol + "+" + std::to_string(static_cast<long long>(it->second) + extra) + "]";
        i = j + 1;
        matched = true;
      }
    }
    if (!matched) out += code[i++];
  }
  if (mentionsDemotedArray(out, layout)) return std::nullopt;  // used some other way
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

}  // namespace

std::optional<std::pair<StaticLocalLayout, std::map<std::size_t, std::string>>> planOpenClStaticLocal(
    const std::vector<SourceLine>& lines, std::size_t body_begin, std::size_t body_end, const std::string& symbol) {
  StaticLocalLayout layout;
  std::size_t offset = kOpenClReservedSharedBytes;
  for (std::size_t b = body_begin; b <= body_end; ++b) {
    if (firstToken(lines[b].code) != ".shared") continue;
    const auto array = demotedSharedArray(trim(lines[b].code));
    if (!array) return std::nullopt;
    const auto& [name, align, bytes] = *array;
    offset = roundUp(offset, std::max<std::size_t>(align, 1));
    layout.offsets[name] = offset;
    layout.align_bytes = std::max(layout.align_bytes, align);
    layout.declaration_lines.insert(b);
    offset += bytes;
  }
  if (layout.offsets.empty()) return std::nullopt;
  layout.total_bytes = offset;
  std::map<std::size_t, std::string> rewritten;
  for (std::size_t b = body_begin; b <= body_end; ++b) {
    if (layout.declaration_lines.count(b) || !mentionsDemotedArray(lines[b].code, layout)) continue;
    auto line = relocateStaticLocal(lines[b], layout, symbol);
    if (!line) return std::nullopt;
    rewritten[b] = std::move(*line);
  }
  return std::make_pair(std::move(layout), std::move(rewritten));
}

}  // namespace rooflab::counters::ptx_detail
