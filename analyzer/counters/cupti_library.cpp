#include "analyzer/counters/cupti_library.hpp"

#include <dlfcn.h>
#include <link.h>

#include <climits>
#include <cstdlib>
#include <initializer_list>
#include <vector>

#include "analyzer/counters/cuda_driver.hpp"
#include "analyzer/counters/cupti_choice.hpp"

namespace rooflab::counters {

#ifdef ROOFLAB_HAVE_CUPTI_RANGE_PROFILER
namespace {

template <class Fn>
void loadSymbol(void* library, Fn& fn, const char* name, std::string& missing) {
  if (void* symbol = dlsym(library, name)) {
    fn = reinterpret_cast<Fn>(symbol);
    return;
  }
  missing += (missing.empty() ? "" : ", ") + std::string(name);
}

std::vector<std::string> candidatePaths() {
  const std::string versioned = "libcupti.so." + std::to_string(CUDA_VERSION / 1000);
  std::vector<std::string> paths;
  if (!chosenCuptiLibrary().empty()) paths.push_back(chosenCuptiLibrary());
#ifdef ROOFLAB_CUPTI_LIBRARY_PATH
  paths.emplace_back(ROOFLAB_CUPTI_LIBRARY_PATH);  // the libcupti CMake found at build time
#endif
  paths.push_back(versioned);
  paths.emplace_back("libcupti.so");
  std::vector<std::string> roots;
#ifdef ROOFLAB_CUDA_LIBRARY_DIR
  roots.emplace_back(ROOFLAB_CUDA_LIBRARY_DIR);
#endif
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(variable)) {
      roots.push_back(std::string(root) + "/lib64");
      roots.push_back(std::string(root) + "/extras/CUPTI/lib64");
    }
  for (const char* dir : {"/usr/local/cuda/lib64", "/usr/local/cuda/extras/CUPTI/lib64", "/usr/local/cuda/lib",
                          "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"})
    roots.emplace_back(dir);
  for (const std::string& root : roots) {
    paths.push_back(root + "/" + versioned);
    paths.push_back(root + "/libcupti.so");
  }
  return paths;
}

// CUPTI's profiler opens libnvperf_host.so and libnvperf_target.so by name. They sit beside libcupti,
// a folder that need not be on the loader's path when libcupti was found by full path: load them from
// there first, so CUPTI's own dlopen finds them already loaded. Missing ones are CUPTI's to report.
void preloadPerfworksBeside(void* cupti) {
  char origin[PATH_MAX] = {};
  if (dlinfo(cupti, RTLD_DI_ORIGIN, origin) != 0) return;
  for (const char* name : {"libnvperf_host.so", "libnvperf_target.so"})
    dlopen((std::string(origin) + "/" + name).c_str(), RTLD_NOW | RTLD_GLOBAL);
}

CuptiLibrary loadCupti() {
  CuptiLibrary c;
  if (!cudaDriver().usable()) {
    c.unavailable_reason = cudaDriver().unavailable_reason;
    return c;
  }
  void* library = nullptr;
  std::string first_error;
  for (const std::string& path : candidatePaths()) {
    library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (library) {
      c.path = path;
      break;
    }
    if (first_error.empty()) {
      const char* error = dlerror();
      first_error = error ? error : path;
    }
  }
  if (!library) {
    c.unavailable_reason = "cannot load libcupti (install the CUDA Toolkit's CUPTI, or name its path with "
                           "--cupti-library, [run] cupti_library or ROOFLAB_CUPTI_LIBRARY): " +
                           first_error;
    return c;
  }
  preloadPerfworksBeside(library);

  std::string missing;
  loadSymbol(library, c.getResultString, "cuptiGetResultString", missing);
  loadSymbol(library, c.profilerInitialize, "cuptiProfilerInitialize", missing);
  loadSymbol(library, c.profilerDeInitialize, "cuptiProfilerDeInitialize", missing);
  loadSymbol(library, c.profilerDeviceSupported, "cuptiProfilerDeviceSupported", missing);
  loadSymbol(library, c.deviceGetChipName, "cuptiDeviceGetChipName", missing);
  loadSymbol(library, c.getCounterAvailability, "cuptiProfilerGetCounterAvailability", missing);
  loadSymbol(library, c.hostInitialize, "cuptiProfilerHostInitialize", missing);
  loadSymbol(library, c.hostDeinitialize, "cuptiProfilerHostDeinitialize", missing);
  loadSymbol(library, c.hostConfigAddMetrics, "cuptiProfilerHostConfigAddMetrics", missing);
  loadSymbol(library, c.hostGetConfigImageSize, "cuptiProfilerHostGetConfigImageSize", missing);
  loadSymbol(library, c.hostGetConfigImage, "cuptiProfilerHostGetConfigImage", missing);
  loadSymbol(library, c.hostGetNumOfPasses, "cuptiProfilerHostGetNumOfPasses", missing);
  loadSymbol(library, c.hostEvaluateToGpuValues, "cuptiProfilerHostEvaluateToGpuValues", missing);
  loadSymbol(library, c.rangeEnable, "cuptiRangeProfilerEnable", missing);
  loadSymbol(library, c.rangeDisable, "cuptiRangeProfilerDisable", missing);
  loadSymbol(library, c.rangeGetCounterDataSize, "cuptiRangeProfilerGetCounterDataSize", missing);
  loadSymbol(library, c.rangeCounterDataImageInitialize, "cuptiRangeProfilerCounterDataImageInitialize", missing);
  loadSymbol(library, c.rangeSetConfig, "cuptiRangeProfilerSetConfig", missing);
  loadSymbol(library, c.rangeStart, "cuptiRangeProfilerStart", missing);
  loadSymbol(library, c.rangeStop, "cuptiRangeProfilerStop", missing);
  loadSymbol(library, c.rangePushRange, "cuptiRangeProfilerPushRange", missing);
  loadSymbol(library, c.rangePopRange, "cuptiRangeProfilerPopRange", missing);
  loadSymbol(library, c.rangeDecodeData, "cuptiRangeProfilerDecodeData", missing);
  loadSymbol(library, c.rangeGetCounterDataInfo, "cuptiRangeProfilerGetCounterDataInfo", missing);
  if (!missing.empty())
    c.unavailable_reason = c.path + " lacks " + missing + " (the range profiler needs CUPTI from CUDA 12.6 or later)";
  loadSymbol(library, c.subscribe, "cuptiSubscribe", c.pc_sampling_missing);
  loadSymbol(library, c.unsubscribe, "cuptiUnsubscribe", c.pc_sampling_missing);
  loadSymbol(library, c.enableCallback, "cuptiEnableCallback", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingGetNumStallReasons, "cuptiPCSamplingGetNumStallReasons", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingGetStallReasons, "cuptiPCSamplingGetStallReasons", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingSetConfigurationAttribute, "cuptiPCSamplingSetConfigurationAttribute",
             c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingEnable, "cuptiPCSamplingEnable", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingDisable, "cuptiPCSamplingDisable", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingStart, "cuptiPCSamplingStart", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingStop, "cuptiPCSamplingStop", c.pc_sampling_missing);
  loadSymbol(library, c.pcSamplingGetData, "cuptiPCSamplingGetData", c.pc_sampling_missing);
  loadSymbol(library, c.getSassToSourceCorrelation, "cuptiGetSassToSourceCorrelation", c.pc_sampling_missing);
  loadSymbol(library, c.getCubinCrc, "cuptiGetCubinCrc", c.pc_sampling_missing);
  return c;
}

}  // namespace

