// A plain scan of the text is enough for an annotated mutant: prelude.cl's annotations are macros
// whose expansion depends on the mode alone, so the line that names one is a line the mode changes;
// a macro of the user's that wraps one (nbody's STORE_ACC) is named at its definition, where its
// text changes. An `#if` on the mode is decided from prelude.cl's definitions alone, and one on any
// other macro reads the same in the original and the mutant, so that every branch of it is scanned.
// A C `if (RL_IS_COMPUTE_ONLY)` is compiled in both and left to the compiler: not reported.
#include "analyzer/run/annotated_lines.hpp"

#include <cctype>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "analyzer/manifest/kernel_source.hpp"
#include "mutators/mutant_lines.hpp"

namespace rooflab {
namespace {

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The value of a preprocessor condition in one mode, when it names prelude.cl's mode macros only.
class ModeCondition {
 public:
  ModeCondition(const std::string& text, int mode) : text_(text), mode_(mode) {}
  // nullopt: the condition reads another macro, or is not understood.
  std::optional<long> value() {
    const long v = either();
    skipBlanks();
    if (!known_ || at_ != text_.size()) return std::nullopt;
    return v;
  }

 private:
  void skipBlanks() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  bool eat(const char* token) {
    skipBlanks();
    const std::string t(token);
    if (text_.compare(at_, t.size(), t) != 0) return false;
    at_ += t.size();
    return true;
  }
  std::string identifier() {
    skipBlanks();
    const std::size_t begin = at_;
    while (at_ < text_.size() && isIdentifierChar(text_[at_])) ++at_;
    return text_.substr(begin, at_ - begin);
  }
  long macro(const std::string& name) {
    if (name == "RL_MODE") return mode_;
    if (name == "RL_NORMAL") return 0;
    if (name == "RL_COMPUTE_ONLY") return 1;
    if (name == "RL_MEMORY_ONLY") return 2;
    if (name == "RL_IS_COMPUTE_ONLY") return mode_ == 1;
    if (name == "RL_IS_MEMORY_ONLY") return mode_ == 2;
    known_ = false;
    return 0;
  }
  long primary() {
    if (eat("(")) {
      const long v = either();
      if (!eat(")")) known_ = false;
      return v;
    }
    if (eat("!")) return !primary();
    skipBlanks();
    if (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      const std::string digits = identifier();  // with a suffix such as 1u
      return std::strtol(digits.c_str(), nullptr, 0);
    }
    const std::string name = identifier();
    if (name.empty()) {
      known_ = false;
      return 0;
    }
    if (name != "defined") return macro(name);
    const bool parenthesised = eat("(");
    const std::string defined = identifier();
    if (parenthesised && !eat(")")) known_ = false;
    macro(defined);  // only prelude.cl's own names are known to be defined
    return 1;
  }
  long relation() {
    long v = primary();
    for (;;) {
      if (eat("<=")) v = v <= primary();
      else if (eat(">=")) v = v >= primary();
      else if (eat("<")) v = v < primary();
      else if (eat(">")) v = v > primary();
      else return v;
    }
  }
  long equality() {
    long v = relation();
    for (;;) {
      if (eat("==")) v = v == relation();
      else if (eat("!=")) v = v != relation();
      else return v;
    }
  }
  long both() {
    long v = equality();
    while (eat("&&")) v = equality() && v;  // both sides read: an unknown one makes the whole unknown
    return v;
  }
  long either() {
    long v = both();
    while (eat("||")) v = both() || v;
    return v;
  }

