// libFuzzer target: batch configs (analyzer/config.hpp).
// Contract under test: parseBatchConfig either returns a config or throws InputError. Any other
// exception, crash, leak of an ASan/UBSan report or hang is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyzer/config/config.hpp"
#include "analyzer/support/errors.hpp"
#include "fuzz_defaults.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const rooflab::BatchConfig config = rooflab::parseBatchConfig(text, "fuzz.toml", "/nonexistent-rooflab-base");
    // What a run does next with a parsed config: expand the glob patterns of every study.
    for (const auto& study : config.studies)
      for (const auto& pattern : study.variants) (void)rooflab::globMatch(pattern, "naive_tiled_16x16");
  } catch (const rooflab::InputError&) {
    // Bad input, reported with file and line: the expected outcome for most inputs.
  }
  return 0;
}
