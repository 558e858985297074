#include "analyzer/runner.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "analyzer/cl_error.hpp"
#include "analyzer/counters/counters.hpp"
#include "analyzer/counters/ptx_rewrite.hpp"
#include "analyzer/errors.hpp"
#include "analyzer/format.hpp"
#include "analyzer/json_fields.hpp"
#include "analyzer/references.hpp"
#include "analyzer/results_json.hpp"
#include "analyzer/stop_flag.hpp"
#include "analyzer/verification.hpp"
#include "mutators/occupancy_padding.hpp"
#include "embedded_kernel_prelude.hpp"

namespace rooflab {

namespace {

using Clock = std::chrono::steady_clock;

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw VariantError("cannot read kernel source " + path.string());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <class T>
void appendScalar(std::vector<std::byte>& out, T value) {
  out.resize(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
}

std::vector<std::byte> scalarBytes(ScalarKind kind, double value, const std::string& what) {
  std::vector<std::byte> bytes;
  auto checkRange = [&](double lo, double hi) {
    if (value < lo || value > hi || value != std::trunc(value))
      throw VariantError("argument " + what + " = " + formatNumber(value) + " does not fit its integer type");
  };
  switch (kind) {
    case ScalarKind::i32: checkRange(INT32_MIN, INT32_MAX); appendScalar<std::int32_t>(bytes, std::int32_t(value)); break;
    case ScalarKind::u32: checkRange(0, UINT32_MAX); appendScalar<std::uint32_t>(bytes, std::uint32_t(value)); break;
    case ScalarKind::i64: checkRange(-9.2e18, 9.2e18); appendScalar<std::int64_t>(bytes, std::int64_t(value)); break;
    case ScalarKind::u64: checkRange(0, 1.8e19); appendScalar<std::uint64_t>(bytes, std::uint64_t(value)); break;
    case ScalarKind::f32:
      if (std::fabs(value) > std::numeric_limits<float>::max())
        throw VariantError("argument " + what + " = " + formatNumber(value) + " does not fit a float");
      appendScalar<float>(bytes, float(value));
      break;
    case ScalarKind::f64: appendScalar<double>(bytes, value); break;
    default: throw VariantError("argument " + what + ": unsupported scalar type");
  }
  return bytes;
}

cl::NDRange toRange(const std::vector<std::int64_t>& dims) {
  switch (dims.size()) {
    case 1: return cl::NDRange(dims[0]);
    case 2: return cl::NDRange(dims[0], dims[1]);
    case 3: return cl::NDRange(dims[0], dims[1], dims[2]);
    default: return cl::NullRange;
  }
}

std::string pointKey(const RunPoint& point) {
  std::string key = point.family->name;
  for (const auto& [name, value] : point.params) key += ";" + name + "=" + formatNumber(value);
  return key;
}

// NVIDIA's program binary: PTX text, NUL-terminated inside the binary.
std::string programPtx(const cl::Program& program) {
  const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
  if (binaries.empty()) return "";
  const auto& bytes = binaries.front();
  return counters::ptxTextFromProgramBinary(
      std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

nlohmann::json occupancyJson(const counters::KernelOccupancy& o) {
  return {{"registers_per_thread", o.resources.registers_per_thread},
          {"static_local_bytes", o.resources.static_shared_bytes},
          {"dynamic_local_bytes", o.resources.dynamic_shared_bytes},
          {"private_spill_bytes_per_thread", o.resources.local_bytes_per_thread},
          {"work_groups_per_cu", o.blocks_per_sm},
          {"occupancy_pct", o.max_warps_per_sm > 0 ? 100.0 * o.warps_per_sm / o.max_warps_per_sm : 0.0}};
}

}  // namespace

std::string composeKernelSource(const std::string& file_text, const std::string& file_name) {
  std::string source(embedded::kernel_prelude);
  source += "\n#line 1 \"" + file_name + "\"\n";
  source += file_text;
  return source;
}

namespace {

// What the OpenCL compiler gets for a variant: its source file behind the prelude.
std::string variantSource(const VariantSpec& variant) {
  return composeKernelSource(readFile(variant.source), variant.source.filename().string());
}

}  // namespace

// NVIDIA's binary is PTX text: keeping it lets a user read what the compiler made of a variant.
void VariantRunner::keepBinary(const cl::Program& program, const RunPoint& point, const std::string& options) {
  try {
    const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty()) return;
    std::filesystem::create_directories(settings_.binaries_dir);
    const bool text = device_.info.isNvidia();
    const std::string file = point.family->name + "-" + point.variant->source.stem().string() + "-" +
                             std::to_string(std::hash<std::string>{}(options) % 100000) + (text ? ".ptx" : ".bin");
    std::ofstream out(std::filesystem::path(settings_.binaries_dir) / file, std::ios::binary);
    const auto& bytes = binaries.front();
    const std::string_view binary(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (text) out << counters::ptxTextFromProgramBinary(binary);
    else out << binary;
    out << "\n// rooflab build options: " << options << "\n";
  } catch (const std::exception&) {
    // Keeping binaries is a convenience; it never fails a variant.
  }
}

struct VariantRunner::Prepared {
  const RunPoint* point = nullptr;
  cl::Program program;
  std::vector<cl::Kernel> kernels;
  std::vector<ResolvedLaunch> launches;
  std::map<std::string, const BufferSpec*> specs;
  std::map<std::string, cl::Buffer> buffers;
  std::map<std::string, std::size_t> buffer_bytes;
  const std::map<std::string, HostBuffer>* inputs = nullptr;
};

VariantRunner::VariantRunner(const SelectedDevice& device, const RunSettings& settings)
    : device_(device), settings_(settings) {
  try {
    context_ = cl::Context(device_.device);
    queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
  } catch (const cl::Error& e) {
    throw DeviceError("cannot open " + device_.info.name + ": " + describeClError(e));
  }
  builds_ = std::make_unique<ProgramBuilds>(context_, device_.device, backgroundBuildThreads(device_.info.type == "CPU"));
}

std::string VariantRunner::programKey(const RunPoint& point, const std::string& options) {
  return point.variant->source.string() + "\n" + options;
}

void VariantRunner::queueBuilds(const std::vector<RunPoint>& points) {
  if (buildThreads() == 0) return;
  std::map<std::filesystem::path, std::string> sources;
  for (const RunPoint& point : points) {
    if (point.mode != RunMode::normal && !point.variant->annotated) continue;  // run() skips it unbuilt
    try {
      const std::string options = buildOptions(point, point.mode);
      const std::string key = programKey(point, options);
      if (programs_.count(key)) continue;
      auto source = sources.find(point.variant->source);
      if (source == sources.end()) source = sources.emplace(point.variant->source, variantSource(*point.variant)).first;
      builds_->enqueue(key, source->second, options);
    } catch (const std::exception&) {
      // A point whose options or source cannot be made fails in run(), with its context.
    }
  }
}

VariantRunner::~VariantRunner() = default;

cl::Program VariantRunner::buildProgram(const RunPoint& point, const std::string& options, RunRecord& record,
                                        const std::set<std::string>& pad_kernels) {
  std::string key = programKey(point, options);
  for (const std::string& k : pad_kernels) key += "\npad:" + k;
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  std::optional<ProgramBuild> built = builds_->take(key);
  if (!built) {
    std::string source = variantSource(*point.variant);
    if (!pad_kernels.empty()) source = addOccupancyPadParameter(source, pad_kernels);
    built = buildProgramNow(context_, device_.device, source, options);
  }
  if (!built->ok) {
    record.build_log = built->log;
    throw VariantError("OpenCL build of " + point.variant->source.filename().string() + " failed" + built->failure);
  }
  const cl::Program program = built->program;
  record.build_seconds = built->seconds;
  if (device_.info.isNvidia()) {
    // NVIDIA's driver caches ptxas results by PTX: a program whose PTX it compiled before (another
    // variant whose defines change nothing, or an earlier run) builds without a ptxas log. The same
    // PTX has the same registers, so they are kept by PTX.
    try {
      const std::size_t ptx_hash = std::hash<std::string>{}(programPtx(program));
      auto registers = counters::ptxasRegistersFromBuildLog(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device));
      if (!registers.empty()) opencl_registers_by_ptx_[ptx_hash] = std::move(registers);
    } catch (const cl::Error&) {
      // No log or binary: the bridge then compiles whole-program.
    }
  }
  if (!settings_.binaries_dir.empty()) keepBinary(program, point, options);
  programs_.emplace(key, program);
  return program;
}

const std::map<std::string, HostBuffer>& VariantRunner::hostInputs(const RunPoint& point) {
  const std::string key = pointKey(point);
  if (key == inputs_key_) return inputs_;
  inputs_.clear();
  references_.clear();
  for (const auto& spec : point.family->buffers) {
    if (spec.access == BufferAccess::write) continue;
    HostBuffer buffer(spec.name, spec.type, static_cast<std::size_t>(spec.count.count(point.params)));
    fillBuffer(buffer, spec.init, settings_.seed);
    inputs_.emplace(spec.name, std::move(buffer));
  }
  inputs_key_ = key;
  return inputs_;
}

nlohmann::json VariantRunner::padForOccupancy(Prepared& prepared, RunRecord& record) {
  const RunPoint& point = *prepared.point;
  const DeviceInfo& dev = device_.info;
  nlohmann::json out = {{"padded", false}, {"launches", nlohmann::json::array()}, {"notes", nlohmann::json::array()}};
  RunPoint original_point = point;
  original_point.mode = RunMode::normal;
  RunRecord scratch;  // the original's build must not overwrite the mutant's build record
  const cl::Program original = buildProgram(original_point, buildOptions(point, RunMode::normal), scratch);

  const std::size_t launches = prepared.launches.size();
  std::vector<std::size_t> pads(launches, 0);
  std::vector<std::size_t> dynamic_bytes(launches, 0), threads(launches, 0), static_local(launches, 0);
  for (std::size_t i = 0; i < launches; ++i) {
    for (const ResolvedArg& a : prepared.launches[i].args) dynamic_bytes[i] += a.local_bytes;
    std::int64_t t = 1;
    for (auto l : prepared.launches[i].geometry.local) t *= l;
    threads[i] = prepared.launches[i].geometry.local.empty() ? 0 : static_cast<std::size_t>(t);
    static_local[i] = prepared.kernels[i].getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device_.device);
  }
  // OpenCL caps a work-group's local memory (48 KiB on NVIDIA, whatever the SM could hold), so a pad
  // can only be as large as what the mutant leaves of it.
  auto padRoom = [&](std::size_t i) {
    const std::size_t used = static_local[i] + dynamic_bytes[i];
    return dev.local_mem_bytes > used ? static_cast<std::size_t>(dev.local_mem_bytes) - used : 0;
  };

  bool by_occupancy = dev.isNvidia() && counters::bridgeUnavailableReason().empty() &&
                      std::all_of(threads.begin(), threads.end(), [](std::size_t t) { return t > 0; });
  std::vector<counters::KernelOccupancy> original_occupancy, mutant_occupancy;
  if (by_occupancy) {
    try {
      std::vector<counters::OccupancyQuery> queries;
      for (std::size_t i = 0; i < launches; ++i)
        queries.push_back({prepared.launches[i].geometry.kernel, threads[i], dynamic_bytes[i], std::nullopt, 0});
      // Both mutants of a point compare against the same original: ask the driver once.
      std::string cache_key = std::to_string(reinterpret_cast<std::uintptr_t>(original()));
      for (const auto& q : queries)
        cache_key += "|" + q.kernel + ":" + std::to_string(q.threads_per_block) + ":" + std::to_string(q.dynamic_local_bytes);
      if (auto it = original_occupancy_.find(cache_key); it != original_occupancy_.end()) {
        original_occupancy = it->second;
      } else {
        original_occupancy = counters::bridgedOccupancy(programPtx(original), queries, dev.name);
        original_occupancy_[cache_key] = original_occupancy;
      }
      for (std::size_t i = 0; i < launches; ++i) {
        queries[i].pad_to_blocks_per_sm = original_occupancy[i].blocks_per_sm;
        queries[i].pad_limit_bytes = padRoom(i);
      }
      mutant_occupancy = counters::bridgedOccupancy(programPtx(prepared.program), queries, dev.name);
    } catch (const std::exception& e) {
      by_occupancy = false;
      out["notes"].push_back(std::string("occupancy through the PTX bridge unavailable (") + e.what() +
                             "); local memory compared instead");
    }
  }
  out["method"] = by_occupancy ? "occupancy: work-groups per compute unit from the CUDA driver, through the PTX bridge"
                               : "local memory: CL_KERNEL_LOCAL_MEM_SIZE of the original and the mutant";
  for (std::size_t i = 0; i < launches; ++i) {
    const std::string& name = prepared.launches[i].geometry.kernel;
    const cl::Kernel original_kernel(original, name.c_str());
    nlohmann::json launch = {{"kernel", name}};
    launch["original"] = {{"local_bytes", original_kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device_.device)},
                          {"private_bytes", original_kernel.getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device_.device)}};
    launch["mutant"] = {{"local_bytes", static_local[i]},
                        {"private_bytes", prepared.kernels[i].getWorkGroupInfo<CL_KERNEL_PRIVATE_MEM_SIZE>(device_.device)}};
    if (by_occupancy) {
      const auto& o = original_occupancy[i];
      const auto& m = mutant_occupancy[i];
      launch["original"].update(occupancyJson(o));
      launch["mutant"].update(occupancyJson(m));
      if (m.blocks_per_sm > o.blocks_per_sm) {
        if (m.pad_bytes) {
          pads[i] = *m.pad_bytes;
        } else {
          launch["note"] = "the mutant fits " + std::to_string(m.blocks_per_sm) + " work-groups per compute unit, the original " +
                           std::to_string(o.blocks_per_sm) + "; no pad within the " + std::to_string(padRoom(i)) +
                           " bytes of local memory OpenCL leaves it brings that down, so it runs with more parallelism than the original";
        }
      } else if (m.blocks_per_sm < o.blocks_per_sm) {
        launch["note"] = "the mutant needs more resources than the original (" + std::to_string(m.blocks_per_sm) + " work-groups per compute unit against " +
                         std::to_string(o.blocks_per_sm) + "); padding cannot give them back, so its time may overstate its part";
      }
      launch["matched"] = (pads[i] > 0 ? m.padded_blocks_per_sm : m.blocks_per_sm) == o.blocks_per_sm;
    } else {
      const std::size_t original_local = launch["original"]["local_bytes"].get<std::size_t>();
      if (static_local[i] < original_local) pads[i] = std::min(original_local - static_local[i], padRoom(i));
      launch["matched"] = static_local[i] + pads[i] >= original_local;
    }
    launch["pad_bytes"] = pads[i];
    if (launch.contains("note")) out["notes"].push_back(name + ": " + launch["note"].get<std::string>());
    out["launches"].push_back(std::move(launch));
  }

