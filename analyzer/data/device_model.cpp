// A device model's compute roof per type of work, and its comparison field by field.
#include "analyzer/data/device_model.hpp"

#include "analyzer/data/device_model_fields.hpp"

namespace rooflab {

using namespace device_model_fields;

std::optional<double> DeviceModel::computePeak(Arithmetic arithmetic) const {
  switch (arithmetic) {
    case Arithmetic::fp32: return peak_gflops;
    case Arithmetic::fp64: return fp64_gflops;
    case Arithmetic::int32: return int32_gops;
  }
  return peak_gflops;
}

bool DeviceModel::operator==(const DeviceModel& other) const {
  for (const NumberField& field : kNumberFields) {
    auto mine =
        withNumber(*this, field, [](const auto& v) { return v ? std::optional<double>(double(*v)) : std::nullopt; });
    auto theirs =
        withNumber(other, field, [](const auto& v) { return v ? std::optional<double>(double(*v)) : std::nullopt; });
    if (mine != theirs) return false;
  }
  return key == other.key && display_name == other.display_name && match_names == other.match_names &&
         match_exclude == other.match_exclude && sources == other.sources && measured == other.measured &&
         notes == other.notes;
}

}  // namespace rooflab
