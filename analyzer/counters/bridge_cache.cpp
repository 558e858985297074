#include "analyzer/counters/bridge_cache.hpp"

#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/range_profiler.hpp"

namespace rooflab::counters::bridge_detail {
namespace {

// A default-config batch compiles a few hundred modules; the last few are all a record reuses.
constexpr std::size_t kKeptModules = 24;

using ModuleFuture = std::shared_future<std::shared_ptr<LoadedModule>>;

// Leaked on purpose, as the primary contexts are kept: nothing of the driver runs at process exit.
struct ModuleCache {
  std::mutex mutex;
  std::map<std::string, ModuleFuture> modules;  // by mode and PTX text
  std::deque<std::string> order;                // oldest first
};
ModuleCache& moduleCache() {
  static ModuleCache* cache = new ModuleCache;
  return *cache;
}

std::map<CUdevice, std::unique_ptr<L2Flusher>>& flushers() {
  static auto* kept = new std::map<CUdevice, std::unique_ptr<L2Flusher>>;
  return *kept;
}

// The read-only inputs of the current host inputs, by buffer name (one point's inputs at a time).
struct KeptInputs {
  std::string key;
  std::map<std::string, std::shared_ptr<DeviceBuffer>> buffers;
};
KeptInputs& keptInputs() {
  static auto* kept = new KeptInputs;
  return *kept;
}

std::string keyOf(const std::string& cuda_ptx, JitMode mode) {
  return std::to_string(static_cast<int>(mode)) + "\n" + cuda_ptx;
}

// Inserts a pending entry for `key` unless there is one; returns the entry and whether it is new.
std::pair<ModuleFuture, bool> entryFor(const std::string& key, const ModuleFuture& pending) {
  ModuleCache& cache = moduleCache();
  const std::lock_guard<std::mutex> lock(cache.mutex);
  if (const auto found = cache.modules.find(key); found != cache.modules.end()) return {found->second, false};
  cache.modules.emplace(key, pending);
  cache.order.push_back(key);
  while (cache.order.size() > kKeptModules) {
    // Unloaded once no range profiler is enabled (retainWhileProfiling).
    if (const auto evicted = cache.modules.find(cache.order.front()); evicted != cache.modules.end()) {
      retainWhileProfiling(std::make_shared<ModuleFuture>(std::move(evicted->second)));
      cache.modules.erase(evicted);
    }
    cache.order.pop_front();
  }
  return {pending, true};
}

void forget(const std::string& key) {
  ModuleCache& cache = moduleCache();
  const std::lock_guard<std::mutex> lock(cache.mutex);
  cache.modules.erase(key);
}

}  // namespace

std::shared_ptr<LoadedModule> keptModule(const std::string& cuda_ptx, JitMode mode, bool* compiled) {
  const std::string key = keyOf(cuda_ptx, mode);
  std::promise<std::shared_ptr<LoadedModule>> promise;
  const auto [entry, is_new] = entryFor(key, promise.get_future().share());
  if (compiled) *compiled = is_new;
  if (!is_new) {
    try {
      return entry.get();
    } catch (...) {
      forget(key);  // a failed prefetch: compile here, and let this call throw
      return keptModule(cuda_ptx, mode, compiled);
    }
  }
  try {
    auto module = std::make_shared<LoadedModule>(cuda_ptx, mode);
    promise.set_value(module);
    return module;
  } catch (...) {
    promise.set_exception(std::current_exception());
    forget(key);
    throw;
  }
}

bool prefetchModule(CUcontext context, const std::string& cuda_ptx, JitMode mode) {
  const std::string key = keyOf(cuda_ptx, mode);
  auto task = std::make_shared<std::packaged_task<std::shared_ptr<LoadedModule>()>>([context, cuda_ptx, mode] {
    checkCuda(driver().ctxPushCurrent(context), "cuCtxPushCurrent (a module compiled ahead)");
    struct Pop {
      ~Pop() {
        CUcontext popped = nullptr;
        driver().ctxPopCurrent(&popped);
      }
    } pop;
    return std::make_shared<LoadedModule>(cuda_ptx, mode);
  });
  const auto [entry, is_new] = entryFor(key, task->get_future().share());
  if (!is_new) return false;
  // The entry holds the result; the thread needs nothing else of this call.
  std::thread([task] { (*task)(); }).detach();
  return true;
}

void waitForModuleCompiles() noexcept {
  std::vector<ModuleFuture> pending;
  {
    ModuleCache& cache = moduleCache();
    const std::lock_guard<std::mutex> lock(cache.mutex);
    for (const auto& [key, module] : cache.modules) pending.push_back(module);
  }
  for (const ModuleFuture& module : pending)
    if (module.valid()) module.wait();
}

L2Flusher& keptL2Flusher(CUdevice device) {
  auto& kept = flushers();
  auto found = kept.find(device);
  if (found == kept.end()) found = kept.emplace(device, std::make_unique<L2Flusher>(device)).first;
  return *found->second;
}

std::shared_ptr<DeviceBuffer> keptInput(const std::string& inputs_key, const std::string& name, std::size_t bytes) {
  KeptInputs& kept = keptInputs();
  if (kept.key != inputs_key) {
    kept.buffers.clear();  // freed before the new inputs are allocated
    kept.key = inputs_key;
  }
  const auto found = kept.buffers.find(name);
  return found != kept.buffers.end() && found->second->bytes() == bytes ? found->second : nullptr;
}

void keepInput(const std::string& inputs_key, const std::string& name, std::shared_ptr<DeviceBuffer> buffer) {
  KeptInputs& kept = keptInputs();
  if (kept.key != inputs_key) return;
  kept.buffers[name] = std::move(buffer);
}

void dropBridgeCaches() noexcept {
  ModuleCache& cache = moduleCache();
  std::map<std::string, ModuleFuture> modules;
  {
    const std::lock_guard<std::mutex> lock(cache.mutex);
    modules.swap(cache.modules);
    cache.order.clear();
  }
  for (auto& [key, module] : modules)
    if (module.valid()) module.wait();  // a prefetch still compiling finishes before the context goes
  dropProfilerSessions();               // first: no module is unloaded under an enabled range profiler
  modules.clear();
  flushers().clear();
  keptInputs() = KeptInputs{};
}

}  // namespace rooflab::counters::bridge_detail

namespace rooflab::counters {

void releaseKeptBridge() noexcept { bridge_detail::dropBridgeCaches(); }

}  // namespace rooflab::counters
