// libFuzzer target: `rooflab tune`'s journal (analyzer/tune/tune_journal.hpp), as a run cut off at
// any byte, or a file edited by hand, leaves it.
// Each input is written to <tmp>/tune-journal.jsonl and opened as a resumed tune opens it.
// Contract under test: TuneJournal reads any file (lines that are not entries become warnings, a
// torn last line is cut), then every entry it kept is found again by its own key and identity, and
// an entry appended after it reads back as one whole line.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "analyzer/json/results_json.hpp"
#include "analyzer/tune/tune_journal.hpp"
#include "fuzz_defaults.hpp"

namespace fs = std::filesystem;

namespace {

struct Workspace {
  fs::path dir;
  Workspace() {
    std::string pattern = (fs::temp_directory_path() / "rooflab-fuzz-tune-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    dir = pattern;
  }
  ~Workspace() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Workspace workspace;
  const fs::path path = workspace.dir / "tune-journal.jsonl";
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  std::size_t kept = 0;
  {
    rooflab::TuneJournal journal(path, false);
    kept = journal.size();
    std::string stale;
    (void)journal.find("d", "f", "v", {}, {}, {}, stale);
    rooflab::TuneJournalEntry entry;
    entry.device = "d";
    entry.family = "f";
    entry.variant = "v";
    entry.identity = {{"repetitions", "2"}};
    journal.append(entry);
    if (journal.find("d", "f", "v", {}, {}, entry.identity, stale) == nullptr) std::abort();
  }
  // The appended entry starts a line of its own: a second reading keeps one more entry.
  const rooflab::TuneJournal again(path, false);
  if (again.size() != kept + 1) std::abort();
  return 0;
}