  const std::string& text_;
  int mode_;
  std::size_t at_ = 0;
  bool known_ = true;
};

// One `#if ... #endif`: whether its current branch is compiled in the original and in the mutant.
struct ConditionalBranches {
  bool outer_original = true, outer_mutant = true;  // whether the code around it is compiled
  bool known = true;                                // its conditions read only the mode
  bool taken_original = false, taken_mutant = false;
  bool original = true, mutant = true;
};

// Opens or moves to a branch whose condition is `condition` (#if, #elif).
void enterBranch(ConditionalBranches& b, const std::string& condition, int mode) {
  const std::optional<long> in_original = ModeCondition(condition, 0).value();
  const std::optional<long> in_mutant = ModeCondition(condition, mode).value();
  if (!b.known || !in_original || !in_mutant) {
    b.known = false;  // the same in both programs, whichever branch the defines choose
    b.original = b.outer_original;
    b.mutant = b.outer_mutant;
    return;
  }
  b.original = b.outer_original && !b.taken_original && *in_original;
  b.mutant = b.outer_mutant && !b.taken_mutant && *in_mutant;
  b.taken_original = b.taken_original || *in_original;
  b.taken_mutant = b.taken_mutant || *in_mutant;
}

// Follows a conditional directive (`word` after the '#', `rest` after the word); false for any other line.
bool followConditional(std::vector<ConditionalBranches>& stack, const std::string& word, const std::string& rest,
                       int mode) {
  if (word == "if" || word == "ifdef" || word == "ifndef") {
    ConditionalBranches b;
    if (!stack.empty()) {
      b.outer_original = stack.back().original;
      b.outer_mutant = stack.back().mutant;
    }
    const std::string condition = word == "if" ? rest : (word == "ifdef" ? "defined(" : "!defined(") + rest + ")";
    enterBranch(b, condition, mode);
    stack.push_back(b);
    return true;
  }
  if (stack.empty()) return word == "elif" || word == "else" || word == "endif";  // unbalanced: the compiler says so
  ConditionalBranches& b = stack.back();
  if (word == "elif") enterBranch(b, rest, mode);
  else if (word == "else") enterBranch(b, "1", mode);
  else if (word == "endif") stack.pop_back();
  else return false;
  return true;
}

// What an annotation does in the mutant of `mode`; nullopt for a name that is none, or unchanged there.
std::optional<MutantLineChangeKind> annotationKind(const std::string& name, RunMode mode) {
  if (mode == RunMode::compute_only) {
    if (name == "RL_LOAD" || name == "RL_LOAD4") return MutantLineChangeKind::made_up;
    if (name == "RL_STORE") return MutantLineChangeKind::guarded;
  }
  if (mode == RunMode::memory_only && (name == "RL_ADD" || name == "RL_MUL" || name == "RL_FMA"))
    return MutantLineChangeKind::folded;
  return std::nullopt;
}

// The annotations used on one line compiled in the mutant.
void scanAnnotations(const std::string& line, const SourceLine& where, RunMode mode, std::vector<LineChangeAt>& out) {
  for (std::size_t at = 0; at < line.size();) {
    if (!isIdentifierChar(line[at])) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < line.size() && isIdentifierChar(line[end])) ++end;
    if (const auto kind = annotationKind(line.substr(at, end - at), mode)) out.push_back({where, *kind});
    at = end;
  }
}

void scanAnnotatedFile(const SourceFileText& file, RunMode mode, std::vector<LineChangeAt>& out) {
  std::string joined;
  for (const std::string& line : file.lines) joined += line + "\n";
  std::istringstream text(withoutComments(joined));
  std::vector<ConditionalBranches> stack;
  const int mode_number = static_cast<int>(mode);
  int number = 0;
  for (std::string line; std::getline(text, line);) {
    const SourceLine where{file.path, ++number};
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    if (line[first] == '#') {
      std::size_t word_at = line.find_first_not_of(" \t", first + 1), word_end = word_at;
      while (word_end < line.size() && isIdentifierChar(line[word_end])) ++word_end;
      const std::string word = word_at == std::string::npos ? "" : line.substr(word_at, word_end - word_at);
      const std::string rest = word_end < line.size() ? line.substr(word_end) : "";
      if (followConditional(stack, word, rest, mode_number)) continue;
    }
    const bool in_original = stack.empty() || stack.back().original;
    const bool in_mutant = stack.empty() || stack.back().mutant;
    if (in_original && !in_mutant) out.push_back({where, MutantLineChangeKind::removed});
    if (in_mutant) scanAnnotations(line, where, mode, out);
  }
}

}  // namespace

std::vector<MutantLineChange> annotatedLineChanges(const std::vector<SourceFileText>& files, RunMode mode) {
  if (!isMutantMode(mode)) return {};
  std::vector<LineChangeAt> changes;
  for (const SourceFileText& file : files) scanAnnotatedFile(file, mode, changes);
  return collateLineChanges(changes);
}

}  // namespace rooflab
