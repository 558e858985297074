// The run modes' names, as configs and results files spell them.
#include "analyzer/data/batch_config.hpp"

#include "analyzer/support/enum_names.hpp"

namespace rooflab {

constexpr EnumName<RunMode> kRunModeNames[] = {
    {RunMode::normal, "normal"},
    {RunMode::compute_only, "compute-only"},
    {RunMode::memory_only, "memory-only"},
    {RunMode::what_if, "what-if"},
};

std::string modeName(RunMode mode) { return nameOf(kRunModeNames, mode); }

std::optional<RunMode> parseMode(const std::string& name) { return valueOf(kRunModeNames, name); }

constexpr EnumName<CountersSetting> kCountersSettingNames[] = {
    {CountersSetting::automatic, "auto"},
    {CountersSetting::on, "on"},
    {CountersSetting::off, "off"},
};

std::string toString(CountersSetting setting) { return nameOf(kCountersSettingNames, setting); }

std::optional<CountersSetting> parseCountersSetting(std::string_view text) {
  return valueOf(kCountersSettingNames, text);
}

constexpr EnumName<CeilingsSource> kCeilingsSourceNames[] = {
    {CeilingsSource::measure, "measure"},
    {CeilingsSource::datasheet, "datasheet"},
};

std::string toString(CeilingsSource source) { return nameOf(kCeilingsSourceNames, source); }

std::optional<CeilingsSource> parseCeilingsSource(std::string_view text) { return valueOf(kCeilingsSourceNames, text); }

constexpr EnumName<LineSamplingSetting> kLineSamplingSettingNames[] = {
    {LineSamplingSetting::originals, "originals"},
    {LineSamplingSetting::all, "all"},
    {LineSamplingSetting::off, "off"},
};

std::string toString(LineSamplingSetting setting) { return nameOf(kLineSamplingSettingNames, setting); }

std::optional<LineSamplingSetting> parseLineSamplingSetting(std::string_view text) {
  return valueOf(kLineSamplingSettingNames, text);
}

constexpr EnumName<DeviceMode> kDeviceModeNames[] = {
    {DeviceMode::compare, "compare"},
    {DeviceMode::shard, "shard"},
};

std::string toString(DeviceMode mode) { return nameOf(kDeviceModeNames, mode); }

std::optional<DeviceMode> parseDeviceMode(std::string_view text) { return valueOf(kDeviceModeNames, text); }

}  // namespace rooflab