  if (std::any_of(pads.begin(), pads.end(), [](std::size_t p) { return p > 0; })) {
    std::set<std::string> pad_kernels;
    for (std::size_t i = 0; i < launches; ++i)
      if (pads[i] > 0) pad_kernels.insert(prepared.launches[i].geometry.kernel);
    // Every launch of a padded kernel takes the pad argument; a launch that needs none gets 16 bytes.
    for (std::size_t i = 0; i < launches; ++i)
      if (pads[i] == 0 && pad_kernels.count(prepared.launches[i].geometry.kernel)) pads[i] = 16;
    prepared.program = buildProgram(point, record.build_options, record, pad_kernels);
    setUpLaunches(prepared, record, pads);
    out["padded"] = true;
    if (by_occupancy) {
      try {
        std::vector<counters::OccupancyQuery> queries;
        for (std::size_t i = 0; i < launches; ++i)
          queries.push_back({prepared.launches[i].geometry.kernel, threads[i], dynamic_bytes[i] + pads[i], std::nullopt, 0});
        const auto padded = counters::bridgedOccupancy(programPtx(prepared.program), queries, dev.name);
        for (std::size_t i = 0; i < launches; ++i) {
          out["launches"][i]["padded"] = occupancyJson(padded[i]);
          out["launches"][i]["matched"] = padded[i].blocks_per_sm == original_occupancy[i].blocks_per_sm;
        }
      } catch (const std::exception& e) {
        out["notes"].push_back(std::string("the padded mutant's occupancy could not be read back: ") + e.what());
      }
    }
  }
  return out;
}

