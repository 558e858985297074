#include "analyzer/run/variant_programs.hpp"

#include <filesystem>
#include <functional>
#include <sstream>

#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/run/annotated_lines.hpp"
#include "analyzer/run/source_line_samples.hpp"
#include "analyzer/run/nvidia_build.hpp"
#include "mutators/occupancy_padding.hpp"
#include "embedded_kernel_prelude.hpp"
#include "mutators/auto_mutation.hpp"
#include "mutators/mutant_key.hpp"
#include "analyzer/run/mutant_traffic.hpp"

namespace rooflab {
namespace {

// What the OpenCL compiler gets for a variant: its source files, in order, behind the prelude.
std::string variantSource(const VariantSpec& variant) {
  return std::string(embedded::kernel_prelude) + joinSourceFiles(variant.sources, variant.include_dir);
}

// The variant's files, one per line: which programs share a source.
std::string sourcesKey(const VariantSpec& variant) {
  std::string key;
  for (const auto& file : variant.sources) key += file.string() + "\n";
  return key;
}

// The manifest's kernels must be in the built program. Loading the manifest read the sources without
// a preprocessor, so a kernel that an #if removes gets here; say so rather than let the launch fail
// with CL_INVALID_KERNEL_NAME.
void requireBuiltKernels(const cl::Program& program, const VariantSpec& variant) {
  const std::string names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();  // "a;b"
  const std::string listed = ";" + names + ";";
  for (const LaunchSpec& launch : variant.launches)
    if (listed.find(";" + launch.kernel + ";") == std::string::npos)
      throw VariantError("kernel '" + launch.kernel +
                         "' is not in the built program (it has: " + (names.empty() ? std::string("none") : names) +
                         "); is it inside an #if the defines turn off?");
}

bool isAutomaticMutant(const RunPoint& point) { return isMutantMode(point.mode) && !point.variant->annotated; }

std::set<std::string> launchedKernels(const VariantSpec& variant) {
  std::set<std::string> kernels;
  for (const LaunchSpec& launch : variant.launches) kernels.insert(launch.kernel);
  return kernels;
}

// What the compiler builds for a point: the variant's program (or its automatic mutant's), a
// compute-only mutant's launched kernels taking the key, then the occupancy pad where asked.
std::string programText(const RunPoint& point, const AutoMutant* automatic, const std::set<std::string>& pad_kernels) {
  std::string source = automatic ? automaticMutantProgram(*automatic) : variantSource(*point.variant);
  try {
    if (takesMutantKey(point.mode)) source = addMutantKeyParameter(source, launchedKernels(*point.variant));
    if (!pad_kernels.empty()) source = addOccupancyPadParameter(source, pad_kernels);
  } catch (const std::invalid_argument& e) {
    throw VariantError(std::string(e.what()) + " (" + point.variant->source.filename().string() +
                       "): rooflab appends its own arguments to a launched kernel's definition, which must be "
                       "written in the variant's source files, not made by a macro or an included header");
  }
  return source;
}

// What an automatic mutant must keep, as its rewriter counted it in both sources.
MutantSourceCheck sourceCheck(const AutoMutant& mutant, RunMode mode) {
  MutantSourceCheck check;
  const SourceCensus &original = mutant.original, &rewritten = mutant.mutant;
  if (mode == RunMode::memory_only) {
    check.quantity = "global loads, stores and atomics";
    check.original = original.global_loads + original.global_stores + original.global_atomics;
    check.mutant = rewritten.global_loads + rewritten.global_stores + rewritten.global_atomics;
    check.same_as_original = mutant.same_as_original;
    return check;
  }
  check.quantity = "floating-point and integer operations";
  check.original = original.float_ops + original.int_ops;
  check.mutant = rewritten.float_ops + rewritten.int_ops;
  check.kept_global_loads = original.structure_loads;
  check.global_loads = original.global_loads;
  return check;
}

// The device's extensions (CL_DEVICE_EXTENSIONS), which decide what `#ifdef cl_khr_fp64` sees.
std::vector<std::string> deviceExtensions(const cl::Device& device) {
  std::vector<std::string> names;
  try {
    std::istringstream words(device.getInfo<CL_DEVICE_EXTENSIONS>());
    for (std::string word; words >> word;) names.push_back(word);
  } catch (const cl::Error&) {
  }
  return names;
}

}  // namespace

std::string composeKernelSource(const std::string& file_text, const std::string& file_name) {
  std::string source(embedded::kernel_prelude);
  source += "\n#line 1 \"" + file_name + "\"\n";
  source += file_text;
  return source;
}

VariantPrograms::VariantPrograms(const cl::Context& context, const SelectedDevice& device, const RunSettings& settings)
    : context_(context),
      device_(device),
      binaries_dir_(settings.binaries_dir),
      device_extensions_(deviceExtensions(device.device)),
      builds_(std::make_unique<ProgramBuilds>(
          context_, device_.device,
          backgroundBuildThreads(device_.info.type == "CPU", settings.environment.build_threads))) {}

std::string programOptions(const ResolvedPoint& point, RunMode mode) {
  // The family's folder is on the include path, so `#include "common.h"` beside the manifest works.
  // A what-if is the kernel as written (RL_MODE 0, normal) with its own define among the options.
  const int rl_mode = isMutantMode(mode) ? static_cast<int>(mode) : 0;
  return "-D RL_MODE=" + std::to_string(rl_mode) + point.program_options + " " +
         includeOption(point.run_point.variant->include_dir);
}

AutoMutationRequest automaticMutationRequest(const VariantSpec& v, RunMode mode, const std::string& options,
                                             std::vector<std::string> device_extensions) {
  AutoMutationRequest request;
  // Several files are rewritten as the one program they build into (joined behind #line directives).
  request.source_text = joinSourceFiles(v.sources, v.include_dir);
  request.source_path = v.source.string();
  request.source_folder = v.include_dir.string();
  request.build_options = splitBuildOptions(options);
  for (const LaunchSpec& launch : v.launches) {
    request.kernels.push_back(launch.kernel);
    std::vector<std::string>& buffers = request.kernel_buffers.emplace_back();
    for (const KernelArgSpec& arg : launch.args)
      buffers.push_back(arg.kind == KernelArgSpec::Kind::buffer ? arg.buffer : "");
  }
  request.device_extensions = std::move(device_extensions);
  request.kind = mode == RunMode::memory_only ? AutoMutantKind::memory_only : AutoMutantKind::compute_only;
  return request;
}

std::string VariantPrograms::options(const ResolvedPoint& point, RunMode mode) const {
  return programOptions(point, mode) + nvidia::verboseBuildOption(device_.info);
}

std::string VariantPrograms::key(const RunPoint& point, const std::string& options) {
  std::string key = sourcesKey(*point.variant) + options;
  // An automatic mutant rewrites only the kernels its variant launches (and what they call), and a
  // compute-only program gives only those the key: variants of one file that launch other kernels
  // build other programs.
  if (isAutomaticMutant(point) || takesMutantKey(point.mode))
    for (const LaunchSpec& launch : point.variant->launches) key += "\nkernel:" + launch.kernel;
  return key;
}

void VariantPrograms::queue(const std::vector<const PlannedPoint*>& planned) {
  if (backgroundThreads() == 0) return;
  std::map<std::string, std::string> sources;  // by sourcesKey
  for (const PlannedPoint* planned_point : planned) {
    const PlannedPoint& p = *planned_point;
    if (!p.resolved) continue;  // run() records why
    const RunPoint& point = p.run_point;
    if (isAutomaticMutant(point)) continue;  // build() rewrites it first
    try {
      const std::string options = this->options(*p.resolved, point.mode);
      const std::string program_key = key(point, options);
      if (programs_.count(program_key)) continue;
      // A compute-only program's text depends on which kernels take the key: variants that share a
      // file but launch other kernels must not share it.
      std::string source_key = sourcesKey(*point.variant);
      if (takesMutantKey(point.mode))
        for (const std::string& kernel : launchedKernels(*point.variant)) source_key += "\nkeyed:" + kernel;
      auto source = sources.find(source_key);
      if (source == sources.end()) source = sources.emplace(source_key, programText(point, nullptr, {})).first;
      builds_->enqueue(program_key, source->second, options);
      // A mutant with fewer resources than its original is rebuilt with a __local pad parameter on its
      // kernels (mutators/occupancy_padding.hpp); the pad's size is a launch argument, so that program
      // can be built before the padding is known, here on the NVIDIA path, where it is usual, for every
      // launched kernel (the key build() asks for when they all need it).
      if (isMutantMode(point.mode) && nvidia::occupancyThroughBridge(device_.info)) {
        std::set<std::string> launched;
        for (const LaunchSpec& launch : point.variant->launches) launched.insert(launch.kernel);
        std::string padded_key = program_key;
        for (const std::string& k : launched) padded_key += "\npad:" + k;
        builds_->enqueue(padded_key, programText(point, nullptr, launched), options);
      }
    } catch (const std::exception&) {
      // A point whose source cannot be read fails in run(), with its context.
    }
  }
}

const AutoMutant& VariantPrograms::automaticMutant(const RunPoint& point, const std::string& options) {
  const std::string mutant_key = key(point, options);
  auto it = automatic_mutants_.find(mutant_key);
  if (it == automatic_mutants_.end()) {
    const AutoMutationRequest request =
        automaticMutationRequest(*point.variant, point.mode, options, device_extensions_);
    // Both modes rewrite the same preprocessed program: clang runs once per variant and options.
    std::string expansion_key = sourcesKey(*point.variant);
    for (const std::string& word : preprocessorOptions(request.build_options)) expansion_key += " " + word;
    auto expanded = expansions_.find(expansion_key);
    if (expanded == expansions_.end()) expanded = expansions_.emplace(expansion_key, expandForMutation(request)).first;
    it = automatic_mutants_.emplace(mutant_key, mutateAutomatically(request, expanded->second)).first;
  }
  if (!it->second.source) {
    const std::string file = point.variant->source.filename().string(), reason = it->second.reason;
    if (reason.rfind("no " + modeName(point.mode) + " mutant is possible", 0) == 0)
      throw MutantUnavailable(file + " has no RL_LOAD / RL_STORE annotations, and " + reason);
    throw MutantUnavailable("no automatic " + modeName(point.mode) + " mutant of " + file +
                            " (the kernel has no RL_LOAD / RL_STORE annotations): " + reason);
  }
  return it->second;
}

cl::Program VariantPrograms::build(const ResolvedPoint& point, const std::string& options, RunRecord& record,
                                   const std::set<std::string>& pad_kernels) {
  return buildProgram(point.run_point, &point, options, record, pad_kernels);
}

cl::Program VariantPrograms::build(const RunPoint& point, const std::string& options, RunRecord& record,
                                   const std::set<std::string>& pad_kernels) {
  return buildProgram(point, nullptr, options, record, pad_kernels);
}

cl::Program VariantPrograms::buildProgram(const RunPoint& point, const ResolvedPoint* resolved,
                                          const std::string& options, RunRecord& record,
                                          const std::set<std::string>& pad_kernels) {
  const AutoMutant* automatic = isAutomaticMutant(point) ? &automaticMutant(point, options) : nullptr;
  if (automatic) {
    record.mutant_source_check = sourceCheck(*automatic, point.mode);
    if (resolved) addTrafficBytes(*automatic, *resolved, *record.mutant_source_check);
    record.mutant_line_changes = automatic->line_changes;
  } else if (isMutantMode(point.mode)) {
    record.mutant_line_changes = annotatedLines(point);
  }
  std::string program_key = key(point, options);
  for (const std::string& k : pad_kernels) program_key += "\npad:" + k;
  if (auto it = programs_.find(program_key); it != programs_.end()) return it->second;
  std::optional<ProgramBuild> built = builds_->take(program_key);
  if (!built) {
    built = buildProgramNow(context_, device_.device, programText(point, automatic, pad_kernels), options);
  }
  if (!built->ok) {
    record.build_log = built->log;
    throw VariantError("OpenCL build of " + point.variant->source.filename().string() + " failed" + built->failure);
  }
  cl::Program program = built->program;
  record.build_seconds = built->seconds;
  requireBuiltKernels(program, *point.variant);
  if (!registers_.add(program, device_)) {
    // Now and then (the vecadd program in 1 of 7 defaults on an H100) NVIDIA's build log lacks ptxas'
    // register report: the bridge would then JIT another binary than OpenCL's (5% fewer
    // instructions for vecadd's local_staged) and count that. One more build here, in the foreground, may say it.
    const ProgramBuild again =
        buildProgramNow(context_, device_.device, programText(point, automatic, pad_kernels), options);
    record.build_seconds += again.seconds;
    if (again.ok && registers_.add(again.program, device_)) program = again.program;
  }
  if (!binaries_dir_.empty()) keepBinary(program, point, options);
  if (automatic && !binaries_dir_.empty()) keepMutantSource(programText(point, automatic, pad_kernels), point, options);
  programs_.emplace(program_key, program);
  return program;
}

// Read once per variant's files and mode: every point of a sweep shares them.
const std::vector<MutantLineChange>& VariantPrograms::annotatedLines(const RunPoint& point) {
  const std::string lines_key = sourcesKey(*point.variant) + "\nmode:" + modeName(point.mode);
  auto it = annotated_lines_.find(lines_key);
  if (it == annotated_lines_.end())
    it =
        annotated_lines_.emplace(lines_key, annotatedLineChanges(variantSourceFiles(*point.variant), point.mode)).first;
  return it->second;
}

// An automatic mutant's program, as built, so that a user can read what each mode kept and dropped.
void VariantPrograms::keepMutantSource(const std::string& program, const RunPoint& point,
                                       const std::string& options) const {
  try {
    std::filesystem::create_directories(binaries_dir_);
    const std::string file = point.family->name + "-" + point.variant->name + "-" + modeName(point.mode) + "-" +
                             std::to_string(std::hash<std::string>{}(options) % 100000) + ".cl";
    writeFileAtomically(std::filesystem::path(binaries_dir_) / file,
                        "// rooflab automatic " + modeName(point.mode) + " mutant of " + point.family->name + "/" +
                            point.variant->name + "; build options: " + options + "\n" + program);
  } catch (const std::exception&) {
    // Like the binaries: a convenience that never fails a variant.
  }
}

// Keeping the binary (PTX on NVIDIA) lets a user read what the compiler made of a variant.
void VariantPrograms::keepBinary(const cl::Program& program, const RunPoint& point, const std::string& options) const {
  try {
    const std::optional<nvidia::ReadableBinary> binary = nvidia::readableBinary(program, device_.info);
    if (!binary) return;
    std::filesystem::create_directories(binaries_dir_);
    const std::string file = point.family->name + "-" + point.variant->source.stem().string() + "-" +
                             std::to_string(std::hash<std::string>{}(options) % 100000) + binary->extension;
    // Written as every file of the output folder is, so that the next run knows it for rooflab's.
    writeFileAtomically(std::filesystem::path(binaries_dir_) / file,
                        binary->content + "\n// rooflab build options: " + options + "\n");
  } catch (const std::exception&) {
    // Keeping binaries is a convenience; it never fails a variant.
  }
}

}  // namespace rooflab
