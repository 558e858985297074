#include "analyzer/counters/pc_sampling.hpp"

#include <chrono>
#include <cstdlib>
#include <map>
#include <tuple>
#include <utility>

#include "analyzer/counters/bridge_context.hpp"
#include "analyzer/counters/cupti_library.hpp"

namespace rooflab::counters::bridge_detail {
namespace {

const CuptiLibrary& pcSamplingCupti() {
  const CuptiLibrary& cupti = cuptiLibrary();
  if (!cupti.usable()) throw CuptiError(cupti.unavailable_reason, CUPTI_ERROR_NOT_INITIALIZED);
  if (!cupti.pc_sampling_missing.empty())
    throw CuptiError(cupti.path + " lacks " + cupti.pc_sampling_missing, CUPTI_ERROR_NOT_SUPPORTED);
  return cupti;
}

void CUPTIAPI onModuleLoaded(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || id != CUPTI_CBID_RESOURCE_MODULE_LOADED || !data) return;
  const auto* resource = static_cast<const CUpti_ResourceData*>(data);
  const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
  if (module && module->pCubin && module->cubinSize > 0)
    static_cast<CubinCapture*>(userdata)->add(module->pCubin, module->cubinSize);
}

// The reasons CUPTI knows on this context, by index. A reason's "_not_issued" twin counts the same
// samples once more (those where no instruction issued), so only the plain reasons are asked for.
std::map<std::uint32_t, std::string> stallReasons(CUcontext context) {
  const CuptiLibrary& cupti = pcSamplingCupti();
  std::size_t count = 0;
  CUpti_PCSamplingGetNumStallReasonsParams number = {CUpti_PCSamplingGetNumStallReasonsParamsSize, nullptr, context,
                                                     &count};
  checkCupti(cupti.pcSamplingGetNumStallReasons(&number), "cuptiPCSamplingGetNumStallReasons");
  std::vector<std::uint32_t> indices(count);
  std::vector<std::vector<char>> names(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE, '\0'));
  std::vector<char*> name_pointers;
  for (std::vector<char>& name : names) name_pointers.push_back(name.data());
  CUpti_PCSamplingGetStallReasonsParams reasons = {
      CUpti_PCSamplingGetStallReasonsParamsSize, nullptr, context, count, indices.data(), name_pointers.data()};
  checkCupti(cupti.pcSamplingGetStallReasons(&reasons), "cuptiPCSamplingGetStallReasons");
  static const std::string kPrefix = "smsp__pcsamp_warps_issue_stalled_";
  std::map<std::uint32_t, std::string> by_index;
  for (std::size_t i = 0; i < count; ++i) {
    std::string name(names[i].data());
    if (name.size() > 11 && name.compare(name.size() - 11, 11, "_not_issued") == 0) continue;
    if (name.compare(0, kPrefix.size(), kPrefix) == 0) name.erase(0, kPrefix.size());
    by_index[indices[i]] = name;
  }
  return by_index;
}

// CUPTI's parsed-data buffer: room for `pcs` instructions with every asked-for reason each.
struct SamplingBuffer {
  CUpti_PCSamplingData data{};
  std::vector<CUpti_PCSamplingPCData> pcs;
  std::vector<CUpti_PCSamplingStallReason> reasons;
  SamplingBuffer(std::size_t pc_count, std::size_t reason_count) : pcs(pc_count), reasons(pc_count * reason_count) {
    data.size = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = pc_count;
    data.pPcData = pcs.data();
    for (std::size_t i = 0; i < pc_count; ++i) pcs[i].stallReason = reasons.data() + i * reason_count;
  }
};

