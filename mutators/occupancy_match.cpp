#include "mutators/occupancy_match.hpp"

#include <algorithm>
#include <optional>

namespace rooflab {
namespace {

using counters::KernelOccupancy;
using counters::OccupancyQuery;

DriverOccupancy driverOccupancy(const KernelOccupancy& o) {
  DriverOccupancy d;
  d.registers_per_thread = o.resources.registers_per_thread;
  d.static_local_bytes = o.resources.static_shared_bytes;
  d.dynamic_local_bytes = o.resources.dynamic_shared_bytes;
  d.private_spill_bytes_per_thread = o.resources.local_bytes_per_thread;
  d.work_groups_per_cu = o.blocks_per_sm;
  d.occupancy_pct = o.max_warps_per_sm > 0 ? 100.0 * o.warps_per_sm / o.max_warps_per_sm : 0.0;
  return d;
}

std::vector<OccupancyQuery> queriesFor(const std::vector<OccupancyLaunch>& launches,
                                       const std::vector<std::size_t>& extra_bytes = {}) {
  std::vector<OccupancyQuery> queries;
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const std::size_t extra = i < extra_bytes.size() ? extra_bytes[i] : 0;
    queries.push_back(
        {launches[i].kernel, launches[i].threads_per_group, launches[i].dynamic_local_bytes + extra, std::nullopt, 0});
  }
  return queries;
}

// What a pad can take: the local memory the mutant leaves of the work-group's limit.
std::size_t padRoom(const OccupancyLaunch& launch, std::uint64_t device_local_bytes) {
  const std::uint64_t used = launch.mutant_local_bytes + launch.dynamic_local_bytes;
  return device_local_bytes > used ? static_cast<std::size_t>(device_local_bytes - used) : 0;
}

// The original's occupancy, and the mutant's with the pad that brings it down to the original's.
// Fills plan.original_occupancy; returns the mutant's.
std::vector<KernelOccupancy> askOccupancy(OccupancyPadPlan& plan, const std::vector<OccupancyLaunch>& launches,
                                          std::uint64_t device_local_bytes, const OccupancyOracle& original,
                                          const OccupancyOracle& mutant) {
  std::vector<OccupancyQuery> queries = queriesFor(launches);
  plan.original_occupancy = original(queries);
  for (std::size_t i = 0; i < launches.size(); ++i) {
    queries[i].pad_to_blocks_per_sm = plan.original_occupancy[i].blocks_per_sm;
    queries[i].pad_limit_bytes = padRoom(launches[i], device_local_bytes);
  }
  return mutant(queries);
}

// One launch decided by occupancy: its pad, its note and whether it matches.
void matchByOccupancy(LaunchOccupancyMatch& entry, std::size_t& pad, const KernelOccupancy& o, const KernelOccupancy& m,
                      std::size_t room) {
  entry.original.occupancy = driverOccupancy(o);
  entry.mutant.occupancy = driverOccupancy(m);
  if (m.blocks_per_sm > o.blocks_per_sm) {
    if (m.pad_bytes) {
      pad = *m.pad_bytes;
    } else {
      entry.note = "the mutant fits " + std::to_string(m.blocks_per_sm) +
                   " work-groups per compute unit, the original " + std::to_string(o.blocks_per_sm) +
                   "; no pad within the " + std::to_string(room) +
                   " bytes of local memory OpenCL leaves it brings that down, so it runs with more parallelism than "
                   "the original";
    }
  } else if (m.blocks_per_sm < o.blocks_per_sm) {
    entry.note = "the mutant needs more resources than the original (" + std::to_string(m.blocks_per_sm) +
                 " work-groups per compute unit against " + std::to_string(o.blocks_per_sm) +
                 "); padding cannot give them back, so its time may overstate its part";
  }
  entry.matched = (pad > 0 ? m.padded_blocks_per_sm : m.blocks_per_sm) == o.blocks_per_sm;
}

}  // namespace

OccupancyPadPlan matchOccupancy(const std::vector<OccupancyLaunch>& launches, std::uint64_t device_local_bytes,
                                const OccupancyOracle& original, const OccupancyOracle& mutant) {
  OccupancyPadPlan plan;
  OccupancyMatch& match = plan.match;
  plan.pad_bytes.assign(launches.size(), 0);
  const bool askable =
      original && mutant &&
      std::all_of(launches.begin(), launches.end(), [](const OccupancyLaunch& l) { return l.threads_per_group > 0; });
  std::vector<KernelOccupancy> mutant_occupancy;
  if (askable) {
    try {
      mutant_occupancy = askOccupancy(plan, launches, device_local_bytes, original, mutant);
      match.method = OccupancyMatchMethod::driver_occupancy;
    } catch (const std::exception& e) {
      match.notes.push_back(std::string("occupancy through the PTX bridge unavailable (") + e.what() +
                            "); local memory compared instead");
    }
  }
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const OccupancyLaunch& l = launches[i];
    std::size_t& pad = plan.pad_bytes[i];
    LaunchOccupancyMatch entry;
    entry.kernel = l.kernel;
    entry.original = {l.original_local_bytes, l.original_private_bytes, std::nullopt};
    entry.mutant = {l.mutant_local_bytes, l.mutant_private_bytes, std::nullopt};
    if (plan.byOccupancy()) {
      matchByOccupancy(entry, pad, plan.original_occupancy[i], mutant_occupancy[i], padRoom(l, device_local_bytes));
    } else {
      if (l.mutant_local_bytes < l.original_local_bytes)
        pad = std::min<std::size_t>(l.original_local_bytes - l.mutant_local_bytes, padRoom(l, device_local_bytes));
      entry.matched = l.mutant_local_bytes + pad >= l.original_local_bytes;
    }
    entry.pad_bytes = pad;
    if (entry.note) match.notes.push_back(l.kernel + ": " + *entry.note);
    match.launches.push_back(std::move(entry));
  }
  for (std::size_t i = 0; i < launches.size(); ++i)
    if (plan.pad_bytes[i] > 0) plan.pad_kernels.insert(launches[i].kernel);
  // Every launch of a padded kernel takes the pad argument; a launch that needs none gets 16 bytes.
  for (std::size_t i = 0; i < launches.size(); ++i)
    if (plan.pad_bytes[i] == 0 && plan.pad_kernels.count(launches[i].kernel)) plan.pad_bytes[i] = 16;
  match.padded = plan.padded();
  return plan;
}

void confirmPaddedOccupancy(OccupancyPadPlan& plan, const std::vector<OccupancyLaunch>& launches,
                            const OccupancyOracle& padded) {
  if (!plan.byOccupancy() || !padded) return;
  try {
    const std::vector<KernelOccupancy> occupancy = padded(queriesFor(launches, plan.pad_bytes));
    for (std::size_t i = 0; i < launches.size(); ++i) {
      plan.match.launches[i].padded = driverOccupancy(occupancy[i]);
      plan.match.launches[i].matched = occupancy[i].blocks_per_sm == plan.original_occupancy[i].blocks_per_sm;
    }
  } catch (const std::exception& e) {
    plan.match.notes.push_back(std::string("the padded mutant's occupancy could not be read back: ") + e.what());
  }
}

}  // namespace rooflab