std::string VariantRunner::buildOptions(const RunPoint& point, RunMode mode) const {
  std::string options = "-D RL_MODE=" + std::to_string(static_cast<int>(mode));
  for (const auto& d : point.variant->defines) {
    const std::string value = d.is_expression ? formatNumber(ManifestExpression{d.value, d.key, d.where}.evaluate(point.params)) : d.value;
    options += " -D " + d.name + "=" + value;
  }
  if (!point.variant->build_options.empty()) options += " " + point.variant->build_options;
  // NVIDIA's compiler then logs each kernel's registers and shared memory ("ptxas info"); it changes
  // no code (H100: same times with and without). The PTX bridge compares its compile with them.
  if (device_.info.isNvidia()) options += " -cl-nv-verbose";
  return options;
}

std::unique_ptr<VariantRunner::Prepared> VariantRunner::prepare(const RunPoint& point, RunRecord& record) {
  auto prepared = std::make_unique<Prepared>();
  prepared->point = &point;
  const VariantSpec& variant = *point.variant;
  const DeviceInfo& dev = device_.info;

  const std::string options = buildOptions(point, point.mode);
  record.build_options = options;
  // Every buffer must fit the device before any host copy is made: a huge count must not become a
  // host allocation failure (or a byte count that wraps around 64 bits).
  for (const auto* list : {&point.family->buffers, &variant.scratch})
    for (const BufferSpec& spec : *list) {
      const auto count = static_cast<std::uint64_t>(spec.count.count(point.params));
      if (count > dev.max_alloc_bytes / spec.type.bytes())
        throw VariantError("buffer '" + spec.name + "' needs " + formatNumber(double(count) * double(spec.type.bytes())) +
                           " bytes; " + dev.name + " allows at most " + std::to_string(dev.max_alloc_bytes) +
                           " per allocation");
    }
  prepared->program = buildProgram(point, options, record);
  prepared->inputs = &hostInputs(point);

  // Buffers: family buffers, then the variant's scratch buffers.
  std::vector<const BufferSpec*> specs;
  for (const auto& b : point.family->buffers) specs.push_back(&b);
  for (const auto& b : variant.scratch) specs.push_back(&b);
  for (const BufferSpec* spec : specs) {
    // Sizes were checked against the device above.
    const std::size_t bytes = static_cast<std::size_t>(spec->count.count(point.params)) * spec->type.bytes();
    cl_mem_flags flags = spec->access == BufferAccess::read ? CL_MEM_READ_ONLY : CL_MEM_READ_WRITE;
    try {
      prepared->buffers.emplace(spec->name, cl::Buffer(context_, flags, bytes));
    } catch (const cl::Error& e) {
      throw VariantError("allocating buffer '" + spec->name + "' (" + std::to_string(bytes) + " bytes): " + describeClError(e));
    }
    prepared->specs[spec->name] = spec;
    prepared->buffer_bytes[spec->name] = bytes;
    if (spec->access == BufferAccess::read) {
      const HostBuffer& host = prepared->inputs->at(spec->name);
      queue_.enqueueWriteBuffer(prepared->buffers.at(spec->name), CL_TRUE, 0, host.sizeBytes(), host.bytes.data());
    }
  }

  setUpLaunches(*prepared, record, {});
  if (point.mode != RunMode::normal) record.occupancy_padding = occupancyMatchFromJson(padForOccupancy(*prepared, record));
  return prepared;
}

