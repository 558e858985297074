#pragma once
// The files this process created or replaced, recorded as each is written: an output folder lists
// these, and only these, as rooflab's (never a file another process writes into it, such as a log
// the shell redirects there).
#include <filesystem>
#include <vector>

namespace rooflab {

// Records `path` (made absolute) as written by this process. Thread-safe.
void recordWrittenFile(const std::filesystem::path& path);
// Every file recorded so far, absolute and lexically normal, each once, in the order first written.
std::vector<std::filesystem::path> writtenFiles();
// The same, forgetting them: the point worker hands its files to the batch with each record.
std::vector<std::filesystem::path> takeWrittenFiles();

}  // namespace rooflab
