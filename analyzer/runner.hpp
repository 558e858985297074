#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "analyzer/config.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/device.hpp"
#include "analyzer/host_buffer.hpp"
#include "analyzer/manifest.hpp"
#include "analyzer/program_builds.hpp"
#include "analyzer/run_record.hpp"

namespace rooflab {

struct RunPoint {
  const FamilyManifest* family = nullptr;
  const VariantSpec* variant = nullptr;
  ParamValues params;  // the family defaults overlaid with the study's values
  RunMode mode = RunMode::normal;
};

// Called before every repetition: (phase "warmup" | "timed" | "reference", index, total).
using RepetitionProgress = std::function<void(const char* phase, int index, int total)>;

// A kernel argument resolved for one point: what the OpenCL launch and the PTX bridge both need.
struct ResolvedArg {
  KernelArgSpec::Kind kind = KernelArgSpec::Kind::scalar;
  std::string buffer;
  std::vector<std::byte> scalar_bytes;
  std::size_t local_bytes = 0;
};
struct ResolvedLaunch {
  LaunchGeometry geometry;
  std::vector<ResolvedArg> args;
};

// Builds and runs variants on one device: one context and one in-order profiling queue for the
// whole batch, programs cached by (source, options), host inputs and reference outputs cached by
// (family, params) so that every variant of a point sees the same data.
class VariantRunner {
 public:
  VariantRunner(const SelectedDevice& device, const RunSettings& settings);
  ~VariantRunner();

  // Never throws for a failing variant: the record carries status "error" and the message.
  RunRecord run(const RunPoint& point, const RepetitionProgress& progress = {});

  const DeviceInfo& device() const { return device_.info; }

  // Starts building, in the background and in this order, the programs that run(points[i]) will
  // need (see ProgramBuilds). Optional: run() builds whatever was not queued itself.
  void queueBuilds(const std::vector<RunPoint>& points);
  int buildThreads() const { return builds_ ? builds_->threads() : 0; }

 private:
  struct Prepared;
  std::unique_ptr<Prepared> prepare(const RunPoint& point, RunRecord& record);
  RepetitionTiming execute(Prepared& prepared);
  std::map<std::string, HostBuffer> readOutputs(Prepared& prepared);
  const std::map<std::string, HostBuffer>& hostInputs(const RunPoint& point);
  const std::map<std::string, HostBuffer>& referenceOutputs(const RunPoint& point);
  void verify(const RunPoint& point, const std::map<std::string, HostBuffer>& outputs, RunRecord& record);
  std::string buildOptions(const RunPoint& point, RunMode mode) const;
  static std::string programKey(const RunPoint& point, const std::string& options);
  cl::Program buildProgram(const RunPoint& point, const std::string& options, RunRecord& record,
                           const std::set<std::string>& pad_kernels = {});
  void setUpLaunches(Prepared& prepared, RunRecord& record, const std::vector<std::size_t>& pad_bytes);
  nlohmann::json padForOccupancy(Prepared& prepared, RunRecord& record);
  nlohmann::json measureCounters(Prepared& prepared, const std::map<std::string, HostBuffer>& opencl_outputs,
                                 const RunRecord& record);
  void keepBinary(const cl::Program& program, const RunPoint& point, const std::string& options);

  SelectedDevice device_;
  RunSettings settings_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::map<std::string, cl::Program> programs_;
  std::unique_ptr<ProgramBuilds> builds_;  // declared after context_: destroyed (threads joined) before it
  // OpenCL's ptxas registers per kernel, by hash of the program's PTX (see buildProgram).
  std::map<std::size_t, std::map<std::string, int>> opencl_registers_by_ptx_;
  std::map<std::string, std::vector<counters::KernelOccupancy>> original_occupancy_;  // by program and launch shapes
  std::string inputs_key_;
  std::map<std::string, HostBuffer> inputs_;
  std::map<std::string, std::map<std::string, HostBuffer>> references_;
};

// The source handed to the OpenCL compiler: the prelude, then the kernel file with #line so that
// build logs point at the user's file and line.
std::string composeKernelSource(const std::string& file_text, const std::string& file_name);

}  // namespace rooflab
