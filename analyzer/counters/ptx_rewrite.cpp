#include "analyzer/counters/ptx_rewrite.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <tuple>
#include <sstream>

namespace rooflab::counters {
namespace {

// One line of PTX. `code` is the line with comments blanked to spaces (same length, so a column in
// `code` is the same column in `text`): searches look at code, output keeps the text.
struct SourceLine {
  std::string text;
  std::string code;
  int number = 0;  // 1-based
};

std::vector<SourceLine> splitLines(std::string_view ptx) {
  std::vector<SourceLine> lines;
  bool in_block_comment = false;
  std::size_t start = 0;
  int number = 1;
  while (start <= ptx.size()) {
    std::size_t end = ptx.find('\n', start);
    if (end == std::string_view::npos) end = ptx.size();
    std::string text(ptx.substr(start, end - start));
    if (!text.empty() && text.back() == '\r') text.pop_back();
    std::string code = text;
    for (std::size_t i = 0; i < code.size(); ++i) {
      if (in_block_comment) {
        if (code.compare(i, 2, "*/") == 0) {
          code[i] = code[i + 1] = ' ';
          ++i;
          in_block_comment = false;
        } else {
          code[i] = ' ';
        }
      } else if (code.compare(i, 2, "//") == 0) {
        std::fill(code.begin() + static_cast<std::ptrdiff_t>(i), code.end(), ' ');
        break;
      } else if (code.compare(i, 2, "/*") == 0) {
        code[i] = code[i + 1] = ' ';
        ++i;
        in_block_comment = true;
      }
    }
    lines.push_back({std::move(text), std::move(code), number++});
    if (end == ptx.size()) break;
    start = end + 1;
  }
  // A trailing newline leaves one empty line behind; the output adds its own.
  if (!lines.empty() && lines.back().text.empty()) lines.pop_back();
  return lines;
}

// PTX identifiers: letters, digits, _ $ and a leading %.
bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}

// Position of `token` in `code` as a whole word, or npos.
std::size_t findToken(std::string_view code, std::string_view token, std::size_t from = 0) {
  for (std::size_t pos = code.find(token, from); pos != std::string_view::npos; pos = code.find(token, pos + 1)) {
    const bool starts_word = pos == 0 || !isIdentifierChar(code[pos - 1]) || token.front() == '.';
    const std::size_t after = pos + token.size();
    const bool ends_word = after >= code.size() || !isIdentifierChar(code[after]);
    if (starts_word && ends_word) return pos;
  }
  return std::string_view::npos;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string firstToken(std::string_view code) {
  std::istringstream in{std::string(code)};
  std::string token;
  in >> token;
  return token;
}

std::string context(const std::string& kernel, int line) {
  std::string where = "PTX line " + std::to_string(line);
  return kernel.empty() ? where : "kernel " + kernel + ", " + where;
}

[[noreturn]] void fail(const std::string& kernel, int line, const std::string& what) {
  throw PtxRewriteError(context(kernel, line) + ": " + what);
}

std::optional<std::size_t> scalarTypeBytes(std::string_view type) {
  static const std::map<std::string_view, std::size_t> sizes = {
      {".u8", 1},  {".s8", 1},  {".b8", 1},  {".u16", 2}, {".s16", 2}, {".b16", 2}, {".f16", 2},
      {".u32", 4}, {".s32", 4}, {".b32", 4}, {".f32", 4}, {".u64", 8}, {".s64", 8}, {".b64", 8},
      {".f64", 8}};
  const auto it = sizes.find(type);
  if (it == sizes.end()) return std::nullopt;
  return it->second;
}

std::size_t parseCount(const std::string& text, const std::string& kernel, int line, const std::string& what) {
  try {
    std::size_t used = 0;
    const unsigned long long value = std::stoull(text, &used);
    if (used == text.size()) return static_cast<std::size_t>(value);
  } catch (const std::exception&) {
  }
  fail(kernel, line, "expected a number for " + what + ", found '" + text + "'");
}

// One `.param ...` of an entry's parameter list.
struct ParsedParam {
  PtxParam param;
  std::string type;  // .u64, .f32, ...
  std::string text;  // as declared, for scalars that pass through unchanged
};

ParsedParam parseParam(const std::string& text, const std::string& kernel, int line) {
  std::istringstream in(text);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  if (tokens.empty() || tokens[0] != ".param") fail(kernel, line, "expected '.param', found '" + text + "'");

  ParsedParam parsed;
  parsed.text = text;
  std::optional<std::size_t> align;
  bool is_pointer = false;
  std::string space;
  std::string name;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == ".align") {
      if (i + 1 >= tokens.size()) fail(kernel, line, "'.align' without a value in '" + text + "'");
      align = parseCount(tokens[++i], kernel, line, ".align");
    } else if (t == ".ptr") {
      is_pointer = true;
    } else if (t == ".global" || t == ".shared" || t == ".const" || t == ".local") {
      space = t;
    } else if (scalarTypeBytes(t)) {
      parsed.type = t;
    } else if (!t.empty() && t[0] != '.' && i + 1 == tokens.size()) {
      name = t;
    } else {
      fail(kernel, line, "unsupported '" + t + "' in kernel parameter '" + text + "'");
    }
  }
  if (name.empty()) fail(kernel, line, "kernel parameter without a name: '" + text + "'");
  if (parsed.type.empty()) fail(kernel, line, "kernel parameter without a type: '" + text + "'");