// Kernels and their arguments; pad_bytes (one per launch, or empty) appends a __local argument of that
// size to each launch with a non-zero pad (the program must then be the padded one).
void VariantRunner::setUpLaunches(Prepared& prepared, RunRecord& record, const std::vector<std::size_t>& pad_bytes) {
  const RunPoint& point = *prepared.point;
  const VariantSpec& variant = *point.variant;
  const DeviceInfo& dev = device_.info;
  prepared.kernels.clear();
  prepared.launches.clear();
  record.geometry.clear();
  std::size_t launch_index = 0;
  for (const auto& launch : variant.launches) {
    const std::size_t pad = launch_index < pad_bytes.size() ? pad_bytes[launch_index] : 0;
    ResolvedLaunch resolved;
    resolved.geometry.kernel = launch.kernel;
    for (const auto& g : launch.global) resolved.geometry.global.push_back(g.count(point.params));
    for (const auto& l : launch.local) resolved.geometry.local.push_back(l.count(point.params));
    const std::string where = "launch " + std::to_string(launch_index++) + " (" + launch.kernel + ")";

    cl::Kernel kernel;
    try {
      kernel = cl::Kernel(prepared.program, launch.kernel.c_str());
    } catch (const cl::Error& e) {
      throw VariantError(where + ": creating the kernel: " + describeClError(e));
    }
    const cl_uint declared = kernel.getInfo<CL_KERNEL_NUM_ARGS>() - (pad > 0 ? 1 : 0);
    if (declared != launch.args.size())
      throw VariantError(where + ": the kernel takes " + std::to_string(declared) + " arguments but the manifest gives " +
                         std::to_string(launch.args.size()));

    std::size_t local_arg_bytes = 0;
    for (std::size_t i = 0; i < launch.args.size(); ++i) {
      const KernelArgSpec& spec = launch.args[i];
      ResolvedArg arg;
      arg.kind = spec.kind;
      try {
        switch (spec.kind) {
          case KernelArgSpec::Kind::buffer:
            arg.buffer = spec.buffer;
            kernel.setArg(static_cast<cl_uint>(i), prepared.buffers.at(spec.buffer));
            break;
          case KernelArgSpec::Kind::local_bytes:
            arg.local_bytes = static_cast<std::size_t>(spec.value.count(point.params));
            local_arg_bytes += arg.local_bytes;
            kernel.setArg(static_cast<cl_uint>(i), cl::Local(arg.local_bytes));
            break;
          case KernelArgSpec::Kind::scalar:
            arg.scalar_bytes = scalarBytes(spec.scalar_type, spec.value.evaluate(point.params), "'" + spec.text + "'");
            kernel.setArg(static_cast<cl_uint>(i), arg.scalar_bytes.size(), arg.scalar_bytes.data());
            break;
        }
      } catch (const cl::Error& e) {
        throw VariantError(where + ": argument " + std::to_string(i) + " ('" + spec.text + "'): " + describeClError(e) +
                           " (does the kernel parameter's type match?)");
      }
      resolved.args.push_back(std::move(arg));
    }
    if (pad > 0) {
      ResolvedArg arg;
      arg.kind = KernelArgSpec::Kind::local_bytes;
      arg.local_bytes = pad;
      local_arg_bytes += pad;
      kernel.setArg(static_cast<cl_uint>(launch.args.size()), cl::Local(pad));
      resolved.args.push_back(std::move(arg));
    }

    if (!resolved.geometry.local.empty()) {
      std::int64_t group = 1;
      for (std::size_t d = 0; d < resolved.geometry.local.size(); ++d) {
        group *= resolved.geometry.local[d];
        if (d < dev.max_work_item_sizes.size() && resolved.geometry.local[d] > static_cast<std::int64_t>(dev.max_work_item_sizes[d]))
          throw VariantError(where + ": local size " + std::to_string(resolved.geometry.local[d]) + " in dimension " +
                             std::to_string(d) + " exceeds the device's " + std::to_string(dev.max_work_item_sizes[d]));
      }
      // CL_KERNEL_WORK_GROUP_SIZE is not checked here: NVIDIA reports 256 for kernels that launch
      // fine with 1024 work items (seen on an H100, driver 580). A launch that really exceeds the
      // kernel's limit fails with CL_INVALID_WORK_GROUP_SIZE, and execute() explains it.
      (void)group;
      for (std::size_t d = 0; d < resolved.geometry.local.size(); ++d)
        if (resolved.geometry.global[d] % resolved.geometry.local[d] != 0)
          throw VariantError(where + ": global size " + std::to_string(resolved.geometry.global[d]) +
                             " is not a multiple of local size " + std::to_string(resolved.geometry.local[d]));
    }
    const std::uint64_t static_local = kernel.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(device_.device);
    if (local_arg_bytes + static_local > dev.local_mem_bytes)
      throw VariantError(where + ": needs " + std::to_string(local_arg_bytes + static_local) +
                         " bytes of local memory; the device has " + std::to_string(dev.local_mem_bytes));
    record.geometry.push_back(resolved.geometry);
    prepared.kernels.push_back(kernel);
    prepared.launches.push_back(std::move(resolved));
  }
}

