#include "analyzer/results_file.hpp"

#include "analyzer/json_file.hpp"
#include "analyzer/results_json.hpp"

namespace rooflab {

void writeResultsFile(const std::filesystem::path& path, const ResultsDocument& document) {
  writeJsonAtomically(path, toJson(document));
}

std::string configEchoText(const BatchConfig& config) { return toJson(config).dump(2); }

}  // namespace rooflab
