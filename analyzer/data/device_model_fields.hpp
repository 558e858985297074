#pragma once
// The numbers of a DeviceModel as one table: the TOML reader and writer (roofline/), the JSON edge
// (json/) and the model's comparison walk it, so that a new field cannot be forgotten by one of them.
#include <cstdint>
#include <optional>
#include <type_traits>
#include <variant>

#include "analyzer/data/device_model.hpp"

namespace rooflab::device_model_fields {

// Every number of a model, once: parsing, writing, JSON and comparison all walk this table, so a new
// field cannot be forgotten by one of them.
using RequiredReal = double DeviceModel::*;
using OptionalReal = std::optional<double> DeviceModel::*;
using OptionalCount64 = std::optional<std::uint64_t> DeviceModel::*;
using OptionalCount32 = std::optional<std::uint32_t> DeviceModel::*;
using NumberMember = std::variant<RequiredReal, OptionalReal, OptionalCount64, OptionalCount32>;

template <class Member>
struct MemberValue;
template <class Class, class Value>
struct MemberValue<Value Class::*> {
  using type = Value;
};

struct NumberField {
  const char* name;
  NumberMember member;
  // Fields added after results schema 1 are written to JSON only when present, so that results
  // files written before them re-render byte for byte.
  bool null_when_absent = true;
};

inline const NumberField kNumberFields[] = {
    {"peak_gflops", &DeviceModel::peak_gflops},
    {"dram_gbps", &DeviceModel::dram_gbps},
    {"local_gbps", &DeviceModel::local_gbps},
    {"local_mem_bytes", &DeviceModel::local_mem_bytes},
    {"compute_units", &DeviceModel::compute_units},
    {"fp32_lanes_per_cu", &DeviceModel::fp32_lanes_per_cu},
    {"clock_mhz", &DeviceModel::clock_mhz},
    {"base_clock_mhz", &DeviceModel::base_clock_mhz},
    {"last_level_cache_bytes", &DeviceModel::last_level_cache_bytes},
    {"l2_gbps", &DeviceModel::l2_gbps, false},
    {"fp64_gflops", &DeviceModel::fp64_gflops, false},
    {"int32_gops", &DeviceModel::int32_gops, false},
    {"host_to_device_gbps", &DeviceModel::host_to_device_gbps, false},
    {"device_to_host_gbps", &DeviceModel::device_to_host_gbps, false},
    {"launch_latency_ns", &DeviceModel::launch_latency_ns, false},
    {"warp_issue_gips", &DeviceModel::warp_issue_gips, false},
};

// The number as TOML/JSON text would hold it, or nullopt when the model does not know it.
template <class Visitor>
auto withNumber(const DeviceModel& model, const NumberField& field, Visitor&& visitor) {
  return std::visit(
      [&](auto member) {
        using Member = decltype(member);
        if constexpr (std::is_same_v<Member, RequiredReal>) {
          return visitor(std::optional<double>(model.*member));
        } else {
          return visitor(model.*member);
        }
      },
      field.member);
}

inline bool hasNumber(const DeviceModel& model, const NumberField& field) {
  return withNumber(model, field, [](const auto& value) { return value.has_value(); });
}

}  // namespace rooflab::device_model_fields