RepetitionTiming VariantRunner::execute(Prepared& prepared) {
  // Every run starts from the same state: inputs as initialised, outputs and scratch poisoned, so
  // an element the kernel did not write fails verification instead of passing on stale data.
  for (const auto& [name, spec] : prepared.specs) {
    cl::Buffer& buffer = prepared.buffers.at(name);
    const std::size_t bytes = prepared.buffer_bytes.at(name);
    if (spec->access == BufferAccess::read) continue;
    if (spec->access == BufferAccess::read_write && prepared.inputs->count(name)) {
      const HostBuffer& host = prepared.inputs->at(name);
      queue_.enqueueWriteBuffer(buffer, CL_FALSE, 0, host.sizeBytes(), host.bytes.data());
    } else if (spec->type.scalar == ScalarKind::f32) {
      queue_.enqueueFillBuffer<cl_uint>(buffer, 0x7fc00000u, 0, bytes);
    } else if (spec->type.scalar == ScalarKind::f64) {
      queue_.enqueueFillBuffer<cl_ulong>(buffer, 0x7ff8000000000000ull, 0, bytes);
    } else {
      queue_.enqueueFillBuffer<cl_uchar>(buffer, 0xA5, 0, bytes);
    }
  }
  // Wait for the resets so that a kernel's queued-to-start time is its launch overhead alone,
  // not the fill or upload queued before it.
  try {
    queue_.finish();
  } catch (const cl::Error& e) {
    throw VariantError("resetting buffers: " + describeClError(e));
  }
  std::vector<cl::Event> events(prepared.kernels.size());
  for (std::size_t i = 0; i < prepared.kernels.size(); ++i) {
    const LaunchGeometry& g = prepared.launches[i].geometry;
    try {
      queue_.enqueueNDRangeKernel(prepared.kernels[i], cl::NullRange, toRange(g.global),
                                  g.local.empty() ? cl::NullRange : toRange(g.local), nullptr, &events[i]);
    } catch (const cl::Error& e) {
      std::string hint;
      if (e.err() == CL_INVALID_WORK_GROUP_SIZE && !g.local.empty()) {
        const std::size_t limit = prepared.kernels[i].getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_.device);
        hint = " (the driver allows at most " + std::to_string(limit) + " work items per group for this kernel)";
      }
      throw VariantError("launch " + std::to_string(i) + " (" + g.kernel + "): " + describeClError(e) + hint);
    }
  }
  try {
    queue_.finish();
  } catch (const cl::Error& e) {
    throw VariantError("waiting for the kernels: " + describeClError(e));
  }
  RepetitionTiming t;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto queued = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>());
    const auto submit = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>());
    const auto start = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_START>());
    const auto end = static_cast<std::int64_t>(events[i].getProfilingInfo<CL_PROFILING_COMMAND_END>());
    if (i == 0) {
      t.queued_ns = queued;
      t.submit_ns = submit;
      t.start_ns = start;
      t.launch_overhead_ns = start - queued;
    }
    t.end_ns = end;
    t.kernel_ns += end - start;
  }
  t.span_ns = t.end_ns - t.start_ns;
  return t;
}

