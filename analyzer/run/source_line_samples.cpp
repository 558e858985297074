#include "analyzer/run/source_line_samples.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

#include "analyzer/manifest/kernel_source.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// A listed file as joinSourceFiles names it in its `#line` (relative to the family folder, also when
// that climbs out of it); a header by its path relative to the family folder, else by its file name.
std::string shownPath(const fs::path& file, const fs::path& folder, bool listed) {
  const fs::path relative = file.lexically_normal().lexically_relative(folder.lexically_normal());
  if (listed) return relative.empty() ? file.string() : relative.string();
  if (!relative.empty() && *relative.begin() != "..") return relative.generic_string();
  return file.filename().string();
}

std::vector<std::string> fileLines(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
  }
  return lines;
}

bool endsWithPath(const std::string& name, const std::string& path) {
  return name == path ||
         (name.size() > path.size() && name.compare(name.size() - path.size(), path.size(), path) == 0 &&
          name[name.size() - path.size() - 1] == '/');
}

// The file of `files` that the line info's name means, or null.
const SourceFileText* fileNamed(const std::string& name, const std::vector<SourceFileText>& files) {
  for (const SourceFileText& file : files)
    if (name == file.path) return &file;
  for (const SourceFileText& file : files)
    if (endsWithPath(name, file.path)) return &file;
  return nullptr;
}

// For each line of the program's text (index 0 is line 1), the file and line its `#line` directives
// say it is; {"", 0} before the first.
std::vector<SourceLine> lineDirectiveMap(const std::string& program_text) {
  std::vector<SourceLine> map;
  std::istringstream in(program_text);
  SourceLine next{"", 0};
  for (std::string text; std::getline(in, text);) {
    map.push_back(next);
    if (next.line > 0) ++next.line;
    // `#line N "file"`, or the preprocessor's own `# N "file"` (an automatic mutant's text).
    const std::size_t at = text.find_first_not_of(" \t");
    if (at == std::string::npos || text[at] != '#') continue;
    std::size_t after = text.find_first_not_of(" \t", at + 1);
    if (after != std::string::npos && text.compare(after, 4, "line") == 0) after += 4;
    else if (after == std::string::npos || !std::isdigit(static_cast<unsigned char>(text[after]))) continue;
    std::istringstream directive(text.substr(after));
    int number = 0;
    std::string quoted;
    if (!(directive >> number)) continue;
    std::getline(directive >> std::ws, quoted);
    if (quoted.size() >= 2 && quoted.front() == '"') quoted = quoted.substr(1, quoted.find('"', 1) - 1);
    next = {quoted.empty() ? next.file : quoted, number};
  }
  return map;
}

}  // namespace

std::vector<SourceFileText> variantSourceFiles(const VariantSpec& variant) {
  std::vector<fs::path> paths;
  try {
    paths = sourceFilesWithIncludes(variant.sources, variant.include_dir);
  } catch (const std::exception&) {
    return {};
  }
  std::vector<SourceFileText> files;
  for (const fs::path& path : paths) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) continue;
    const bool listed = std::find(variant.sources.begin(), variant.sources.end(), path) != variant.sources.end();
    files.push_back({shownPath(path, variant.include_dir, listed), fileLines(path)});
  }
  return files;
}

LineSampling lineSamplingFrom(const counters::PcSampling& sampled, const std::vector<SourceFileText>& files,
                              const std::string& program_text) {
  LineSampling out;
  out.available = sampled.available;
  out.reason = sampled.reason;
  if (!sampled.available) return out;
  out.sampling_period_log2 = sampled.period_log2;
  out.total_samples = sampled.total_samples;
  out.dropped_samples = sampled.dropped_samples;
  out.seconds = sampled.seconds;
  const std::vector<SourceLine> directives = lineDirectiveMap(program_text);
  std::map<SourceLine, LineSamples> by_line;
  for (const counters::SampledLine& line : sampled.lines) {
    SourceLine where{"", 0};
    if (const SourceFileText* file = line.line > 0 ? fileNamed(line.file, files) : nullptr)
      where = {file->path, line.line};
    else if (line.line > 0 && static_cast<std::size_t>(line.line) <= directives.size())
      if (const SourceFileText* file = fileNamed(directives[line.line - 1].file, files))
        where = {file->path, directives[line.line - 1].line};
    if (where.line <= 0) {
      out.unattributed_samples += line.samples;
      continue;
    }
    LineSamples& samples = by_line[where];
    samples.where = where;
    samples.samples += line.samples;
    samples.sampled_instructions += line.pcs;
    for (const auto& [reason, count] : line.stalls) {
      auto stall = std::find_if(samples.stalls.begin(), samples.stalls.end(),
                                [&](const StallReasonSamples& s) { return s.reason == reason; });
      if (stall == samples.stalls.end()) samples.stalls.push_back({reason, count});
      else stall->samples += count;
    }
  }
  for (auto& [where, samples] : by_line) {
    std::stable_sort(samples.stalls.begin(), samples.stalls.end(),
                     [](const StallReasonSamples& a, const StallReasonSamples& b) { return a.samples > b.samples; });
    out.lines.push_back(std::move(samples));
  }
  std::stable_sort(out.lines.begin(), out.lines.end(),
                   [](const LineSamples& a, const LineSamples& b) { return a.samples > b.samples; });
  return out;
}

bool linesSampled(LineSamplingSetting setting, RunMode mode) {
  return setting == LineSamplingSetting::all || (setting == LineSamplingSetting::originals && mode == RunMode::normal);
}

LineSampling lineSamplingUnavailable(std::string reason) {
  LineSampling out;
  out.reason = std::move(reason);
  return out;
}

}  // namespace rooflab
