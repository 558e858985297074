#pragma once
// PTX as lines, for the rewrite (ptx_rewrite.hpp): comments blanked, whole-word search, and `fail`,
// whose PtxRewriteError names the kernel and the line. Internal to the ptx_*.cpp files.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rooflab::counters::ptx_detail {

// One line of PTX. `code` is the line with comments blanked to spaces (same length, so a column in
// `code` is the same column in `text`): searches look at code, output keeps the text.
struct SourceLine {
  std::string text;
  std::string code;
  int number = 0;  // 1-based
};

std::vector<SourceLine> splitLines(std::string_view ptx);

// PTX identifiers: letters, digits, _ $ and a leading %.
bool isIdentifierChar(char c);

// Position of `token` in `code` as a whole word, or npos.
std::size_t findToken(std::string_view code, std::string_view token, std::size_t from = 0);

std::string trim(std::string_view s);
std::string firstToken(std::string_view code);
std::string leadingWhitespace(const std::string& text);

// Throws PtxRewriteError("kernel <kernel>, PTX line <line>: <what>"); without a kernel, the line only.
[[noreturn]] void fail(const std::string& kernel, int line, const std::string& what);

std::size_t roundUp(std::size_t value, std::size_t multiple);

// A symbol name no identifier of the module uses.
std::string uniqueSymbol(std::string_view ptx, const std::string& base);

}  // namespace rooflab::counters::ptx_detail