std::map<std::string, HostBuffer> VariantRunner::readOutputs(Prepared& prepared) {
  std::map<std::string, HostBuffer> outputs;
  for (const auto& spec : prepared.point->family->buffers) {
    if (!spec.isOutput()) continue;
    HostBuffer host(spec.name, spec.type, static_cast<std::size_t>(spec.count.count(prepared.point->params)));
    queue_.enqueueReadBuffer(prepared.buffers.at(spec.name), CL_TRUE, 0, host.sizeBytes(), host.bytes.data());
    outputs.emplace(spec.name, std::move(host));
  }
  return outputs;
}

const std::map<std::string, HostBuffer>& VariantRunner::referenceOutputs(const RunPoint& point) {
  const std::string& ref = point.family->reference;
  if (auto it = references_.find(ref); it != references_.end()) return it->second;
  const auto& inputs = hostInputs(point);
  std::map<std::string, HostBuffer> outputs;
  if (ref.rfind("cpu:", 0) == 0) {
    const ReferenceFunction* fn = ReferenceRegistry::builtin().find(ref.substr(4));
    if (!fn) throw VariantError("no C++ reference named '" + ref.substr(4) + "'");
    for (const auto& spec : point.family->buffers) {
      if (!spec.isOutput()) continue;
      HostBuffer out(spec.name, spec.type, static_cast<std::size_t>(spec.count.count(point.params)));
      if (auto in = inputs.find(spec.name); in != inputs.end()) out.bytes = in->second.bytes;  // in-place references
      outputs.emplace(spec.name, std::move(out));
    }
    ReferenceContext ctx{point.params, inputs, outputs};
    (*fn)(ctx);
  } else {
    RunPoint ref_point = point;
    ref_point.variant = point.family->findVariant(ref.substr(8));
    ref_point.mode = RunMode::normal;
    RunRecord scratch_record;
    try {
      auto prepared = prepare(ref_point, scratch_record);
      execute(*prepared);
      outputs = readOutputs(*prepared);
    } catch (const std::exception& e) {
      throw VariantError("reference variant '" + ref.substr(8) + "' failed: " + e.what());
    }
  }
  return references_.emplace(ref, std::move(outputs)).first->second;
}