  std::size_t count = 1;
  if (const std::size_t bracket = name.find('['); bracket != std::string::npos) {
    if (name.back() != ']') fail(kernel, line, "malformed array parameter '" + name + "'");
    count = parseCount(name.substr(bracket + 1, name.size() - bracket - 2), kernel, line, "array size");
    name = name.substr(0, bracket);
  }
  parsed.param.name = name;
  parsed.param.size_bytes = *scalarTypeBytes(parsed.type) * count;

  if (is_pointer) {
    if (parsed.param.size_bytes != 8)
      fail(kernel, line, "pointer parameter " + name + " is not 64-bit; the bridge needs .address_size 64");
    if (space == ".shared") {
      parsed.param.kind = PtxParamKind::local_pointer;
    } else if (space == ".global" || space.empty()) {
      parsed.param.kind = PtxParamKind::global_pointer;
    } else {
      // A __constant argument: NVIDIA's OpenCL would read it with ld.const, which a cuMemAlloc buffer
      // cannot back. Refuse rather than run something that reads the wrong memory.
      fail(kernel, line, "pointer parameter " + name + " points to " + space +
                             " memory (a __constant argument?); the PTX bridge supports __global and __local only");
    }
  } else if (!space.empty()) {
    fail(kernel, line, "state space " + space + " on non-pointer parameter " + name);
  }
  parsed.param.align_bytes = align.value_or(parsed.param.kind == PtxParamKind::scalar ? parsed.param.size_bytes : 0);
  return parsed;
}

// Where one `.entry` sits in the line list, and what it declares.
struct EntryLocation {
  PtxKernelSignature signature;
  std::vector<ParsedParam> params;
  std::size_t entry_line = 0;   // index into lines
  std::size_t open_col = 0;     // column of '(' on entry_line
  std::size_t close_line = 0;   // index of the line holding ')'
  std::size_t close_col = 0;
  std::optional<std::size_t> body_open_line;  // index of the line holding the body's '{' (none: a declaration)
  std::size_t body_close_line = 0;            // index of the line holding the matching '}'
};

