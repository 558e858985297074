#include "analyzer/counters/range_profiler.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "analyzer/counters/cuda_driver.hpp"
#include "analyzer/counters/cupti_library.hpp"

namespace rooflab::counters {
namespace {

// What must outlive every enabled range profiler (retainWhileProfiling): the contexts whose profiler
// is enabled, and what waits for them to be disabled.
struct Retired {
  std::mutex mutex;
  int enabled_profilers = 0;
  std::vector<std::shared_ptr<void>> objects;
};
Retired& retired() {
  static auto* kept = new Retired;  // leaked, as the sessions are
  return *kept;
}

// A range profiler enabled or disabled; once none is enabled, what waited is released, outside the lock.
[[maybe_unused]] void profilerSwitched(bool enabled) noexcept {
  std::vector<std::shared_ptr<void>> released;
  {
    Retired& r = retired();
    const std::lock_guard<std::mutex> hold(r.mutex);
    r.enabled_profilers += enabled ? 1 : -1;
    if (r.enabled_profilers == 0) released.swap(r.objects);
  }
}

}  // namespace

void retainWhileProfiling(std::shared_ptr<void> object) {
  Retired& r = retired();
  std::unique_lock<std::mutex> hold(r.mutex);
  if (r.enabled_profilers > 0) r.objects.push_back(std::move(object));
  else {
    hold.unlock();
    object.reset();
  }
}

#ifdef ROOFLAB_HAVE_CUPTI_RANGE_PROFILER
namespace {

std::string unsupportedReason(const CUpti_Profiler_DeviceSupported_Params& s) {
  std::string why;
  auto add = [&](CUpti_Profiler_Support_Level level, const std::string& text) {
    if (level == CUPTI_PROFILER_CONFIGURATION_SUPPORTED || level == CUPTI_PROFILER_CONFIGURATION_UNKNOWN) return;
    why += (why.empty() ? "" : "; ") + text;
  };
  add(s.architecture, "the GPU architecture has no profiling API (needs compute capability 7.0 or later)");
  add(s.sli, "SLI is enabled");
  add(s.vGpu, s.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED ? "profiling is disabled on this vGPU"
                                                              : "this vGPU does not support profiling");
  add(s.confidentialCompute, "confidential computing is enabled");
  add(s.cmp, "NVIDIA CMP (mining) GPUs have no profiling");
  add(s.wsl, "profiling is not supported under this WSL");
  return why.empty() ? "CUPTI reports the device as unsupported for range profiling" : why;
}

// CUPTI's host-side profiler object, which turns metric names into a configuration image and counter
// data into values.
class HostObject {
 public:
  HostObject(const CuptiLibrary& cupti, const std::string& chip_name, std::vector<std::uint8_t>& availability_image)
      : cupti_(cupti), chip_name_(chip_name), availability_image_(availability_image) {
    initialize();
  }
  ~HostObject() { deinitialize(); }
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  CUpti_Profiler_Host_Object* get() const { return object_; }
  // Starts over with an empty configuration.
  void reset() {
    deinitialize();
    initialize();
  }
  CUptiResult addMetrics(std::vector<const char*> names) {
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
    add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
    add.pHostObject = object_;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    return cupti_.hostConfigAddMetrics(&add);
  }

 private:
  void initialize() {
    CUpti_Profiler_Host_Initialize_Params params{};
    params.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
    params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    params.pChipName = chip_name_.c_str();
    params.pCounterAvailabilityImage = availability_image_.data();
    checkCupti(cupti_.hostInitialize(&params), "cuptiProfilerHostInitialize");
    object_ = params.pHostObject;
  }
  void deinitialize() {
    if (!object_) return;
    CUpti_Profiler_Host_Deinitialize_Params params{};
    params.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
    params.pHostObject = object_;
    cupti_.hostDeinitialize(&params);
    object_ = nullptr;
  }

