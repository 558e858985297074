#pragma once
// The JSON edge as text, for reports/: they write and show results without holding a JSON value.
#include <filesystem>
#include <string>

#include "analyzer/data/results_document.hpp"

namespace rooflab {

// The document as a results file (dump(2) and a newline, as the batch writes it), atomically: a
// reader never sees half a file, and rewriting the file a report was read from is safe.
// Throws std::runtime_error.
void writeResultsFile(const std::filesystem::path& path, const ResultsDocument& document);

// The "config" object of a results file, indented as in the file: the config as run.
std::string configEchoText(const BatchConfig& config);

}  // namespace rooflab
