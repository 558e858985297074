#pragma once
// libcupti, opened at run time for the same reason as libcuda (cuda_driver.hpp): the headers give the
// types, dlopen/dlsym the functions. Only the calls of the CUDA 13 range profiler are loaded.
#include <cupti_result.h>

// The range profiler came with CUDA 12.6. Built against an older toolkit, rooflab still builds and runs,
// and reports counters as unavailable.
#if __has_include(<cupti_range_profiler.h>)
#define ROOFLAB_HAVE_CUPTI_RANGE_PROFILER 1
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <cupti_callbacks.h>
#include <cupti_pcsampling.h>
#endif

#include <stdexcept>
#include <string>

namespace rooflab::counters {

struct CuptiLibrary {
  std::string unavailable_reason;  // "" when the library and every function below loaded
  std::string path;                // the file that was opened

  decltype(&::cuptiGetResultString) getResultString = nullptr;
#ifdef ROOFLAB_HAVE_CUPTI_RANGE_PROFILER
  decltype(&::cuptiProfilerInitialize) profilerInitialize = nullptr;
  decltype(&::cuptiProfilerDeInitialize) profilerDeInitialize = nullptr;
  decltype(&::cuptiProfilerDeviceSupported) profilerDeviceSupported = nullptr;
  decltype(&::cuptiDeviceGetChipName) deviceGetChipName = nullptr;
  decltype(&::cuptiProfilerGetCounterAvailability) getCounterAvailability = nullptr;
  decltype(&::cuptiProfilerHostInitialize) hostInitialize = nullptr;
  decltype(&::cuptiProfilerHostDeinitialize) hostDeinitialize = nullptr;
  decltype(&::cuptiProfilerHostConfigAddMetrics) hostConfigAddMetrics = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImageSize) hostGetConfigImageSize = nullptr;
  decltype(&::cuptiProfilerHostGetConfigImage) hostGetConfigImage = nullptr;
  decltype(&::cuptiProfilerHostGetNumOfPasses) hostGetNumOfPasses = nullptr;
  decltype(&::cuptiProfilerHostEvaluateToGpuValues) hostEvaluateToGpuValues = nullptr;
  decltype(&::cuptiRangeProfilerEnable) rangeEnable = nullptr;
  decltype(&::cuptiRangeProfilerDisable) rangeDisable = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataSize) rangeGetCounterDataSize = nullptr;
  decltype(&::cuptiRangeProfilerCounterDataImageInitialize) rangeCounterDataImageInitialize = nullptr;
  decltype(&::cuptiRangeProfilerSetConfig) rangeSetConfig = nullptr;
  decltype(&::cuptiRangeProfilerStart) rangeStart = nullptr;
  decltype(&::cuptiRangeProfilerStop) rangeStop = nullptr;
  decltype(&::cuptiRangeProfilerPushRange) rangePushRange = nullptr;
  decltype(&::cuptiRangeProfilerPopRange) rangePopRange = nullptr;
  decltype(&::cuptiRangeProfilerDecodeData) rangeDecodeData = nullptr;
  decltype(&::cuptiRangeProfilerGetCounterDataInfo) rangeGetCounterDataInfo = nullptr;
  // PC sampling and the module-load callback that hands over a module's cubin (pc_sampling.hpp).
  // Their absence leaves the counters usable: pc_sampling_missing says which are missing.
  std::string pc_sampling_missing;
  decltype(&::cuptiSubscribe) subscribe = nullptr;
  decltype(&::cuptiUnsubscribe) unsubscribe = nullptr;
  decltype(&::cuptiEnableCallback) enableCallback = nullptr;
  decltype(&::cuptiPCSamplingGetNumStallReasons) pcSamplingGetNumStallReasons = nullptr;
  decltype(&::cuptiPCSamplingGetStallReasons) pcSamplingGetStallReasons = nullptr;
  decltype(&::cuptiPCSamplingSetConfigurationAttribute) pcSamplingSetConfigurationAttribute = nullptr;
  decltype(&::cuptiPCSamplingEnable) pcSamplingEnable = nullptr;
  decltype(&::cuptiPCSamplingDisable) pcSamplingDisable = nullptr;
  decltype(&::cuptiPCSamplingStart) pcSamplingStart = nullptr;
  decltype(&::cuptiPCSamplingStop) pcSamplingStop = nullptr;
  decltype(&::cuptiPCSamplingGetData) pcSamplingGetData = nullptr;
  decltype(&::cuptiGetSassToSourceCorrelation) getSassToSourceCorrelation = nullptr;
  decltype(&::cuptiGetCubinCrc) getCubinCrc = nullptr;
#endif

  bool usable() const { return unavailable_reason.empty(); }
  // "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)", with what to do about it where rooflab knows.
  std::string errorText(CUptiResult result) const;
};

// Loaded once, on first use (libcuda first); never unloaded. Looks for the library the user chose
// (cupti_choice.hpp: --cupti-library, [run] cupti_library or $ROOFLAB_CUPTI_LIBRARY), then the
// libcupti CMake found (ROOFLAB_CUPTI_LIBRARY_PATH), then libcupti.so.<CUDA major> and libcupti.so on the
// loader's path, then the CUDA Toolkit's library folders (ROOFLAB_CUDA_LIBRARY_DIR, $CUDA_HOME,
// $CUDA_PATH, /usr/local/cuda, including extras/CUPTI/lib64).
const CuptiLibrary& cuptiLibrary();

// A failed CUPTI call, with the call and the result's text.
class CuptiError : public std::runtime_error {
 public:
  CuptiError(const std::string& message, CUptiResult result) : std::runtime_error(message), result_(result) {}
  CUptiResult result() const { return result_; }

 private:
  CUptiResult result_;
};

void checkCupti(CUptiResult result, const std::string& call);

}  // namespace rooflab::counters