std::vector<EntryLocation> locateEntries(const std::vector<SourceLine>& lines) {
  std::vector<EntryLocation> entries;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::size_t entry_col = findToken(lines[i].code, ".entry");
    if (entry_col == std::string::npos) continue;

    EntryLocation loc;
    loc.entry_line = i;
    loc.signature.line = lines[i].number;
    const std::string& code = lines[i].code;
    std::size_t pos = entry_col + 6;
    while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos]))) ++pos;
    const std::size_t name_begin = pos;
    while (pos < code.size() && isIdentifierChar(code[pos])) ++pos;
    loc.signature.name = code.substr(name_begin, pos - name_begin);
    const std::string& kernel = loc.signature.name;
    if (kernel.empty()) fail("", lines[i].number, "'.entry' without a kernel name");

    // The parameter list: '(' on the .entry line (as NVVM writes it), then to ')' over as many lines
    // as it takes.
    while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos]))) ++pos;
    if (pos >= code.size() || code[pos] != '(')
      fail(kernel, lines[i].number, "expected '(' after '.entry " + kernel + "' on the same line");
    loc.open_col = pos;
    std::size_t line = i;
    std::size_t col = pos + 1;
    std::string param_text;
    int param_line = lines[i].number;
    std::vector<std::pair<std::string, int>> raw_params;  // text, line
    for (bool closed = false; !closed;) {
      if (col >= lines[line].code.size()) {
        if (++line >= lines.size()) fail(kernel, loc.signature.line, "parameter list never closes");
        col = 0;
        param_text += ' ';
        continue;
      }
      const char c = lines[line].code[col++];
      if (c != ',' && c != ')') {
        if (trim(param_text).empty()) param_line = lines[line].number;
        param_text += c;
        continue;
      }
      if (!trim(param_text).empty()) raw_params.emplace_back(trim(param_text), param_line);
      else if (c == ',' || !raw_params.empty()) fail(kernel, lines[line].number, "empty parameter in the list");
      param_text.clear();
      if (c == ')') {
        loc.close_line = line;
        loc.close_col = col - 1;
        closed = true;
      }
    }
    for (const auto& [text, number] : raw_params) {
      loc.params.push_back(parseParam(text, kernel, number));
      loc.signature.params.push_back(loc.params.back().param);
    }
    for (std::size_t a = 0; a < loc.params.size(); ++a)
      for (std::size_t b = a + 1; b < loc.params.size(); ++b)
        if (loc.params[a].param.name == loc.params[b].param.name)
          fail(kernel, loc.signature.line, "parameter " + loc.params[a].param.name + " declared twice");

    // The body: the first '{' after ')' (performance directives such as .reqntid may come between), to
    // its matching '}'. A ';' first means a declaration without a body.
    line = loc.close_line;
    col = loc.close_col + 1;
    int depth = 0;
    bool done = false;
    while (!done) {
      if (line >= lines.size()) fail(kernel, loc.signature.line, "body of '.entry " + kernel + "' never closes");
      const std::string& body_code = lines[line].code;
      for (; col < body_code.size() && !done; ++col) {
        const char c = body_code[col];
        if (!loc.body_open_line) {
          if (c == ';') done = true;
          if (c == '{') {
            loc.body_open_line = line;
            depth = 1;
          }
          continue;
        }
        if (c == '{') ++depth;
        if (c == '}' && --depth == 0) {
          loc.body_close_line = line;
          done = true;
        }
      }
      if (!done) {
        ++line;
        col = 0;
      }
    }
    i = loc.body_open_line ? loc.body_close_line : line;
    entries.push_back(std::move(loc));
  }
  return entries;
}

void requirePtx(const std::vector<SourceLine>& lines) {
  for (const SourceLine& line : lines)
    if (firstToken(line.code) == ".version") return;
  throw PtxRewriteError("not PTX text: no .version directive (NVIDIA's OpenCL returns PTX as CL_PROGRAM_BINARIES)");
}

