#include "analyzer/manifest/kernel_signature.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

namespace rooflab {
namespace {

bool isIdentifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool isIdentifierToken(const std::string& t) { return !t.empty() && isIdentifierStart(t[0]); }

// The tokens of C text: identifiers, numbers, and every other character on its own; string and
// character literals become one token each. Preprocessor directives are not tokens: each becomes a
// lone "#", so that a parameter list holding one can be told apart, and its line goes to `directives`.
std::vector<std::string> tokenize(const std::string& text, std::vector<std::string>* directives = nullptr) {
  std::vector<std::string> tokens;
  bool line_start = true;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') line_start = true;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '#' && line_start) {
      std::string line;
      for (; i < text.size() && text[i] != '\n'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') ++i;  // a continued line
        else line += text[i];
      }
      tokens.push_back("#");
      if (directives) directives->push_back(line);
      continue;
    }
    line_start = false;
    std::size_t end = i + 1;
    if (isIdentifierChar(c)) {
      while (end < text.size() && isIdentifierChar(text[end])) ++end;
    } else if (c == '"' || c == '\'') {
      while (end < text.size() && text[end] != c) end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
    }
    tokens.push_back(text.substr(i, end - i));
    i = end;
  }
  return tokens;
}

// What a name stands for in a kernel's parameter list: the token sequences it may expand to (several
// when the source defines it differently under #if branches), or nothing certain.
struct NameMeaning {
  std::vector<std::vector<std::string>> expansions;
  bool uncertain = false;  // a function-like macro
};
using NameTable = std::map<std::string, NameMeaning>;

void addMeaning(NameTable& names, const std::string& name, std::vector<std::string> expansion) {
  NameMeaning& meaning = names[name];
  if (std::find(meaning.expansions.begin(), meaning.expansions.end(), expansion) == meaning.expansions.end())
    meaning.expansions.push_back(std::move(expansion));
}

// `#define NAME text` and `#define NAME(args) text` lines of the source.
void addSourceMacros(const std::vector<std::string>& directives, NameTable& names) {
  for (const std::string& line : directives) {
    const std::vector<std::string> words = tokenize(line.substr(1));
    if (words.size() < 2 || words[0] != "define" || !isIdentifierToken(words[1])) continue;
    const std::size_t name_end = line.find(words[1], line.find("define") + 6) + words[1].size();
    if (name_end < line.size() && line[name_end] == '(') {
      names[words[1]].uncertain = true;
      continue;
    }
    addMeaning(names, words[1], std::vector<std::string>(words.begin() + 2, words.end()));
  }
}

// `typedef <type> NAME;`: NAME stands for the type; a struct or union body becomes the word "struct".
void addTypedefs(const std::vector<std::string>& tokens, NameTable& names) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] != "typedef") continue;
    std::vector<std::string> type;
    int depth = 0;
    std::size_t j = i + 1;
    for (; j < tokens.size() && !(depth == 0 && tokens[j] == ";"); ++j) {
      if (tokens[j] == "{" && depth++ == 0) type.push_back("struct");
      if (depth == 0 && tokens[j] != "}" && tokens[j] != "struct" && tokens[j] != "union") type.push_back(tokens[j]);
      if (tokens[j] == "}") --depth;
    }
    if (type.size() >= 2 && isIdentifierToken(type.back()) && type.back() != "struct") {
      const std::string name = type.back();
      type.pop_back();
      addMeaning(names, name, type);
    }
    i = j;
  }
}

bool isQualifier(const std::string& word) {
  static const std::set<std::string> kQualifiers = {
      "const",      "volatile",   "restrict",    "__restrict",   "__restrict__", "read_only",
      "write_only", "read_write", "__read_only", "__write_only", "__read_write", "__const",
  };
  return kQualifiers.count(word) > 0;
}

std::optional<KernelParameter::Space> addressSpace(const std::string& word) {
  if (word == "__global" || word == "global") return KernelParameter::Space::global;
  if (word == "__local" || word == "local") return KernelParameter::Space::local;
  if (word == "__constant" || word == "constant") return KernelParameter::Space::constant;
  if (word == "__private" || word == "private") return KernelParameter::Space::private_;
  return std::nullopt;
}

