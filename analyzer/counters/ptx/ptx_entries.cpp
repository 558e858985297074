#include "analyzer/counters/ptx/ptx_entries.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace rooflab::counters {
namespace ptx_detail {
namespace {

std::optional<std::size_t> scalarTypeBytes(std::string_view type) {
  static const std::map<std::string_view, std::size_t> sizes = {
      {".u8", 1},  {".s8", 1},  {".b8", 1},  {".u16", 2}, {".s16", 2}, {".b16", 2}, {".f16", 2}, {".u32", 4},
      {".s32", 4}, {".b32", 4}, {".f32", 4}, {".u64", 8}, {".s64", 8}, {".b64", 8}, {".f64", 8}};
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
    } else if (space == ".const") {
      parsed.param.kind = PtxParamKind::constant_pointer;
    } else {
      // A pointer to a thread's private memory cannot come from the host.
      fail(kernel, line,
           "pointer parameter " + name + " points to " + space +
               " memory; the PTX bridge launches __global, __constant and __local pointers only");
    }
  } else if (!space.empty()) {
    fail(kernel, line, "state space " + space + " on non-pointer parameter " + name);
  }
  parsed.param.align_bytes = align.value_or(parsed.param.kind == PtxParamKind::scalar ? parsed.param.size_bytes : 0);
  return parsed;
}

// The parameter list, from the '(' at loc.open_col on the .entry line to ')' over as many lines as
// it takes: each parameter parsed, no name twice.
void readParameters(const std::vector<SourceLine>& lines, std::size_t entry_line, EntryLocation& loc) {
  const std::string& kernel = loc.signature.name;
  std::size_t line = entry_line;
  std::size_t col = loc.open_col + 1;
  std::string param_text;
  int param_line = lines[entry_line].number;
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
}

// The body: the first '{' after ')' (performance directives such as .reqntid may come between), to
// its matching '}'. A ';' first means a declaration without a body. Returns the line the scan ended on.
std::size_t findBody(const std::vector<SourceLine>& lines, EntryLocation& loc) {
  const std::string& kernel = loc.signature.name;
  std::size_t line = loc.close_line;
  std::size_t col = loc.close_col + 1;
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
  return line;
}

}  // namespace

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

    // '(' on the .entry line, as NVVM writes it.
    while (pos < code.size() && std::isspace(static_cast<unsigned char>(code[pos]))) ++pos;
    if (pos >= code.size() || code[pos] != '(')
      fail(kernel, lines[i].number, "expected '(' after '.entry " + kernel + "' on the same line");
    loc.open_col = pos;
    readParameters(lines, i, loc);
    const std::size_t last_line = findBody(lines, loc);
    i = loc.body_open_line ? loc.body_close_line : last_line;
    entries.push_back(std::move(loc));
  }
  return entries;
}

void requirePtx(const std::vector<SourceLine>& lines) {
  for (const SourceLine& line : lines)
    if (firstToken(line.code) == ".version") return;
  throw PtxRewriteError("not PTX text: no .version directive (NVIDIA's OpenCL returns PTX as CL_PROGRAM_BINARIES)");
}

}  // namespace ptx_detail

using namespace ptx_detail;

std::size_t PtxKernelSignature::localPointerCount() const {
  return static_cast<std::size_t>(std::count_if(
      params.begin(), params.end(), [](const PtxParam& p) { return p.kind == PtxParamKind::local_pointer; }));
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

}  // namespace rooflab::counters
