// libFuzzer target: what `rooflab merge` reads (analyzer/json/journal_file.hpp,
// analyzer/batch/merge_parts.hpp): a part's folder as a killed or edited run leaves it.
// Each input is cut in two at its first NUL byte: the first piece is written as the part's
// results.json, the second as its journal.jsonl (no NUL: a folder with a results.json only); the
// folder is read as merge reads it, then merged with itself and with the results file alone.
// Contract under test: reading and merging return a document or throw InputError; nothing else.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/batch/merge_parts.hpp"
#include "analyzer/json/journal_file.hpp"
#include "analyzer/support/errors.hpp"
#include "fuzz_defaults.hpp"

namespace fs = std::filesystem;

namespace {

struct Workspace {
  fs::path dir;
  Workspace() {
    std::string pattern = (fs::temp_directory_path() / "rooflab-fuzz-merge-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    dir = pattern;
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Workspace workspace;
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t cut = input.find('\0');
  std::error_code ec;
  fs::remove(workspace.dir / "journal.jsonl", ec);
  write(workspace.dir / "results.json", input.substr(0, cut));
  if (cut != std::string::npos) write(workspace.dir / "journal.jsonl", input.substr(cut + 1));
  try {
    rooflab::ReadResults folder = rooflab::readRunFolder(workspace.dir);
    const rooflab::PartDocument part{"part", std::move(folder.document)};
    (void)rooflab::mergeParts({part, part});
    rooflab::ReadResults file = rooflab::readResultsOrJournal(workspace.dir / "results.json");
    (void)rooflab::mergeParts({part, rooflab::PartDocument{"file", std::move(file.document)}});
  } catch (const rooflab::InputError&) {
    // Bad input, named: the expected outcome for most inputs.
  }
  return 0;
}