// `.target sm_90, texmode_independent` -> `.target sm_90`.
std::string dropTexmodeIndependent(const SourceLine& line) {
  const std::size_t pos = findToken(line.code, "texmode_independent");
  if (pos == std::string::npos) return line.text;
  std::size_t begin = pos, end = pos + std::string_view("texmode_independent").size();
  std::size_t before = begin;
  while (before > 0 && std::isspace(static_cast<unsigned char>(line.code[before - 1]))) --before;
  if (before > 0 && line.code[before - 1] == ',') {
    begin = before - 1;
    while (begin > 0 && std::isspace(static_cast<unsigned char>(line.code[begin - 1]))) --begin;
  } else {
    while (end < line.code.size() && std::isspace(static_cast<unsigned char>(line.code[end]))) ++end;
    if (end < line.code.size() && line.code[end] == ',') ++end;
    while (end < line.code.size() && std::isspace(static_cast<unsigned char>(line.code[end]))) ++end;
  }
  return line.text.substr(0, begin) + line.text.substr(end);
}

// NVIDIA's OpenCL passes launch geometry in environment registers (read off the PTX of rooflab's
// kernels on an H100, driver 580): %envreg0-2 are added to %ctaid (a group-id offset, for launches
// the driver splits), %envreg3-5 to the global id (the global work offset), and %envreg6-8 are
// get_num_groups(). The bridge launches one grid without offsets, so 0-5 become 0 and 6-8 the grid
// size. Any other register is refused: a wrong guess once turned a grid-stride loop's step into 0
// and hung the GPU.
std::string replaceEnvRegisters(const std::string& text, const std::string& code) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (code.compare(i, 7, "%envreg") == 0) {
      std::size_t end = i + 7;
      while (end < code.size() && std::isdigit(static_cast<unsigned char>(code[end]))) ++end;
      const bool whole = end > i + 7 && (end >= code.size() || !isIdentifierChar(code[end]));
      if (whole) {
        const int index = std::stoi(code.substr(i + 7, end - i - 7));
        if (index <= 5)
          out += '0';
        else if (index <= 8)
          out += std::string("%nctaid.") + "xyz"[index - 6];
        else
          throw std::runtime_error("the PTX reads %envreg" + std::to_string(index) +
                                   ", an OpenCL environment register whose meaning the bridge does not know "
                                   "(%envreg0-8 are supported: group and global offsets, number of groups)");
        i = end;
        continue;
      }
    }
    out += text[i++];
  }
  return out;
}

