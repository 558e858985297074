#include "analyzer/run/mutant_traffic.hpp"

namespace rooflab {

void addTrafficBytes(const AutoMutant& mutant, const ResolvedPoint& point, MutantSourceCheck& check) {
  check.bytes.reset();
  check.launch_bytes.clear();
  if (!mutant.traffic_untraced.empty()) {
    check.bytes_unknown = mutant.traffic_untraced;
    return;
  }
  TrafficBytes total;
  for (const ResolvedLaunch& launch : point.launches) {
    TrafficBytes bytes;
    bytes.kernel = launch.geometry.kernel;
    const auto found = mutant.traffic.find(launch.geometry.kernel);
    if (found == mutant.traffic.end()) {
      check.bytes_unknown = "the rewriter did not report the accesses of kernel '" + launch.geometry.kernel + "'";
      check.launch_bytes.clear();
      return;
    }
    // A buffer bound to several arguments of one launch is counted once.
    auto sum = [&](const std::set<int>& arguments) {
      std::set<std::string> buffers;
      for (int index : arguments)
        if (index >= 0 && static_cast<std::size_t>(index) < launch.args.size() &&
            launch.args[index].kind == KernelArgSpec::Kind::buffer)
          buffers.insert(launch.args[index].buffer);
      double bytes_of = 0;
      for (const std::string& name : buffers)
        if (const ResolvedBuffer* b = point.findBuffer(name)) bytes_of += static_cast<double>(b->bytes);
      return bytes_of;
    };
    bytes.loads = sum(found->second.loaded);
    // A memory-only mutant keeps every load.
    bytes.kept_loads = mutant.kind == AutoMutantKind::memory_only ? bytes.loads : sum(found->second.kept_loaded);
    bytes.stores = sum(found->second.stored);
    // A repeated launch moves its bytes at every repetition (pingpong's buffers are of one size).
    const double repeat = static_cast<double>(launch.repeat);
    total.loads += bytes.loads * repeat;
    total.kept_loads += bytes.kept_loads * repeat;
    total.stores += bytes.stores * repeat;
    check.launch_bytes.push_back(std::move(bytes));
  }
  check.bytes = total;
  check.bytes_unknown.clear();
}

}  // namespace rooflab
