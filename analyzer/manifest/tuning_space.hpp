#pragma once
// A variant's tuning space (`[variants.tune]`, docs/manifest.md "Tuning spaces"): read with the
// manifest, every mistake an input error at its line; and the device's limits as its values and
// constraints see them.
#include "analyzer/config/toml_reader.hpp"
#include "analyzer/data/device_info.hpp"
#include "analyzer/data/family_manifest.hpp"
#include "analyzer/support/input_errors.hpp"

namespace rooflab {

// The device's limits under the names a space's values and constraints use: device_compute_units,
// device_max_work_group_size, device_max_work_item_size_0/_1/_2, device_local_mem_bytes,
// device_max_alloc_bytes, device_global_mem_bytes.
ParamValues tuningDeviceValues(const DeviceInfo& device);

// The same names with a mid-range GPU's figures: what a manifest's expressions are checked with
// before any device is open (their syntax and names, not their truth).
ParamValues placeholderDeviceValues();

// The values every expression of the space sees for one configuration: the point's params, the
// variant's defines over them, then the device's limits.
ParamValues tuningValues(const VariantSpec& variant, const ParamValues& params, const ParamValues& device);

// `[variants.tune]` of the variant `r` reads (its defines already read); nullopt when absent.
std::optional<TuningSpaceSpec> parseTuningSpace(const TomlReader& r, const FamilyManifest& family,
                                                const VariantSpec& variant, InputErrorList& errors);

}  // namespace rooflab