std::size_t roundUp(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

std::size_t localAlignment(const PtxParam& param) { return std::max<std::size_t>(16, param.align_bytes); }

// A symbol name no identifier of the module uses.
std::string uniqueSymbol(std::string_view ptx, const std::string& base) {
  std::string candidate = base;
  for (int n = 1; ptx.find(candidate) != std::string_view::npos; ++n) candidate = base + "_" + std::to_string(n);
  return candidate;
}

std::string leadingWhitespace(const std::string& text) {
  std::size_t n = 0;
  while (n < text.size() && (text[n] == ' ' || text[n] == '\t')) ++n;
  return text.substr(0, n);
}

// `ld.param.u64 %rd3, [dyn_param_2];` -> the register, when the line is exactly that load of `param`.
std::optional<std::string> localPointerLoadTarget(const std::string& code, const std::string& param) {
  std::istringstream in(code);
  std::string op, reg, address, rest;
  in >> op;
  if (op != "ld.param.u64" && op != "ld.param.b64" && op != "ld.param.s64") return std::nullopt;
  std::string operands;
  std::getline(in, operands);
  // Normalise spacing: "%rd3, [ dyn_param_2 ] ;" -> "%rd3,[dyn_param_2];"
  std::string compact;
  for (char c : operands)
    if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
  const std::string suffix = ",[" + param + "];";
  if (compact.size() <= suffix.size() || compact.compare(compact.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  reg = compact.substr(0, compact.size() - suffix.size());
  if (reg.empty() || reg[0] != '%') return std::nullopt;
  for (char c : reg)
    if (!isIdentifierChar(c)) return std::nullopt;
  return reg;
}


// NVIDIA's OpenCL compiler never places a __local object at shared address 0 (a __local pointer must
// not equal NULL): its ptxas reports 4 bytes more shared memory than the PTX declares for a kernel with
// 4-byte-aligned arrays, 16 more for 16-byte-aligned ones (seen on an H100, driver 580, with
// -cl-nv-verbose). So under OpenCL a `local float t[16][16]` starts at 4 mod 16, and ptxas cannot merge
// its scalar loads into 64- or 128-bit ones, which the CUDA driver, placing the same array at 0, does:
// the bridged tiled matmuls ran 1.2x to 3x faster than under OpenCL. The bridge therefore lays the
// demoted arrays out itself, as OpenCL does: 4 reserved bytes, then each array in declaration order at
// its alignment, all inside one array aligned as the most aligned of them.
struct StaticLocalLayout {
  std::map<std::string, std::size_t> offsets;  // demoted array -> byte offset in the combined array
  std::set<std::size_t> declaration_lines;     // indices into lines
  std::size_t total_bytes = 0;
  std::size_t align_bytes = 4;  // the largest array alignment: ptxas then sizes it as OpenCL's does
};

constexpr std::size_t kOpenClReservedSharedBytes = 4;

// `.shared .align 4 .b8 mm_$_a[1024];` -> {name, align, bytes}.
std::optional<std::tuple<std::string, std::size_t, std::size_t>> demotedSharedArray(const std::string& code) {
  std::istringstream in(code);
  std::string space, align_kw, align, type, declarator, extra;
  if (!(in >> space >> align_kw >> align >> type >> declarator) || (in >> extra)) return std::nullopt;
  if (space != ".shared" || align_kw != ".align" || type != ".b8") return std::nullopt;
  const std::size_t open = declarator.find('[');
  if (open == std::string::npos || open == 0 || declarator.size() < open + 4 || declarator.substr(declarator.size() - 2) != "];")
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

// The OpenCL layout of one entry's demoted arrays, with every body line rewritten; nullopt when the
// entry has none, or declares or uses one in a form relocateStaticLocal does not know.
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

}  // namespace

std::size_t PtxKernelSignature::localPointerCount() const {
  return static_cast<std::size_t>(std::count_if(params.begin(), params.end(),
                                                [](const PtxParam& p) { return p.kind == PtxParamKind::local_pointer; }));
}

std::string ptxTextFromProgramBinary(std::string_view binary) {
  const std::size_t nul = binary.find('\0');
  return std::string(nul == std::string_view::npos ? binary : binary.substr(0, nul));
}

std::vector<PtxKernelSignature> parseKernelSignatures(std::string_view ptx) {
  const std::vector<SourceLine> lines = splitLines(ptxTextFromProgramBinary(ptx));
  requirePtx(lines);
  std::vector<PtxKernelSignature> kernels;
  for (EntryLocation& entry : locateEntries(lines)) kernels.push_back(std::move(entry.signature));
  return kernels;
}

DynamicLocalLayout layoutDynamicLocal(const PtxKernelSignature& kernel, const std::vector<std::size_t>& local_arg_bytes) {
  if (local_arg_bytes.size() != kernel.localPointerCount())
    throw PtxRewriteError("kernel " + kernel.name + ": " + std::to_string(kernel.localPointerCount()) +
                          " __local arguments, but " + std::to_string(local_arg_bytes.size()) + " sizes were given");
  DynamicLocalLayout layout;
  std::size_t next = 0;
  std::size_t index = 0;
  for (const PtxParam& param : kernel.params) {
    if (param.kind != PtxParamKind::local_pointer) continue;
    const std::size_t offset = roundUp(next, localAlignment(param));
    layout.offsets_bytes.push_back(offset);
    next = offset + local_arg_bytes[index++];
  }
  layout.total_bytes = next;
  return layout;
}

CudaReadyPtx rewriteForCuda(std::string_view opencl_ptx, const LocalArgBytesByKernel& local_arg_bytes,
                            const std::set<std::string>& keep_kernels) {
  const std::string text = ptxTextFromProgramBinary(opencl_ptx);
  const std::vector<SourceLine> lines = splitLines(text);
  requirePtx(lines);
  const std::vector<EntryLocation> entries = locateEntries(lines);

  CudaReadyPtx result;
  std::size_t extern_align = 16;
  for (const EntryLocation& entry : entries) {
    result.kernels.push_back(entry.signature);
    for (const PtxParam& p : entry.signature.params)
      if (p.kind == PtxParamKind::local_pointer) extern_align = std::max(extern_align, localAlignment(p));
  }
  const bool any_local = std::any_of(entries.begin(), entries.end(),
                                     [](const EntryLocation& e) { return e.signature.localPointerCount() > 0; });
  if (any_local) result.dynamic_local_symbol = uniqueSymbol(text, "rooflab_dynamic_local");

  // Offsets of each kernel's local pointer parameters, by parameter name.
  std::map<std::string, std::map<std::string, std::size_t>> local_offsets;
  for (const EntryLocation& entry : entries) {
    const PtxKernelSignature& sig = entry.signature;
    const std::size_t count = sig.localPointerCount();
    if (count == 0) continue;
    std::vector<std::size_t> offsets;
    if (const auto sizes = local_arg_bytes.find(sig.name); sizes != local_arg_bytes.end()) {
      if (sizes->second.size() != count)
        fail(sig.name, sig.line, std::to_string(count) + " __local arguments, but " +
                                     std::to_string(sizes->second.size()) + " sizes were given");
      DynamicLocalLayout layout = layoutDynamicLocal(sig, sizes->second);
      offsets = layout.offsets_bytes;
      result.local_layouts[sig.name] = std::move(layout);
    } else if (count == 1) {
      offsets = {0};
    } else {
      fail(sig.name, sig.line, std::to_string(count) +
                                   " __local arguments: their sizes are needed to place them in dynamic shared memory");
    }
    std::size_t index = 0;
    for (const PtxParam& p : sig.params)
      if (p.kind == PtxParamKind::local_pointer) local_offsets[sig.name][p.name] = offsets[index++];
  }

  const std::string static_local_symbol = uniqueSymbol(text, "rooflab_opencl_local");
  std::ostringstream out;
  std::size_t next_entry = 0;
  bool extern_declared = false;
  std::optional<std::size_t> extern_after_line;  // after .address_size, else after .target
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string directive = firstToken(lines[i].code);
    if (directive == ".address_size" || (directive == ".target" && !extern_after_line)) extern_after_line = i;
  }
  auto declareExtern = [&] {
    if (!any_local || extern_declared) return;
    out << "\n// rooflab PTX bridge: OpenCL __local arguments live in the launch's dynamic shared memory.\n"
        << ".extern .shared .align " << extern_align << " .b8 " << result.dynamic_local_symbol << "[];\n";
    extern_declared = true;
  };

  for (std::size_t i = 0; i < lines.size(); ++i) {
    const SourceLine& line = lines[i];
    if (next_entry < entries.size() && i == entries[next_entry].entry_line) {
      const EntryLocation& entry = entries[next_entry++];
      const std::string& kernel = entry.signature.name;
      if (!keep_kernels.empty() && keep_kernels.count(kernel) == 0) {
        i = entry.body_open_line ? entry.body_close_line : entry.close_line;
        continue;
      }
      declareExtern();  // a module without .target would reach here first; PTX requires it anyway

      // The parameter list, rewritten in NVVM's layout: one parameter a line.
      out << line.text.substr(0, entry.open_col) << '(';
      bool first = true;
      for (const ParsedParam& p : entry.params) {
        if (p.param.kind == PtxParamKind::local_pointer) continue;
        out << (first ? "\n" : ",\n") << '\t';
        if (p.param.kind == PtxParamKind::global_pointer) {
          out << ".param " << p.type << ' ' << p.param.name;
        } else {
          out << p.text;
        }
        first = false;
      }
      if (!first) out << '\n';
      out << ')' << replaceEnvRegisters(lines[entry.close_line].text.substr(entry.close_col + 1),
                                     lines[entry.close_line].code.substr(entry.close_col + 1))
          << '\n';
      if (!entry.body_open_line) {
        i = entry.close_line;
        continue;
      }

      // Lines between ')' and the end of the body.
      const auto offsets = local_offsets.find(kernel);
      const auto static_local =
          planOpenClStaticLocal(lines, entry.close_line + 1, entry.body_close_line, static_local_symbol);
      if (static_local) result.opencl_static_local_bytes[kernel] = static_local->first.total_bytes;
      for (std::size_t b = entry.close_line + 1; b <= entry.body_close_line; ++b) {
        const SourceLine& body = lines[b];
        if (static_local) {
          const StaticLocalLayout& layout = static_local->first;
          if (layout.declaration_lines.count(b)) {
            if (b == *layout.declaration_lines.begin())
              out << leadingWhitespace(body.text) << ".shared .align " << layout.align_bytes << " .b8 " << static_local_symbol << '['
                  << layout.total_bytes << "];  // rooflab: OpenCL's layout of the kernel's __local arrays\n";
            continue;
          }
          if (const auto it = static_local->second.find(b); it != static_local->second.end()) {
            out << replaceEnvRegisters(it->second, it->second) << '\n';
            continue;
          }
        }
        bool replaced = false;
        if (offsets != local_offsets.end()) {
          for (const auto& [param, offset] : offsets->second) {
            if (findToken(body.code, param) == std::string::npos) continue;
            const std::optional<std::string> reg = localPointerLoadTarget(body.code, param);
            if (!reg)
              fail(kernel, body.number, "__local parameter " + param +
                                            " is used other than by 'ld.param.u64 %rd, [" + param +
                                            "];', which the PTX bridge cannot rewrite: '" + trim(body.text) + "'");
            const std::string indent = leadingWhitespace(body.text);
            out << indent << "mov.u64 \t" << *reg << ", " << result.dynamic_local_symbol << ";\n";
            if (offset > 0) out << indent << "add.s64 \t" << *reg << ", " << *reg << ", " << offset << ";\n";
            replaced = true;
            break;
          }
        }
        if (!replaced) out << replaceEnvRegisters(body.text, body.code) << '\n';
      }
      i = entry.body_close_line;
      continue;
    }

    const std::string directive = firstToken(line.code);
    out << (directive == ".target" ? dropTexmodeIndependent(line) : replaceEnvRegisters(line.text, line.code)) << '\n';
    if (extern_after_line && i == *extern_after_line) declareExtern();
  }
  result.ptx = out.str();
  return result;
}

// "ptxas info    : Compiling entry function 'k' for 'sm_90a'" ... "ptxas info    : Used 32 registers, ..."
// (NVIDIA's -cl-nv-verbose build log) -> {k: 32}.
std::map<std::string, int> ptxasRegistersFromBuildLog(const std::string& log) {
  std::map<std::string, int> registers;
  std::istringstream in(log);
  std::string line, kernel;
  while (std::getline(in, line)) {
    const std::string entry = "Compiling entry function '";
    if (const auto at = line.find(entry); at != std::string::npos) {
      const auto end = line.find('\'', at + entry.size());
      kernel = end == std::string::npos ? "" : line.substr(at + entry.size(), end - at - entry.size());
      continue;
    }
    const std::string used = "Used ";
    if (const auto at = line.find(used); at != std::string::npos && !kernel.empty() && line.find(" registers") != std::string::npos) {
      try {
        registers[kernel] = std::stoi(line.substr(at + used.size()));
      } catch (const std::exception&) {
      }
      kernel.clear();
    }
  }
  return registers;
}

}  // namespace rooflab::counters