// The OpenCL C type that the words of a declaration name ("unsigned int" -> uint), in the spelling
// ElementType reads; size_t and its kin are 64 bits, as on every device rooflab measures.
std::string typeSpelling(const std::vector<std::string>& words) {
  std::string joined;
  for (const std::string& w : words) joined += (joined.empty() ? "" : " ") + w;
  static const std::map<std::string, std::string> kSpellings = {
      {"unsigned", "uint"},         {"unsigned int", "uint"},   {"signed", "int"},
      {"signed int", "int"},        {"unsigned char", "uchar"}, {"signed char", "char"},
      {"unsigned short", "ushort"}, {"short int", "short"},     {"unsigned short int", "ushort"},
      {"unsigned long", "ulong"},   {"long int", "long"},       {"unsigned long int", "ulong"},
      {"size_t", "ulong"},          {"uintptr_t", "ulong"},     {"ptrdiff_t", "long"},
      {"intptr_t", "long"},
  };
  const auto it = kSpellings.find(joined);
  return it == kSpellings.end() ? joined : it->second;
}

// Types a parameter may have whose values are not a manifest's scalars or buffers, or that this
// reading does not size: left to the OpenCL runtime.
bool isOpaqueType(const std::string& word) {
  return word.rfind("image", 0) == 0 || word == "sampler_t" || word == "event_t" || word == "queue_t" ||
         word == "pipe" || word == "half" || word == "bool" || word == "struct" || word == "union" || word == "enum";
}

// The tokens of a parameter's declaration with its names expanded, depth first; `uncertain` when a
// name may expand to a pointer under one branch and not another, or is a function-like macro.
void expand(const std::vector<std::string>& tokens, const NameTable& names, std::set<std::string>& active,
            std::vector<std::string>& out, bool& uncertain) {
  for (const std::string& t : tokens) {
    const auto it = isIdentifierToken(t) && !active.count(t) ? names.find(t) : names.end();
    if (it == names.end()) {
      out.push_back(t);
      continue;
    }
    if (it->second.uncertain || it->second.expansions.size() != 1) {
      uncertain = true;
      bool any_pointer = false;
      for (const auto& e : it->second.expansions) any_pointer = any_pointer || std::count(e.begin(), e.end(), "*") > 0;
      out.push_back(any_pointer || it->second.uncertain ? "?" : "?type");
      continue;
    }
    active.insert(t);
    expand(it->second.expansions.front(), names, active, out, uncertain);
    active.erase(t);
  }
}

// One parameter from its declaration's tokens; nullopt when it names nothing (a lone macro).
std::optional<KernelParameter> readParameter(std::vector<std::string> tokens, const NameTable& names) {
  // __attribute__((...)) says nothing about the argument's kind.
  for (auto at = std::find(tokens.begin(), tokens.end(), "__attribute__"); at != tokens.end();
       at = std::find(tokens.begin(), tokens.end(), "__attribute__")) {
    auto end = at + 1;
    for (int depth = 0; end != tokens.end(); ++end) {
      depth += *end == "(" ? 1 : *end == ")" ? -1 : 0;
      if (depth == 0 && *end == ")") break;
    }
    tokens.erase(at, end == tokens.end() ? end : end + 1);
  }
  KernelParameter p;
  for (const std::string& t : tokens)
    p.declaration += (p.declaration.empty() || t == "*" || t == "[" || t == "]" ? "" : " ") + t;
  // The name is the last identifier outside brackets (`float x[N]` names x).
  int bracket_depth = 0;
  auto name_at = std::find_if(tokens.rbegin(), tokens.rend(), [&](const std::string& t) {
    bracket_depth += t == "]" ? 1 : t == "[" ? -1 : 0;
    return bracket_depth == 0 && isIdentifierToken(t);
  });
  const std::size_t identifiers = std::count_if(tokens.begin(), tokens.end(), isIdentifierToken);
  if (name_at == tokens.rend() || identifiers < 2) return std::nullopt;
  p.name = *name_at;
  std::vector<std::string> type_tokens(tokens.begin(), name_at.base() - 1);
  type_tokens.insert(type_tokens.end(), name_at.base(), tokens.end());
  std::vector<std::string> expanded;
  std::set<std::string> active;
  bool uncertain = false;
  expand(type_tokens, names, active, expanded, uncertain);
  std::vector<std::string> type_words;
  bool hidden = false;
  for (const std::string& t : expanded) {
    if (t == "*" || t == "[") p.pointer = true;
    if (t == "?") hidden = true;
    if (t == "?type") type_words.push_back(t);
    if (!isIdentifierToken(t) || isQualifier(t)) continue;
    if (const auto space = addressSpace(t)) p.space = *space;
    else type_words.push_back(t);
  }
  p.type = ElementType::parse(typeSpelling(type_words));
  const bool opaque = std::any_of(type_words.begin(), type_words.end(), isOpaqueType);
  const bool unknown = !p.type && !opaque && std::count(type_words.begin(), type_words.end(), "?type") == 0;
  if (!p.pointer) p.known = !hidden && !unknown && !opaque;
  if (!p.pointer && (opaque || hidden)) p.type.reset();
  return p;
}

