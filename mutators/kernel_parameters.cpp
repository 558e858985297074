#include "mutators/kernel_parameters.hpp"

#include <cctype>
#include <map>
#include <stdexcept>

namespace rooflab {
namespace {

bool isIdent(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The source with comments and string/char literals blanked (same length), so a scan for tokens and
// parentheses sees code only.
std::string codeOnly(const std::string& source) {
  std::string code = source;
  enum class State { code, line_comment, block_comment, string, character } state = State::code;
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char c = source[i];
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    switch (state) {
      case State::code:
        if (c == '/' && next == '/') state = State::line_comment;
        else if (c == '/' && next == '*') state = State::block_comment;
        else if (c == '"') state = State::string;
        else if (c == '\'') state = State::character;
        else continue;
        code[i] = ' ';
        break;
      case State::line_comment:
        if (c == '\n') state = State::code;
        else code[i] = ' ';
        break;
      case State::block_comment:
        code[i] = ' ';
        if (c == '*' && next == '/') {
          code[++i] = ' ';
          state = State::code;
        }
        break;
      case State::string:
      case State::character:
        code[i] = ' ';
        if (c == '\\' && i + 1 < code.size()) code[++i] = ' ';
        else if ((state == State::string && c == '"') || (state == State::character && c == '\'')) state = State::code;
        break;
    }
  }
  return code;
}

bool tokenAt(const std::string& code, std::size_t at, const std::string& word) {
  return code.compare(at, word.size(), word) == 0 && (at == 0 || !isIdent(code[at - 1])) &&
         (at + word.size() >= code.size() || !isIdent(code[at + word.size()]));
}

// The ')' that closes the '(' at `open`, or npos.
std::size_t matchingParen(const std::string& code, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == '(') ++depth;
    if (code[i] == ')' && --depth == 0) return i;
  }
  return std::string::npos;
}

std::string trimmed(const std::string& text) {
  const std::size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1);
}

}  // namespace

std::string appendKernelParameter(const std::string& source, const std::set<std::string>& kernels,
                                  const std::string& declaration, const std::string& purpose) {
  const std::string code = codeOnly(source);
  // Source range [begin, end) -> its replacement (an insertion when begin == end).
  std::map<std::size_t, std::pair<std::size_t, std::string>> edits;
  std::set<std::string> found;
  for (std::size_t at = code.find("kernel"); at != std::string::npos; at = code.find("kernel", at + 1)) {
    const std::size_t start = at >= 2 && code.compare(at - 2, 2, "__") == 0 ? at - 2 : at;
    if (!tokenAt(code, start, start == at ? "kernel" : "__kernel")) continue;
    // The name is the identifier right before the first '(' after the qualifier that does not open an
    // __attribute__((...)).
    std::size_t open = code.find('(', at);
    std::string name;
    while (open != std::string::npos) {
      std::size_t name_end = open;
      while (name_end > at && std::isspace(static_cast<unsigned char>(code[name_end - 1]))) --name_end;
      std::size_t name_begin = name_end;
      while (name_begin > at && isIdent(code[name_begin - 1])) --name_begin;
      name = code.substr(name_begin, name_end - name_begin);
      if (name != "__attribute__") break;
      const std::size_t end = matchingParen(code, open);
      open = end == std::string::npos ? end : code.find('(', end);
    }
    if (open == std::string::npos) break;
    if (!kernels.count(name)) continue;
    const std::size_t close = matchingParen(code, open);
    if (close == std::string::npos) continue;
    // A body must follow: a prototype gets no parameter (the definition does).
    std::size_t after = close + 1;
    while (after < code.size() && (std::isspace(static_cast<unsigned char>(code[after])) || code[after] == '_' ||
                                   std::isalnum(static_cast<unsigned char>(code[after])) || code[after] == '(' ||
                                   code[after] == ')' || code[after] == ','))
      ++after;  // attributes such as __attribute__((reqd_work_group_size(16,16,1)))
    if (after >= code.size() || code[after] != '{') continue;
    const std::string params = trimmed(code.substr(open + 1, close - open - 1));
    if (params.empty()) edits[close] = {close, declaration};
    else if (params == "void") edits[open + 1] = {close, declaration};  // `(void)` becomes the parameter alone
    else edits[close] = {close, ", " + declaration};
    found.insert(name);
  }
  for (const std::string& k : kernels)
    if (!found.count(k)) throw std::invalid_argument(purpose + ": no definition of kernel '" + k + "' in the source");

  std::string out;
  std::size_t copied = 0;
  for (const auto& [begin, edit] : edits) {
    out.append(source, copied, begin - copied);
    out += edit.second;
    copied = edit.first;
  }
  out.append(source, copied, std::string::npos);
  return out;
}

}  // namespace rooflab
