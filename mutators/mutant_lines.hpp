#pragma once
// Where a mutant's changes lie in the user's files. An automatic mutant's edits are offsets into the
// preprocessed program, whose line directives (`#line N "file"`, from clang's line markers) give
// each offset's file and line; file names become SourceFileText's paths; the changes found line by
// line, for automatic and annotated mutants alike, are collated into RunRecord::mutant_line_changes.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/data/source_lines.hpp"

namespace rooflab {

// The origin of every line of a preprocessed program: a `#line N "file"` directive (or clang's
// `# N "file" flags` marker) makes the next line line N of that file.
class PreprocessedLineMap {
 public:
  explicit PreprocessedLineMap(const std::string& text);
  // The file (as the directive names it) and line of the byte at `offset`; ("", 0) before any directive.
  std::pair<std::string, int> origin(std::size_t offset) const;

 private:
  std::vector<std::size_t> line_starts_;              // the offset of each line of the text
  std::vector<std::pair<std::string, int>> origins_;  // and its origin
};

// How the files a preprocessed program names become SourceFileText paths.
struct SourceFileNaming {
  std::set<std::string> listed;         // the manifest's files, by the names joinSourceFiles gave them
  std::filesystem::path family_folder;  // headers under it are named relative to it
  // A directive's file name as a SourceFileText::path; nullopt for no file of the user's (clang's
  // pseudo-files such as <built-in>).
  std::optional<std::string> userPath(const std::string& directive_file) const;
};

// The naming of a program joined by joinSourceFiles: its `#line 1 "<path>"` directives name the listed files.
SourceFileNaming joinedProgramNaming(const std::string& joined_text, const std::filesystem::path& family_folder);

// One change at an offset of the preprocessed program.
struct OffsetChange {
  std::size_t offset = 0;
  MutantLineChangeKind kind = MutantLineChangeKind::made_up;
};

// One change at one line of the user's files.
struct LineChangeAt {
  SourceLine where;
  MutantLineChangeKind kind = MutantLineChangeKind::made_up;
};

// Each line once, sorted, with its kinds each once in the enum's order.
std::vector<MutantLineChange> collateLineChanges(const std::vector<LineChangeAt>& changes);

// The changes at offsets of `preprocessed`, at the lines of the user's files they begin on (lines of
// files that are not the user's are left out), collated.
std::vector<MutantLineChange> lineChangesOfOffsets(const std::string& preprocessed,
                                                   const std::vector<OffsetChange>& changes,
                                                   const SourceFileNaming& naming);

}  // namespace rooflab