// The tokens between the '(' at `open` and its ')', split at top-level commas; nullopt when the list
// holds a preprocessor directive or does not close.
std::optional<std::vector<std::vector<std::string>>> parameterTokens(const std::vector<std::string>& tokens,
                                                                     std::size_t open) {
  std::vector<std::vector<std::string>> parameters(1);
  int depth = 0;
  for (std::size_t i = open + 1; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t == "#") return std::nullopt;
    if (t == ")" && depth == 0) {
      if (parameters.size() == 1 && (parameters[0].empty() || parameters[0] == std::vector<std::string>{"void"}))
        parameters.clear();
      return parameters;
    }
    depth += (t == "(" || t == "[") ? 1 : (t == ")" || t == "]") ? -1 : 0;
    if (t == "," && depth == 0) parameters.emplace_back();
    else parameters.back().push_back(t);
  }
  return std::nullopt;
}

// Where each definition of `kernel` opens its parameter list: a "kernel" or "__kernel" token, then,
// before the next ';', '{' or '}', the name followed by '('.
std::vector<std::size_t> kernelListOpenings(const std::vector<std::string>& tokens, const std::string& kernel) {
  std::vector<std::size_t> openings;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] != "kernel" && tokens[i] != "__kernel") continue;
    for (std::size_t j = i + 1; j + 1 < tokens.size(); ++j) {
      if (tokens[j] == ";" || tokens[j] == "{" || tokens[j] == "}") break;
      if (tokens[j] == kernel && tokens[j + 1] == "(") {
        openings.push_back(j + 1);
        break;
      }
    }
  }
  return openings;
}

}  // namespace

std::map<std::string, std::string> definesOfOptions(const std::string& options) {
  std::map<std::string, std::string> defines;
  std::istringstream words(options);
  std::string word;
  while (words >> word) {
    if (word == "-D") {
      if (!(words >> word)) break;
    } else if (word.rfind("-D", 0) == 0) {
      word = word.substr(2);
    } else {
      continue;
    }
    const std::size_t equals = word.find('=');
    if (equals == std::string::npos) defines[word] = "1";
    else defines[word.substr(0, equals)] = word.substr(equals + 1);
  }
  return defines;
}

std::optional<std::vector<KernelParameter>> readKernelParameters(const std::string& source, const std::string& kernel,
                                                                 const std::map<std::string, std::string>& defines) {
  std::vector<std::string> directives;
  const std::vector<std::string> tokens = tokenize(source, &directives);
  const std::vector<std::size_t> openings = kernelListOpenings(tokens, kernel);
  if (openings.size() != 1) return std::nullopt;
  const auto lists = parameterTokens(tokens, openings.front());
  if (!lists) return std::nullopt;
  NameTable names;
  addSourceMacros(directives, names);
  addTypedefs(tokens, names);
  // A build option's define wins: the source's own is then behind `#ifndef`, or a redefinition.
  for (const auto& [name, value] : defines) names[name] = NameMeaning{{tokenize(value)}, false};
  std::vector<KernelParameter> parameters;
  for (const std::vector<std::string>& list : *lists) {
    std::optional<KernelParameter> p = readParameter(list, names);
    if (!p) return std::nullopt;
    parameters.push_back(std::move(*p));
  }
  return parameters;
}

}  // namespace rooflab
