// The JSON edge of a noisy host: docs/results-schema.md, "host" and "noisy_host".
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json toJson(const HostNoise& noise) {
  json j = json::object();
  if (const auto& load = noise.load)
    j["load"] = {{"load_average_1min", load->load_average_1min},
                 {"core_count", load->core_count},
                 {"load_per_core", load->load_per_core},
                 {"max_load_per_core", load->max_load_per_core}};
  if (noise.cpu_governor) j["cpu_governor"] = *noise.cpu_governor;
  if (const auto& clock = noise.gpu_clock)
    j["gpu_clock"] = {{"min_mhz", clock->min_mhz},
                      {"max_mhz", clock->max_mhz},
                      {"spread_fraction", clock->spread_fraction},
                      {"max_spread_fraction", clock->max_spread_fraction}};
  return j;
}

HostNoise hostNoiseDataFromJson(const json& j) {
  HostNoise noise;
  if (const json* load = member(j, "load"); load != nullptr && load->is_object())
    noise.load = HostLoadNoise{numberOrNaN(*load, "load_average_1min"), integerOr<unsigned>(*load, "core_count", 0),
                               numberOrNaN(*load, "load_per_core"), numberOrNaN(*load, "max_load_per_core")};
  noise.cpu_governor = optionalText(j, "cpu_governor");
  if (const json* clock = member(j, "gpu_clock"); clock != nullptr && clock->is_object())
    noise.gpu_clock = GpuClockNoise{numberOrNaN(*clock, "min_mhz"), numberOrNaN(*clock, "max_mhz"),
                                    numberOrNaN(*clock, "spread_fraction"), numberOrNaN(*clock, "max_spread_fraction")};
  return noise;
}

}  // namespace

// The noise as data under "host_noise", or the sentence a schema-1 file saved under "noisy_host";
// beside a host that looked quiet, "noisy_host": null, as schema 1 wrote it.
void writeHostNoise(json& j, const std::optional<HostCondition>& host, const std::optional<HostNoise>& noise) {
  if (noise && !noise->text_as_saved) {
    j["host_noise"] = toJson(*noise);
    return;
  }
  if (host || noise) j["noisy_host"] = noise ? json(*noise->text_as_saved) : json(nullptr);
}

std::optional<HostNoise> hostNoiseFromJson(const json& j) {
  if (const auto saved = optionalText(j, "noisy_host")) return HostNoise{{}, {}, {}, saved};
  if (const json* noise = member(j, "host_noise"); noise != nullptr && noise->is_object())
    return hostNoiseDataFromJson(*noise);
  return std::nullopt;
}

}  // namespace rooflab