void configure(CUcontext context, std::vector<std::uint32_t>& reason_indices, SamplingBuffer& buffer) {
  std::vector<CUpti_PCSamplingConfigurationInfo> infos(5);
  infos[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
  infos[0].attributeData.stallReasonData.stallReasonCount = reason_indices.size();
  infos[0].attributeData.stallReasonData.pStallReasonIndex = reason_indices.data();
  infos[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
  infos[1].attributeData.samplingPeriodData.samplingPeriod = kSamplingPeriodLog2;
  infos[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
  infos[2].attributeData.samplingDataBufferData.samplingDataBuffer = &buffer.data;
  infos[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
  infos[3].attributeData.enableStartStopControlData.enableStartStopControl = 1;
  infos[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
  // Serialised: each launch runs alone, so a sample is the launch's own and none is lost to overlap.
  infos[4].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
  CUpti_PCSamplingConfigurationInfoParams params = {CUpti_PCSamplingConfigurationInfoParamsSize, nullptr, context,
                                                    infos.size(), infos.data()};
  checkCupti(pcSamplingCupti().pcSamplingSetConfigurationAttribute(&params),
             "cuptiPCSamplingSetConfigurationAttribute");
}

// PC sampling enabled on the context while it lives.
class EnabledSampling {
 public:
  explicit EnabledSampling(CUcontext context) : context_(context) {
    CUpti_PCSamplingEnableParams params = {CUpti_PCSamplingEnableParamsSize, nullptr, context};
    checkCupti(pcSamplingCupti().pcSamplingEnable(&params), "cuptiPCSamplingEnable");
  }
  ~EnabledSampling() {
    CUpti_PCSamplingDisableParams params = {CUpti_PCSamplingDisableParamsSize, nullptr, context_};
    pcSamplingCupti().pcSamplingDisable(&params);
  }
  EnabledSampling(const EnabledSampling&) = delete;
  EnabledSampling& operator=(const EnabledSampling&) = delete;

 private:
  CUcontext context_;
};

// A sampled instruction's line, asked of CUPTI once per (function, offset).
struct LineOf {
  std::string file;
  int line = 0;
};
LineOf lineOf(const std::string* cubin, const char* function, std::uint64_t pc_offset) {
  LineOf where;
  if (!cubin) return where;
  CUpti_GetSassToSourceCorrelationParams params{};
  params.size = CUpti_GetSassToSourceCorrelationParamsSize;
  params.cubin = cubin->data();
  params.cubinSize = cubin->size();
  params.functionName = function;
  params.pcOffset = pc_offset;
  // An instruction with no line info is no error: its samples are counted as unattributed.
  if (pcSamplingCupti().getSassToSourceCorrelation(&params) == CUPTI_SUCCESS) {
    if (params.fileName) where.file = params.fileName;
    where.line = static_cast<int>(params.lineNumber);
  }
  std::free(params.fileName);
  std::free(params.dirName);
  return where;
}

// The buffer's instructions added to `lines`, each mapped to its line.
using CubinsByCrc = std::map<std::uint64_t, const std::string*>;
using InstructionKey = std::tuple<std::uint64_t, std::string, std::uint64_t>;  // cubin, function, offset

void addSamples(const SamplingBuffer& buffer, const std::map<std::uint32_t, std::string>& reasons,
                const CubinsByCrc& cubins, std::map<InstructionKey, LineOf>& known,
                std::map<std::pair<std::string, int>, SampledLine>& lines) {
  for (std::size_t i = 0; i < buffer.data.totalNumPcs; ++i) {
    const CUpti_PCSamplingPCData& pc = buffer.data.pPcData[i];
    const std::string function = pc.functionName ? pc.functionName : "";
    const InstructionKey key{pc.cubinCrc, function, pc.pcOffset};
    auto found = known.find(key);
    if (found == known.end()) {
      const auto cubin = cubins.find(pc.cubinCrc);
      found = known.emplace(key, lineOf(cubin == cubins.end() ? nullptr : cubin->second, function.c_str(), pc.pcOffset))
                  .first;
    }
    SampledLine& line = lines[{found->second.file, found->second.line}];
    line.file = found->second.file;
    line.line = found->second.line;
    ++line.pcs;
    for (std::size_t r = 0; r < pc.stallReasonCount; ++r) {
      const auto reason = reasons.find(pc.stallReason[r].pcSamplingStallReasonIndex);
      if (reason == reasons.end() || pc.stallReason[r].samples == 0) continue;
      line.stalls[reason->second] += pc.stallReason[r].samples;
      line.samples += pc.stallReason[r].samples;
    }
  }
}

}  // namespace

CubinCapture::CubinCapture() {
  const CuptiLibrary& cupti = pcSamplingCupti();
  CUpti_SubscriberHandle handle = nullptr;
  checkCupti(cupti.subscribe(&handle, &onModuleLoaded, this), "cuptiSubscribe");
  subscriber_ = handle;
  const CUptiResult enabled =
      cupti.enableCallback(1, handle, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  if (enabled != CUPTI_SUCCESS) {
    cupti.unsubscribe(handle);
    checkCupti(enabled, "cuptiEnableCallback(CUPTI_CBID_RESOURCE_MODULE_LOADED)");
  }
}

CubinCapture::~CubinCapture() { cuptiLibrary().unsubscribe(static_cast<CUpti_SubscriberHandle>(subscriber_)); }

static CubinsByCrc cubinsByCrc(const std::vector<std::string>& cubins) {
  CubinsByCrc by_crc;
  for (const std::string& cubin : cubins) {
    CUpti_GetCubinCrcParams params{};
    params.size = CUpti_GetCubinCrcParamsSize;
    params.cubinSize = cubin.size();
    params.cubin = cubin.data();
    checkCupti(pcSamplingCupti().getCubinCrc(&params), "cuptiGetCubinCrc");
    by_crc[params.cubinCrc] = &cubin;
  }
  return by_crc;
}

PcSampling samplePcs(CUcontext context, const std::vector<std::string>& cubins,
                     const std::function<void()>& run_sequence) {
  const auto started = std::chrono::steady_clock::now();
  const CuptiLibrary& cupti = pcSamplingCupti();
  const CubinsByCrc by_crc = cubinsByCrc(cubins);
  PcSampling result;
  result.period_log2 = kSamplingPeriodLog2;
  EnabledSampling enabled(context);
  const std::map<std::uint32_t, std::string> reasons = stallReasons(context);
  std::vector<std::uint32_t> reason_indices;
  for (const auto& [index, name] : reasons) reason_indices.push_back(index);
  SamplingBuffer buffer(4096, reason_indices.size());
  configure(context, reason_indices, buffer);

  checkCuda(driver().ctxSynchronize(), "cuCtxSynchronize (before PC sampling)");
  CUpti_PCSamplingStartParams start = {CUpti_PCSamplingStartParamsSize, nullptr, context};
  checkCupti(cupti.pcSamplingStart(&start), "cuptiPCSamplingStart");
  run_sequence();
  checkCuda(driver().ctxSynchronize(), "cuCtxSynchronize (after the sampled run)");
  CUpti_PCSamplingStopParams stop = {CUpti_PCSamplingStopParamsSize, nullptr, context};
  checkCupti(cupti.pcSamplingStop(&stop), "cuptiPCSamplingStop");

  std::map<InstructionKey, LineOf> known;
  std::map<std::pair<std::string, int>, SampledLine> lines;
  // The configured buffer holds what the stop flushed; GetData hands over the rest, a buffer at a time.
  for (bool first = true;; first = false) {
    addSamples(buffer, reasons, by_crc, known, lines);
    result.total_samples += static_cast<std::int64_t>(buffer.data.totalSamples);
    result.dropped_samples += static_cast<std::int64_t>(buffer.data.droppedSamples);
    if (!first && buffer.data.remainingNumPcs == 0) break;
    CUpti_PCSamplingGetDataParams get = {CUpti_PCSamplingGetDataParamsSize, nullptr, context, &buffer.data};
    checkCupti(cupti.pcSamplingGetData(&get), "cuptiPCSamplingGetData");
    if (buffer.data.totalNumPcs == 0 && buffer.data.remainingNumPcs == 0) break;
  }
  for (auto& [key, line] : lines) result.lines.push_back(std::move(line));
  result.available = true;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace rooflab::counters::bridge_detail
