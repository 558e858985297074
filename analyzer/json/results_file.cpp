#include "analyzer/json/results_file.hpp"

#include "analyzer/json/json_file_io.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

void writeResultsFile(const std::filesystem::path& path, const ResultsDocument& document) {
  writeJsonAtomically(path, toJson(document));
}

std::string configEchoText(const BatchConfig& config) { return toJson(config).dump(2); }

}  // namespace rooflab