  const CuptiLibrary& cupti_;
  const std::string& chip_name_;
  std::vector<std::uint8_t>& availability_image_;
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

// The CUPTI side of a profiler session: the range profiler on one context, and each metric set's
// host object, config image and counter data image.
class CuptiBackend : public ProfilerBackend {
 public:
  CuptiBackend(CUcontext context, int device_ordinal) : cupti_(cuptiLibrary()), context_(context) {
    if (!cupti_.usable()) throw std::runtime_error(cupti_.unavailable_reason);
    CUpti_Profiler_Initialize_Params initialize{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
    checkCupti(cupti_.profilerInitialize(&initialize), "cuptiProfilerInitialize");
    initialized_ = true;
    try {
      CUdevice device = 0;
      checkCuda(cudaDriver().deviceGet(&device, device_ordinal), "cuDeviceGet");
      CUpti_Profiler_DeviceSupported_Params support{};
      support.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
      support.cuDevice = device;
      support.api = CUPTI_PROFILER_RANGE_PROFILING;
      checkCupti(cupti_.profilerDeviceSupported(&support), "cuptiProfilerDeviceSupported");
      if (support.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        throw std::runtime_error(unsupportedReason(support));
      CUpti_Device_GetChipName_Params chip{};
      chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
      chip.deviceIndex = static_cast<std::size_t>(device_ordinal);
      checkCupti(cupti_.deviceGetChipName(&chip), "cuptiDeviceGetChipName");
      chip_name_ = chip.pChipName ? chip.pChipName : "";
      // Which counters this context may read now (the first call that fails without the permission).
      CUpti_Profiler_GetCounterAvailability_Params availability{};
      availability.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
      availability.ctx = context_;
      checkCupti(cupti_.getCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability (size)");
      availability_image_.resize(availability.counterAvailabilityImageSize);
      availability.pCounterAvailabilityImage = availability_image_.data();
      checkCupti(cupti_.getCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
    } catch (...) {
      deinitialize();
      throw;
    }
  }
  ~CuptiBackend() override {
    reset();
    deinitialize();
  }

  MetricSet configure(int id, const std::vector<std::string>& metrics) override {
    // All metrics go in with one call, as in NVIDIA's range_profiling sample, so CUPTI schedules passes
    // for the set as a whole. (Added one call each, they took one pass each on an H100, and the FADD,
    // FMUL and FFMA counts of vecadd, which runs FADDs only, all read the same value.)
    Set& set = sets_[id];
    set.host = std::make_unique<HostObject>(cupti_, chip_name_, availability_image_);
    MetricSet answer;
    std::vector<const char*> requested;
    for (const std::string& metric : metrics) requested.push_back(metric.c_str());
    std::vector<const char*> collected = requested;
    if (const CUptiResult all = set.host->addMetrics(requested); all != CUPTI_SUCCESS) {
      // Some name is unknown to this chip: find which on throwaway objects (a failed add may leave its
      // object half-configured), then configure a fresh one with the rest.
      collected.clear();
      for (const char* name : requested) {
        HostObject probe(cupti_, chip_name_, availability_image_);
        const CUptiResult result = probe.addMetrics({name});
        if (result == CUPTI_SUCCESS) collected.push_back(name);
        else answer.missing[name] = "not available on " + chip_name_ + ": " + cupti_.errorText(result);
      }
      if (collected.empty()) throw std::runtime_error("none of the requested metrics is available on " + chip_name_);
      set.host->reset();
      checkCupti(set.host->addMetrics(collected), "cuptiProfilerHostConfigAddMetrics");
    }
    for (const char* name : collected) set.names.emplace_back(name);
    for (const std::string& name : set.names) set.name_pointers.push_back(name.c_str());
    CUpti_Profiler_Host_GetConfigImageSize_Params config_size{};
    config_size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
    config_size.pHostObject = set.host->get();
    checkCupti(cupti_.hostGetConfigImageSize(&config_size), "cuptiProfilerHostGetConfigImageSize");
    set.config_image.resize(config_size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params config{};
    config.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
    config.pHostObject = set.host->get();
    config.configImageSize = set.config_image.size();
    config.pConfigImage = set.config_image.data();
    checkCupti(cupti_.hostGetConfigImage(&config), "cuptiProfilerHostGetConfigImage");
    CUpti_Profiler_Host_GetNumOfPasses_Params pass_count{};
    pass_count.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
    pass_count.configImageSize = set.config_image.size();
    pass_count.pConfigImage = set.config_image.data();
    checkCupti(cupti_.hostGetNumOfPasses(&pass_count), "cuptiProfilerHostGetNumOfPasses");
    answer.collected = set.names;
    answer.passes = static_cast<int>(pass_count.numOfPasses);
    return answer;
  }

  void enable() override {
    CUpti_RangeProfiler_Enable_Params enable{};
    enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    enable.ctx = context_;
    checkCupti(cupti_.rangeEnable(&enable), "cuptiRangeProfilerEnable");
    profiler_ = enable.pRangeProfilerObject;
    profilerSwitched(true);
  }

  void setConfig(int id) override {
    Set& set = sets_.at(id);
    if (set.counter_data.empty()) {
      // A counter data image for one range of this set, sized once per enabled profiler.
      CUpti_RangeProfiler_GetCounterDataSize_Params data_size{};
      data_size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
      data_size.pRangeProfilerObject = profiler_;
      data_size.pMetricNames = set.name_pointers.data();
      data_size.numMetrics = set.name_pointers.size();
      data_size.maxNumOfRanges = 1;
      data_size.maxNumRangeTreeNodes = 1;
      checkCupti(cupti_.rangeGetCounterDataSize(&data_size), "cuptiRangeProfilerGetCounterDataSize");
      set.counter_data.resize(data_size.counterDataSize);
    }
    // Initialising the image also empties it of the previous range's data.
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{};
    data_init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    data_init.pRangeProfilerObject = profiler_;
    data_init.counterDataSize = set.counter_data.size();
    data_init.pCounterData = set.counter_data.data();
    checkCupti(cupti_.rangeCounterDataImageInitialize(&data_init), "cuptiRangeProfilerCounterDataImageInitialize");
    CUpti_RangeProfiler_SetConfig_Params set_config{};
    set_config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
    set_config.pRangeProfilerObject = profiler_;
    set_config.configSize = set.config_image.size();
    set_config.pConfig = set.config_image.data();
    set_config.counterDataImageSize = set.counter_data.size();
    set_config.pCounterDataImage = set.counter_data.data();
    set_config.range = CUPTI_UserRange;        // one range that we open and close around the whole sequence
    set_config.replayMode = CUPTI_UserReplay;  // we replay it; kernel replay would split it per kernel
    set_config.maxRangesPerPass = 1;
    set_config.numNestingLevels = 1;
    set_config.minNestingLevel = 1;
    set_config.passIndex = 0;
    set_config.targetNestingLevel = 1;
    checkCupti(cupti_.rangeSetConfig(&set_config), "cuptiRangeProfilerSetConfig");
  }

  bool runPass(const std::function<void()>& work) override {
    CUpti_RangeProfiler_Start_Params start{};
    start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    start.pRangeProfilerObject = profiler_;
    checkCupti(cupti_.rangeStart(&start), "cuptiRangeProfilerStart");
    CUpti_RangeProfiler_Stop_Params stop{};
    stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    stop.pRangeProfilerObject = profiler_;
    try {
      CUpti_RangeProfiler_PushRange_Params push{};
      push.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE;
      push.pRangeProfilerObject = profiler_;
      push.pRangeName = "rooflab";
      checkCupti(cupti_.rangePushRange(&push), "cuptiRangeProfilerPushRange");
      work();
      CUpti_RangeProfiler_PopRange_Params pop{};
      pop.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
      pop.pRangeProfilerObject = profiler_;
      checkCupti(cupti_.rangePopRange(&pop), "cuptiRangeProfilerPopRange");
    } catch (...) {
      cupti_.rangeStop(&stop);  // leave the profiler stopped, so Disable can clean up
      throw;
    }
    checkCupti(cupti_.rangeStop(&stop), "cuptiRangeProfilerStop");
    checkCuda(cudaDriver().ctxSynchronize(), "cuCtxSynchronize (after a profiling pass)");
    return stop.isAllPassSubmitted != 0;
  }

  std::map<std::string, double> decode(int id) override {
    Set& set = sets_.at(id);
    CUpti_RangeProfiler_DecodeData_Params decode{};
    decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
    decode.pRangeProfilerObject = profiler_;
    checkCupti(cupti_.rangeDecodeData(&decode), "cuptiRangeProfilerDecodeData");
    if (decode.numOfRangeDropped > 0) throw std::runtime_error("CUPTI dropped the profiled range");
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
    info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    info.pCounterDataImage = set.counter_data.data();
    info.counterDataImageSize = set.counter_data.size();
    checkCupti(cupti_.rangeGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges == 0) throw std::runtime_error("CUPTI recorded no range (did the work launch any kernel?)");
    std::vector<double> values(set.name_pointers.size());
    CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{};
    evaluate.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
    evaluate.pHostObject = set.host->get();
    evaluate.pCounterDataImage = set.counter_data.data();
    evaluate.counterDataImageSize = set.counter_data.size();
    evaluate.rangeIndex = 0;
    evaluate.ppMetricNames = set.name_pointers.data();
    evaluate.numMetrics = set.name_pointers.size();
    evaluate.pMetricValues = values.data();
    checkCupti(cupti_.hostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
    std::map<std::string, double> out;
    for (std::size_t i = 0; i < set.names.size(); ++i) out[set.names[i]] = values[i];
    return out;
  }

  void disable() noexcept override {
    if (profiler_) {
      CUpti_RangeProfiler_Disable_Params p{};
      p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
      p.pRangeProfilerObject = profiler_;
      cupti_.rangeDisable(&p);
      profiler_ = nullptr;
      profilerSwitched(false);
    }
    for (auto& [id, set] : sets_) set.counter_data.clear();  // sized for the profiler object just gone
  }

  void reset() noexcept override {
    disable();
    sets_.clear();
  }

 private:
  struct Set {
    std::unique_ptr<HostObject> host;
    std::vector<std::string> names;
    std::vector<const char*> name_pointers;  // into names
    std::vector<std::uint8_t> config_image;
    std::vector<std::uint8_t> counter_data;  // sized at the first setConfig
  };
  void deinitialize() noexcept {
    if (!initialized_) return;
    CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, nullptr};
    cupti_.profilerDeInitialize(&p);
    initialized_ = false;
  }

  const CuptiLibrary& cupti_;
  CUcontext context_;
  bool initialized_ = false;
  std::string chip_name_;
  std::vector<std::uint8_t> availability_image_;
  CUpti_RangeProfiler_Object* profiler_ = nullptr;
  std::map<int, Set> sets_;
};

// One session per context, for the life of the context (dropProfilerSessions). Leaked on purpose, as
// the primary contexts are kept: no CUPTI call runs at process exit, after CUPTI may have gone.
std::map<CUcontext, std::unique_ptr<ProfilerSession>>& sessions() {
  static auto* kept = new std::map<CUcontext, std::unique_ptr<ProfilerSession>>;
  return *kept;
}

}  // namespace

RangeProfile profileOneRange(CUcontext context, int device_ordinal, const std::vector<std::string>& metrics,
                             const std::function<void()>& prepare_pass, const std::function<void()>& run_work,
                             bool keep_enabled) {
  auto found = sessions().find(context);
  if (found == sessions().end())
    found = sessions()
                .emplace(context,
                         std::make_unique<ProfilerSession>(std::make_unique<CuptiBackend>(context, device_ordinal)))
                .first;
  struct EndRange {
    ProfilerSession& session;
    bool keep;
    ~EndRange() {
      if (!keep) session.disableProfiler();
    }
  } end_range{*found->second, keep_enabled};
  return found->second->profile(metrics, prepare_pass, run_work);
}

void disableKeptProfilers() noexcept {
  for (auto& [context, session] : sessions()) session->disableProfiler();
}

void dropProfilerSessions() noexcept { sessions().clear(); }

#else  // no cupti_range_profiler.h

RangeProfile profileOneRange(CUcontext, int, const std::vector<std::string>&, const std::function<void()>&,
                             const std::function<void()>&, bool) {
  throw std::runtime_error(cuptiLibrary().unavailable_reason);
}

void disableKeptProfilers() noexcept {}

void dropProfilerSessions() noexcept {}

#endif  // ROOFLAB_HAVE_CUPTI_RANGE_PROFILER

}  // namespace rooflab::counters
