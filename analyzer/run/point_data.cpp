#include "analyzer/run/point_data.hpp"

#include <algorithm>
#include <stdexcept>
#include <sys/resource.h>
#include <unistd.h>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/memory_limit.hpp"
#include "analyzer/verify/references.hpp"

namespace rooflab {
namespace {

// The host bytes a key's data holds: its inputs, and the outputs of its first C++ reference.
std::uint64_t dataBytes(const ResolvedPoint& point) {
  const bool reference = hasCpuReference(point);
  std::uint64_t bytes = 0;
  for (const ResolvedBuffer& b : point.buffers)
    if (b.hasHostInput() || (reference && !b.scratch && b.spec->isOutput())) bytes += b.bytes;
  return bytes;
}

bool fitsBeside(std::uint64_t bytes) {
  if (addressSpaceLimitBytes()) return false;  // a limit the user set: no second copy of anything
  const long pages = ::sysconf(_SC_AVPHYS_PAGES), page_bytes = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_bytes <= 0) return false;
  return bytes <= static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_bytes) / 4;
}

PointData makeData(const std::vector<const ResolvedPoint*>& points, std::uint64_t seed) {
  PointData data;
  data.inputs = makeHostInputs(*points.front(), seed);
  // The first reference only: the others of the key are rare (a param only the reference reads).
  const auto first =
      std::find_if(points.begin(), points.end(), [](const ResolvedPoint* p) { return hasCpuReference(*p); });
  if (first == points.end()) return data;
  try {
    data.references.emplace(referenceKey(**first), cpuReferenceOutputs(**first, data.inputs));
  } catch (const std::exception&) {
    // The record that needs it computes it again and reports the error with its context.
  }
  return data;
}

}  // namespace

HostBuffers makeHostInputs(const ResolvedPoint& point, std::uint64_t seed) {
  HostBuffers inputs;
  for (const ResolvedBuffer& b : point.buffers) {
    if (!b.hasHostInput()) continue;
    HostBuffer buffer(b.spec->name, b.spec->type, static_cast<std::size_t>(b.count));
    if (b.spec->init_file) {
      try {
        readBufferFile(buffer, b.spec->init_file->path.string());
      } catch (const std::runtime_error& e) {
        throw VariantError(b.spec->init_file->key + ": " + e.what());  // changed since the plan checked it
      }
    } else {
      fillBuffer(buffer, b.spec->init, seed);
    }
    inputs.emplace(b.spec->name, std::move(buffer));
  }
  return inputs;
}

bool hasCpuReference(const ResolvedPoint& point) {
  const ReferenceSpec& reference = point.run_point.family->reference;
  return point.run_point.mode == RunMode::normal && reference.kind == ReferenceSpec::Kind::cpu;
}

HostBuffers cpuReferenceOutputs(const ResolvedPoint& point, const HostBuffers& inputs) {
  const ReferenceSpec& reference = point.run_point.family->reference;
  const ReferenceFunction* fn = ReferenceRegistry::builtin().find(reference.name);
  if (!fn) throw VariantError("no C++ reference named '" + reference.name + "'");
  HostBuffers outputs;
  for (const ResolvedBuffer& b : point.buffers) {
    if (b.scratch || !b.spec->isOutput()) continue;
    HostBuffer out(b.spec->name, b.spec->type, static_cast<std::size_t>(b.count));
    if (auto in = inputs.find(b.spec->name); in != inputs.end()) out.bytes = in->second.bytes;  // in-place references
    outputs.emplace(b.spec->name, std::move(out));
  }
  ReferenceContext ctx{point.run_point.params, inputs, outputs};
  (*fn)(ctx);
  return outputs;
}

std::string referenceKey(const ResolvedPoint& point) {
  const RunPoint& run = point.run_point;
  std::string key = run.family->reference.text() + "|" + run.family->path.string() + ";" + run.family->name;
  for (const auto& [name, value] : run.params) key += ";" + name + "=" + formatNumber(value);
  return key;
}

DataAhead::DataAhead(std::vector<const ResolvedPoint*> order, std::uint64_t seed)
    : order_(std::move(order)), seed_(seed) {
  for (const ResolvedPoint* point : order_) keys_.push_back(point->inputsKey());
}

DataAhead& DataAhead::operator=(DataAhead&& other) {
  wait();
  order_ = std::move(other.order_);
  keys_ = std::move(other.keys_);
  nothing_after_ = std::move(other.nothing_after_);
  seed_ = other.seed_;
  key_ = std::move(other.key_);
  future_ = std::move(other.future_);
  return *this;
}

DataAhead::~DataAhead() { wait(); }

void DataAhead::wait() noexcept {
  if (future_.valid()) future_.wait();
}

void DataAhead::startAfter(const std::string& key) {
  // One key ahead at most; and the runner asks at every record: a key found to have nothing to make
  // after it is not looked up again.
  if (future_.valid() || (nothing_after_ && *nothing_after_ == key)) return;
  nothing_after_ = key;
  std::size_t next = 0;
  for (std::size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) next = i + 1;
  while (next < keys_.size() && keys_[next] == key) ++next;
  if (next >= keys_.size()) return;
  const std::string& next_key = keys_[next];
  // Every point of that key, in order: the first with a C++ reference gives it.
  std::vector<const ResolvedPoint*> points;
  for (std::size_t i = next; i < keys_.size() && keys_[i] == next_key; ++i) points.push_back(order_[i]);
  if (!fitsBeside(dataBytes(*points.front()))) return;
  nothing_after_.reset();
  key_ = next_key;
  future_ = std::async(std::launch::async, [points = std::move(points), seed = seed_] {
    // The least priority, inherited by the threads it starts: the records' own host work comes first.
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 19);
    return makeData(points, seed);
  });
}

std::optional<PointData> DataAhead::take(const std::string& key) {
  if (!future_.valid()) return std::nullopt;
  if (key_ != key) {
    // The points left the order (a fresh worker's first, a reference variant's own inputs): the data
    // made is for nobody now, and would keep the next from starting.
    wait();
    future_ = {};
    key_.clear();
    return std::nullopt;
  }
  key_.clear();
  return future_.get();
}

}  // namespace rooflab