void VariantRunner::verify(const RunPoint& point, const std::map<std::string, HostBuffer>& outputs, RunRecord& record) {
  VerificationResult& v = record.verification;
  v.reference = point.family->reference;
  v.tolerance = point.variant->tolerance.value_or(point.family->tolerance);
  if (point.mode != RunMode::normal) {
    v.status = "skipped";
    v.detail = "a mutant's outputs are not results";
    return;
  }
  if (v.reference.empty()) {
    v.status = "not_checked";
    v.detail = "the family declares no reference";
    return;
  }
  if (v.reference == "variant:" + point.variant->name) {
    v.status = "reference";
    return;
  }
  try {
    const auto& expected = referenceOutputs(point);
    double worst = 0;
    bool pass = true;
    std::string detail;
    for (const auto& [name, out] : outputs) {
      const BufferComparison c = compareBuffers(out, expected.at(name), v.tolerance);
      worst = std::max(worst, c.rel_l2_error);
      v.wrong_elements += c.wrong_elements;
      v.non_finite += c.non_finite;
      if (!c.passes(v.tolerance)) {
        pass = false;
        detail += (detail.empty() ? "" : "; ") + name + ": rel. L2 error " + formatNumber(c.rel_l2_error) + ", " +
                  std::to_string(c.wrong_elements) + " of " + std::to_string(c.compared) + " values wrong (first at " +
                  std::to_string(c.first_wrong) + ")" +
                  (c.non_finite ? ", " + std::to_string(c.non_finite) + " never written (NaN/poison)" : "");
      }
    }
    v.rel_l2_error = worst;
    v.status = pass ? "passed" : "failed";
    v.detail = detail;
  } catch (const std::exception& e) {
    v.status = "not_checked";
    v.detail = e.what();
  }
}

nlohmann::json VariantRunner::measureCounters(Prepared& prepared, const std::map<std::string, HostBuffer>& opencl_outputs,
                                             const RunRecord& record) {
  auto unavailable = [](const std::string& reason) { return nlohmann::json{{"available", false}, {"reason", reason}}; };
  if (settings_.counters == "off") return unavailable("counters are off (--no-counters or [run] counters = \"off\")");
  const std::string why = counters::countersUnavailableReason(device_.info);
  if (!why.empty()) return unavailable("counters unavailable: " + why);

  std::string ptx;
  try {
    ptx = programPtx(prepared.program);
  } catch (const cl::Error& e) {
    return unavailable("counters unavailable: reading the program binary: " + describeClError(e));
  }
  if (ptx.empty()) return unavailable("counters unavailable: the OpenCL driver returned no PTX");

  // The bridged run starts from the same inputs as the OpenCL run; outputs start poisoned.
  std::map<std::string, HostBuffer> buffers;
  for (const auto& [name, spec] : prepared.specs) {
    if (auto in = prepared.inputs->find(name); in != prepared.inputs->end()) {
      buffers.emplace(name, in->second);
    } else {
      HostBuffer b(name, spec->type, prepared.buffer_bytes.at(name) / spec->type.bytes());
      poisonBuffer(b);
      buffers.emplace(name, std::move(b));
    }
  }
  std::vector<counters::BridgeLaunch> launches;
  for (const auto& launch : prepared.launches) {
    if (launch.geometry.local.empty())
      return unavailable("counters unavailable: launch of " + launch.geometry.kernel +
                         " has no local size in the manifest; the CUDA bridge needs one");
    counters::BridgeLaunch b;
    b.kernel = launch.geometry.kernel;
    for (auto g : launch.geometry.global) b.global.push_back(static_cast<std::size_t>(g));
    for (auto l : launch.geometry.local) b.local.push_back(static_cast<std::size_t>(l));
    for (const auto& arg : launch.args) {
      switch (arg.kind) {
        case KernelArgSpec::Kind::buffer: b.args.push_back(counters::BridgeArg::buffer(arg.buffer)); break;
        case KernelArgSpec::Kind::scalar: b.args.push_back(counters::BridgeArg::scalar(arg.scalar_bytes)); break;
        case KernelArgSpec::Kind::local_bytes: b.args.push_back(counters::BridgeArg::local(arg.local_bytes)); break;
      }
    }
    launches.push_back(std::move(b));
  }
  counters::BridgeOptions options;
  options.device_name = device_.info.name;
  const bool validation_only = prepared.point->mode != RunMode::normal;
  // Only the original's bridged time is compared with its OpenCL time, so only its compile is matched
  // to OpenCL's (up to three JIT compiles); a mutant's counters come from one whole-program compile.
  if (!validation_only)
    if (const auto it = opencl_registers_by_ptx_.find(std::hash<std::string>{}(ptx)); it != opencl_registers_by_ptx_.end())
      options.opencl_registers = it->second;
  // A mutant's counters only validate it (FP32 FLOPs, global sectors) and show its occupancy: that
  // subset takes a fraction of the whole table's profiler passes.
  if (validation_only) options.metrics = counters::mutantValidationMetrics();
  const counters::CounterMeasurement m =
      counters::measureBridged(ptx, buffers, launches, std::max(3, settings_.repetitions), options);
  nlohmann::json out = counters::toJson(m);
  out["metric_set"] = validation_only ? "mutant validation (FP32 instructions, global sectors, occupancy)" : "full table";

  // Consistency checks: the bridged kernel must compute what the OpenCL one did, in about its time.
  if (m.buffers_read_back && record.mode == RunMode::normal) {
    double worst = 0;
    std::size_t non_finite = 0;
    for (const auto& [name, opencl] : opencl_outputs) {
      const BufferComparison c = compareBuffers(buffers.at(name), opencl, 0.0);
      worst = std::max(worst, c.rel_l2_error);
      non_finite += c.non_finite;
    }
    out["bridged_vs_opencl_rel_l2_error"] = json_fields::finiteOrNull(worst);
    out["bridged_non_finite"] = non_finite;
  }
  if (m.bridged_kernel_ns && record.timings && record.timings->kernel_ns.median > 0)
    out["bridged_to_opencl_time_ratio"] = static_cast<double>(*m.bridged_kernel_ns) / record.timings->kernel_ns.median;
  return out;
}