std::string CuptiLibrary::errorText(CUptiResult result) const {
  const char* text = nullptr;
  if (getResultString) getResultString(result, &text);
  std::string out =
      (text ? std::string(text) : std::string("CUPTI error")) + " (" + std::to_string(static_cast<int>(result)) + ")";
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      out += ": this user may not read GPU performance counters (ERR_NVGPUCTRPERM). Run rooflab as root, or "
             "let every user profile: load the nvidia kernel module with NVreg_RestrictProfilingToAdminUsers=0 "
             "(e.g. 'options nvidia NVreg_RestrictProfilingToAdminUsers=0' in /etc/modprobe.d/, then reboot); "
             "in a container, run it with --cap-add=SYS_ADMIN. See https://developer.nvidia.com/ERR_NVGPUCTRPERM";
      break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
      out += ": another profiler (Nsight Compute, Nsight Systems, a CUPTI tool) holds the GPU's counters; run "
             "rooflab outside it";
      break;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED: out += ": this GPU does not expose performance counters"; break;
    default: break;
  }
  return out;
}

const CuptiLibrary& cuptiLibrary() {
  static const CuptiLibrary library = loadCupti();
  return library;
}

#else  // no cupti_range_profiler.h

std::string CuptiLibrary::errorText(CUptiResult result) const {
  return "CUPTI error (" + std::to_string(static_cast<int>(result)) + ")";
}

const CuptiLibrary& cuptiLibrary() {
  static const CuptiLibrary library = [] {
    CuptiLibrary c;
    c.unavailable_reason = "rooflab was built with CUDA " + std::to_string(CUDA_VERSION / 1000) + "." +
                           std::to_string(CUDA_VERSION % 1000 / 10) +
                           ", whose CUPTI has no range profiler (cupti_range_profiler.h, CUDA 12.6 or later)";
    return c;
  }();
  return library;
}

#endif  // ROOFLAB_HAVE_CUPTI_RANGE_PROFILER

void checkCupti(CUptiResult result, const std::string& call) {
  if (result != CUPTI_SUCCESS) throw CuptiError(call + ": " + cuptiLibrary().errorText(result), result);
}

}  // namespace rooflab::counters
