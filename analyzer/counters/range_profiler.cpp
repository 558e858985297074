#include "analyzer/counters/range_profiler.hpp"

#include <cstdint>
#include <stdexcept>
#include <utility>

#include "analyzer/counters/cuda_driver.hpp"
#include "analyzer/counters/cupti_library.hpp"

namespace rooflab::counters {

#ifdef ROOFLAB_HAVE_CUPTI_RANGE_PROFILER
namespace {

// Runs a cleanup on every way out of a scope; cleanups ignore errors (they may run while unwinding).
template <class F>
class ScopeExit {
 public:
  explicit ScopeExit(F f) : f_(std::move(f)) {}
  ~ScopeExit() { f_(); }
  ScopeExit(const ScopeExit&) = delete;
  ScopeExit& operator=(const ScopeExit&) = delete;

 private:
  F f_;
};

// No metric table needs this many passes; more means the replay loop is not converging.
constexpr int kMaxPasses = 64;

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

}  // namespace

RangeProfile profileOneRange(CUcontext context, int device_ordinal, const std::vector<std::string>& metrics,
                             const std::function<void()>& prepare_pass, const std::function<void()>& run_work) {
  const CuptiLibrary& cupti = cuptiLibrary();
  if (!cupti.usable()) throw std::runtime_error(cupti.unavailable_reason);
  RangeProfile profile;

  CUpti_Profiler_Initialize_Params initialize{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
  checkCupti(cupti.profilerInitialize(&initialize), "cuptiProfilerInitialize");
  ScopeExit deinitialize([&] {
    CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, nullptr};
    cupti.profilerDeInitialize(&p);
  });

  CUdevice device = 0;
  checkCuda(cudaDriver().deviceGet(&device, device_ordinal), "cuDeviceGet");
  CUpti_Profiler_DeviceSupported_Params support{};
  support.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
  support.cuDevice = device;
  support.api = CUPTI_PROFILER_RANGE_PROFILING;
  checkCupti(cupti.profilerDeviceSupported(&support), "cuptiProfilerDeviceSupported");
  if (support.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) throw std::runtime_error(unsupportedReason(support));

  CUpti_Device_GetChipName_Params chip{};
  chip.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  chip.deviceIndex = static_cast<std::size_t>(device_ordinal);
  checkCupti(cupti.deviceGetChipName(&chip), "cuptiDeviceGetChipName");
  const std::string chip_name = chip.pChipName ? chip.pChipName : "";

  // Which counters this context may read now (the first call that fails without the permission).
  CUpti_Profiler_GetCounterAvailability_Params availability{};
  availability.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  availability.ctx = context;
  checkCupti(cupti.getCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability (size)");
  std::vector<std::uint8_t> availability_image(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = availability_image.data();
  checkCupti(cupti.getCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");

  // Host side: the configuration image that tells the GPU what to count. All metrics go in with one
  // call, as in NVIDIA's range_profiling sample, so CUPTI schedules passes for the set as a whole.
  // (Added one call each, they took one pass each on an H100, and the FADD, FMUL and FFMA counts of
  // vecadd, which runs FADDs only, all read the same value.)
  const std::vector<const char*> requested = [&] {
    std::vector<const char*> names;
    for (const std::string& metric : metrics) names.push_back(metric.c_str());
    return names;
  }();
  HostObject host(cupti, chip_name, availability_image);
  std::vector<const char*> collected = requested;
  if (const CUptiResult all = host.addMetrics(requested); all != CUPTI_SUCCESS) {
    // Some name is unknown to this chip: find which on throwaway objects (a failed add may leave its
    // object half-configured), then configure a fresh one with the rest.
    collected.clear();
    for (const char* name : requested) {
      HostObject probe(cupti, chip_name, availability_image);
      const CUptiResult result = probe.addMetrics({name});
      if (result == CUPTI_SUCCESS) collected.push_back(name);
      else profile.missing[name] = "not available on " + chip_name + ": " + cupti.errorText(result);
    }
    if (collected.empty()) throw std::runtime_error("none of the requested metrics is available on " + chip_name);
    host.reset();
    checkCupti(host.addMetrics(collected), "cuptiProfilerHostConfigAddMetrics");
  }

  CUpti_Profiler_Host_GetConfigImageSize_Params config_size{};
  config_size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  config_size.pHostObject = host.get();
  checkCupti(cupti.hostGetConfigImageSize(&config_size), "cuptiProfilerHostGetConfigImageSize");
  std::vector<std::uint8_t> config_image(config_size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params config{};
  config.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  config.pHostObject = host.get();
  config.configImageSize = config_image.size();
  config.pConfigImage = config_image.data();
  checkCupti(cupti.hostGetConfigImage(&config), "cuptiProfilerHostGetConfigImage");

  CUpti_Profiler_Host_GetNumOfPasses_Params pass_count{};
  pass_count.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
  pass_count.configImageSize = config_image.size();
  pass_count.pConfigImage = config_image.data();
  checkCupti(cupti.hostGetNumOfPasses(&pass_count), "cuptiProfilerHostGetNumOfPasses");

  // Target side: the range profiler on this context, with a counter data image for one range.
  CUpti_RangeProfiler_Enable_Params enable{};
  enable.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
  enable.ctx = context;
  checkCupti(cupti.rangeEnable(&enable), "cuptiRangeProfilerEnable");
  CUpti_RangeProfiler_Object* profiler = enable.pRangeProfilerObject;
  ScopeExit disable([&] {
    CUpti_RangeProfiler_Disable_Params p{};
    p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = profiler;
    cupti.rangeDisable(&p);
  });

  CUpti_RangeProfiler_GetCounterDataSize_Params data_size{};
  data_size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
  data_size.pRangeProfilerObject = profiler;
  data_size.pMetricNames = collected.data();
  data_size.numMetrics = collected.size();
  data_size.maxNumOfRanges = 1;
  data_size.maxNumRangeTreeNodes = 1;
  checkCupti(cupti.rangeGetCounterDataSize(&data_size), "cuptiRangeProfilerGetCounterDataSize");
  std::vector<std::uint8_t> counter_data(data_size.counterDataSize);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{};
  data_init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
  data_init.pRangeProfilerObject = profiler;
  data_init.counterDataSize = counter_data.size();
  data_init.pCounterData = counter_data.data();
  checkCupti(cupti.rangeCounterDataImageInitialize(&data_init), "cuptiRangeProfilerCounterDataImageInitialize");

  CUpti_RangeProfiler_SetConfig_Params set_config{};
  set_config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
  set_config.pRangeProfilerObject = profiler;
  set_config.configSize = config_image.size();
  set_config.pConfig = config_image.data();
  set_config.counterDataImageSize = counter_data.size();
  set_config.pCounterDataImage = counter_data.data();
  set_config.range = CUPTI_UserRange;        // one range that we open and close around the whole sequence
  set_config.replayMode = CUPTI_UserReplay;  // we replay it; kernel replay would split it per kernel
  set_config.maxRangesPerPass = 1;
  set_config.numNestingLevels = 1;
  set_config.minNestingLevel = 1;
  set_config.passIndex = 0;
  set_config.targetNestingLevel = 1;
  checkCupti(cupti.rangeSetConfig(&set_config), "cuptiRangeProfilerSetConfig");

  for (bool all_passes_submitted = false; !all_passes_submitted;) {
    if (profile.passes >= kMaxPasses)
      throw std::runtime_error("CUPTI still wanted passes after " + std::to_string(kMaxPasses) + " replays");
    prepare_pass();
    CUpti_RangeProfiler_Start_Params start{};
    start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
    start.pRangeProfilerObject = profiler;
    checkCupti(cupti.rangeStart(&start), "cuptiRangeProfilerStart");
    CUpti_RangeProfiler_Stop_Params stop{};
    stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
    stop.pRangeProfilerObject = profiler;
    try {
      CUpti_RangeProfiler_PushRange_Params push{};
      push.structSize = CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE;
      push.pRangeProfilerObject = profiler;
      push.pRangeName = "rooflab";
      checkCupti(cupti.rangePushRange(&push), "cuptiRangeProfilerPushRange");
      run_work();
      CUpti_RangeProfiler_PopRange_Params pop{};
      pop.structSize = CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE;
      pop.pRangeProfilerObject = profiler;
      checkCupti(cupti.rangePopRange(&pop), "cuptiRangeProfilerPopRange");
    } catch (...) {
      cupti.rangeStop(&stop);  // leave the profiler stopped, so Disable can clean up
      throw;
    }
    checkCupti(cupti.rangeStop(&stop), "cuptiRangeProfilerStop");
    checkCuda(cudaDriver().ctxSynchronize(), "cuCtxSynchronize (after a profiling pass)");
    all_passes_submitted = stop.isAllPassSubmitted != 0;
    ++profile.passes;
  }

  CUpti_RangeProfiler_DecodeData_Params decode{};
  decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
  decode.pRangeProfilerObject = profiler;
  checkCupti(cupti.rangeDecodeData(&decode), "cuptiRangeProfilerDecodeData");
  if (decode.numOfRangeDropped > 0) throw std::runtime_error("CUPTI dropped the profiled range");

  CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
  info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
  info.pCounterDataImage = counter_data.data();
  info.counterDataImageSize = counter_data.size();
  checkCupti(cupti.rangeGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
  if (info.numTotalRanges == 0) throw std::runtime_error("CUPTI recorded no range (did the work launch any kernel?)");

  std::vector<double> values(collected.size());
  CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate{};
  evaluate.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
  evaluate.pHostObject = host.get();
  evaluate.pCounterDataImage = counter_data.data();
  evaluate.counterDataImageSize = counter_data.size();
  evaluate.rangeIndex = 0;
  evaluate.ppMetricNames = collected.data();
  evaluate.numMetrics = collected.size();
  evaluate.pMetricValues = values.data();
  checkCupti(cupti.hostEvaluateToGpuValues(&evaluate), "cuptiProfilerHostEvaluateToGpuValues");
  for (std::size_t i = 0; i < collected.size(); ++i) profile.values[collected[i]] = values[i];
  return profile;
}

#else  // no cupti_range_profiler.h

RangeProfile profileOneRange(CUcontext, int, const std::vector<std::string>&, const std::function<void()>&,
                             const std::function<void()>&) {
  throw std::runtime_error(cuptiLibrary().unavailable_reason);
}

#endif  // ROOFLAB_HAVE_CUPTI_RANGE_PROFILER

}  // namespace rooflab::counters
