#pragma once
// A point's host data: its inputs, made once per inputs key (ResolvedPoint::inputsKey), and the C++
// reference's outputs computed from them. On a GPU the host is idle while the device runs, so the
// next key's data is made on a background thread while the current key's records run
// (DataAhead): n-body's reference (3.6 s on the H100's host) and matrix multiply's (2 s) then cost
// the records nothing.
#include <cstdint>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/data/resolved_point.hpp"
#include "analyzer/support/host_buffer.hpp"

namespace rooflab {

using HostBuffers = std::map<std::string, HostBuffer>;

// The point's host inputs: each family input filled by its rule from `seed`, or read from its file.
// Throws VariantError naming the file's key when a file no longer reads.
HostBuffers makeHostInputs(const ResolvedPoint& point, std::uint64_t seed);

// Whether the point's outputs are checked against a C++ reference (a `cpu:` one that is not itself
// the variant): what DataAhead computes ahead.
bool hasCpuReference(const ResolvedPoint& point);

// The outputs of the point's `cpu:` reference from `inputs`. Throws VariantError when the registry
// has no such reference or the reference rejects the buffers.
HostBuffers cpuReferenceOutputs(const ResolvedPoint& point, const HostBuffers& inputs);

// The key a reference's outputs are kept under: one per reference and params (the family's folder
// too: an A/B run may hold two families of one name).
std::string referenceKey(const ResolvedPoint& point);

// The data of one inputs key, made ahead.
struct PointData {
  HostBuffers inputs;
  std::map<std::string, HostBuffers> references;  // by referenceKey
};

// Makes the data of the next inputs key in a worker's order on a background thread. One key ahead
// at most, and only where it fits: a quarter of the host's free memory, and no address-space limit.
class DataAhead {
 public:
  DataAhead() = default;
  // `order`: the points the worker will run, in order (they outlive this object).
  DataAhead(std::vector<const ResolvedPoint*> order, std::uint64_t seed);
  DataAhead(DataAhead&&) = default;
  DataAhead& operator=(DataAhead&& other);
  ~DataAhead();  // waits for the work in flight: its threads read the points

  // Starts making the data of the first key after `key` in the order (or of the order's first key
  // when `key` is not in it); nothing when that key's data is already on its way or does not fit.
  void startAfter(const std::string& key);
  // The data made for `key`, once ready; nullopt when none was started for it (data made for another
  // key is then dropped). Rethrows what making it threw, as making it here would have.
  std::optional<PointData> take(const std::string& key);

 private:
  void wait() noexcept;

  std::vector<const ResolvedPoint*> order_;
  std::vector<std::string> keys_;             // each point's inputsKey, in order
  std::optional<std::string> nothing_after_;  // the last key startAfter found nothing to start for
  std::uint64_t seed_ = 0;
  std::string key_;  // whose data future_ makes
  std::future<PointData> future_;
};

}  // namespace rooflab
