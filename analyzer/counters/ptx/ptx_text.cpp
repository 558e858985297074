#include "analyzer/counters/ptx/ptx_text.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "analyzer/counters/ptx/ptx_rewrite.hpp"

namespace rooflab::counters::ptx_detail {
namespace {

std::string context(const std::string& kernel, int line) {
  std::string where = "PTX line " + std::to_string(line);
  return kernel.empty() ? where : "kernel " + kernel + ", " + where;
}

}  // namespace

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

bool isIdentifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}

std::size_t findToken(std::string_view code, std::string_view token, std::size_t from) {
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

[[noreturn]] void fail(const std::string& kernel, int line, const std::string& what) {
  throw PtxRewriteError(context(kernel, line) + ": " + what);
}

std::size_t roundUp(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

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

}  // namespace rooflab::counters::ptx_detail
