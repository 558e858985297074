#include "mutators/mutant_lines.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <system_error>

namespace rooflab {
namespace {

// A line directive's line number and file: `#line 12 "k.cl"` or clang's marker `# 12 "k.cl" 2`;
// nullopt for any other line. The name is unescaped as C strings escape it.
std::optional<std::pair<int, std::string>> lineDirectiveOf(const std::string& text, std::size_t begin,
                                                           std::size_t end) {
  std::size_t at = begin;
  auto skipBlanks = [&] {
    while (at < end && (text[at] == ' ' || text[at] == '\t')) ++at;
  };
  skipBlanks();
  if (at >= end || text[at] != '#') return std::nullopt;
  ++at;
  skipBlanks();
  if (text.compare(at, 4, "line") == 0) {
    at += 4;
    skipBlanks();
  }
  if (at >= end || !std::isdigit(static_cast<unsigned char>(text[at]))) return std::nullopt;
  int line = 0;
  for (; at < end && std::isdigit(static_cast<unsigned char>(text[at])); ++at) line = line * 10 + (text[at] - '0');
  skipBlanks();
  if (at >= end || text[at] != '"') return std::nullopt;
  std::string file;
  for (++at; at < end && text[at] != '"'; ++at) {
    if (text[at] == '\\' && at + 1 < end) ++at;
    file += text[at];
  }
  if (at >= end) return std::nullopt;
  return std::make_pair(line, file);
}

// `path` made absolute and free of links where it exists, so that a header reached through the
// include link of a family folder whose path has a space (analyzer/manifest/kernel_source.hpp,
// includeOption) is seen under the folder itself.
std::filesystem::path resolvedPath(const std::filesystem::path& path) {
  std::error_code ec;
  std::filesystem::path resolved = std::filesystem::weakly_canonical(path, ec);
  if (ec) resolved = std::filesystem::absolute(path, ec).lexically_normal();
  return resolved;
}

}  // namespace

PreprocessedLineMap::PreprocessedLineMap(const std::string& text) {
  std::string file;
  int next_line = 1;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    line_starts_.push_back(begin);
    if (const auto directive = lineDirectiveOf(text, begin, end)) {
      origins_.emplace_back(file, 0);  // the directive belongs to no line of the user's
      next_line = directive->first;
      file = directive->second;
    } else {
      origins_.emplace_back(file, file.empty() ? 0 : next_line++);
    }
    begin = end + 1;
  }
}

std::pair<std::string, int> PreprocessedLineMap::origin(std::size_t offset) const {
  const auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  if (after == line_starts_.begin()) return {"", 0};
  return origins_[static_cast<std::size_t>(after - line_starts_.begin()) - 1];
}

std::optional<std::string> SourceFileNaming::userPath(const std::string& directive_file) const {
  if (directive_file.empty() || directive_file.front() == '<') return std::nullopt;  // <built-in>, <command line>
  if (listed.count(directive_file)) return directive_file;
  // clang runs as -cc1 without system include folders (mutators/opencl_preprocess.cpp), so any
  // other file it names is a header the user's program includes: from the family folder or beside
  // a listed file (both under the family folder), else from a folder of the user's -I options.
  const std::filesystem::path file = resolvedPath(directive_file);
  if (!family_folder.empty()) {
    const std::filesystem::path relative = file.lexically_relative(resolvedPath(family_folder));
    if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  }
  const std::string name = file.filename().string();
  if (name.empty()) return std::nullopt;
  return name;
}

SourceFileNaming joinedProgramNaming(const std::string& joined_text, const std::filesystem::path& family_folder) {
  SourceFileNaming naming;
  naming.family_folder = family_folder;
  for (std::size_t begin = 0; begin < joined_text.size();) {
    std::size_t end = joined_text.find('\n', begin);
    if (end == std::string::npos) end = joined_text.size();
    if (const auto directive = lineDirectiveOf(joined_text, begin, end)) naming.listed.insert(directive->second);
    begin = end + 1;
  }
  return naming;
}

std::vector<MutantLineChange> collateLineChanges(const std::vector<LineChangeAt>& changes) {
  std::map<SourceLine, std::set<MutantLineChangeKind>> by_line;
  for (const LineChangeAt& change : changes) by_line[change.where].insert(change.kind);
  std::vector<MutantLineChange> out;
  for (const auto& [where, kinds] : by_line)  // std::set orders the kinds as the enum declares them
    out.push_back({where, std::vector<MutantLineChangeKind>(kinds.begin(), kinds.end())});
  return out;
}

std::vector<MutantLineChange> lineChangesOfOffsets(const std::string& preprocessed,
                                                   const std::vector<OffsetChange>& changes,
                                                   const SourceFileNaming& naming) {
  const PreprocessedLineMap lines(preprocessed);
  std::map<std::string, std::optional<std::string>> paths;  // by directive name: resolved once
  std::vector<LineChangeAt> at_lines;
  for (const OffsetChange& change : changes) {
    const auto [file, line] = lines.origin(change.offset);
    if (line <= 0) continue;
    auto path = paths.find(file);
    if (path == paths.end()) path = paths.emplace(file, naming.userPath(file)).first;
    if (path->second) at_lines.push_back({{*path->second, line}, change.kind});
  }
  return collateLineChanges(at_lines);
}

}  // namespace rooflab