RunRecord VariantRunner::run(const RunPoint& point, const RepetitionProgress& progress) {
  RunRecord record;
  record.family = point.family->name;
  record.variant = point.variant->name;
  record.mode = point.mode;
  record.params = point.params;
  record.param_order = point.family->param_order;
  const auto started = Clock::now();
  try {
    validateForParams(*point.family, *point.variant, point.params);
    const VariantSpec& v = *point.variant;
    record.work.flops = (v.flops ? *v.flops : point.family->flops).evaluate(point.params);
    record.work.bytes = (v.bytes ? *v.bytes : point.family->bytes).evaluate(point.params);
    if (v.global_accesses) record.work.global_accesses = v.global_accesses->evaluate(point.params);
    if (v.local_accesses) record.work.local_accesses = v.local_accesses->evaluate(point.params);
    if (point.mode != RunMode::normal && !v.annotated) {
      record.status = RecordStatus::skipped;
      record.status_reason = "the kernel has no mutation annotations (RL_LOAD / RL_STORE), so it runs in normal mode only; see "
                     "docs/manifest.md, \"Mutation annotations\"";
      record.verification.status = "skipped";
      return record;
    }

    auto phase_started = Clock::now();
    auto endPhase = [&](const char* phase) {
      const auto now = Clock::now();
      record.phase_seconds[phase] += std::chrono::duration<double>(now - phase_started).count();
      phase_started = now;
    };
    auto prepared = prepare(point, record);
    endPhase("prepare");
    EventTimings timings;
    timings.warmup = settings_.warmup;
    for (int i = 0; i < settings_.warmup; ++i) {
      if (progress) progress("warmup", i, settings_.warmup);
      execute(*prepared);
    }
    for (int i = 0; i < settings_.repetitions; ++i) {
      const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
      if (i > 0 && (stopFlag() || elapsed > settings_.variant_time_limit_s)) {
        timings.cut_short = true;
        break;
      }
      if (progress) progress("timed", i, settings_.repetitions);
      timings.repetitions.push_back(execute(*prepared));
    }
    const std::int64_t origin = timings.repetitions.front().queued_ns;
    std::vector<double> kernel_ns, overhead_ns;
    for (auto& rep : timings.repetitions) {
      rep.queued_ns -= origin;
      rep.submit_ns -= origin;
      rep.start_ns -= origin;
      rep.end_ns -= origin;
      kernel_ns.push_back(static_cast<double>(rep.kernel_ns));
      overhead_ns.push_back(static_cast<double>(rep.launch_overhead_ns));
    }
    timings.kernel_ns = summarize(kernel_ns);
    timings.launch_overhead_ns = summarize(overhead_ns);
    record.timings = std::move(timings);

    endPhase("run");
    const auto outputs = readOutputs(*prepared);
    if (progress) progress("verify", 0, 1);
    verify(point, outputs, record);
    endPhase("verify");
    if (progress) progress("counters", 0, 1);
    record.counters = counters::counterSetFromJson(measureCounters(*prepared, outputs, record));
    endPhase("counters");
  } catch (const cl::Error& e) {
    record.status = RecordStatus::error;
    record.status_reason = record.label() + " on " + device_.info.name + ": " + describeClError(e);
  } catch (const std::exception& e) {
    record.status = RecordStatus::error;
    record.status_reason = record.label() + " on " + device_.info.name + ": " + e.what();
  }
  if (record.status == RecordStatus::error) {
    // A failed launch can leave commands queued; drain so the next variant starts clean.
    try {
      queue_.finish();
    } catch (const cl::Error&) {
    }
  }
  return record;
}

}  // namespace rooflab
