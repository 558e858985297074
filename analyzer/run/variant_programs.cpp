#include "analyzer/run/variant_programs.hpp"

#include <filesystem>
#include <functional>
#include <sstream>

#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/kernel_source.hpp"
#include "mutators/occupancy_padding.hpp"
#include "embedded_kernel_prelude.hpp"
#include "mutators/auto_mutation.hpp"

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
      throw VariantError("kernel '" + launch.kernel + "' is not in the built program (it has: " +
                         (names.empty() ? std::string("none") : names) + "); is it inside an #if the defines turn off?");
}

// An automatic mutant's text behind both preludes, with #line so that build logs name the user's file.
std::string automaticMutantSource(const std::string& mutant_text, const std::string& file_name) {
  std::string source(embedded::kernel_prelude);
  source += "\n";
  source += automaticMutantPrelude();
  source += "\n#line 1 \"" + file_name + "\"\n";
  source += mutant_text;
  return source;
}

bool isMutant(RunMode mode) { return mode == RunMode::compute_only || mode == RunMode::memory_only; }
bool isAutomaticMutant(const RunPoint& point) { return isMutant(point.mode) && !point.variant->annotated; }

// What an automatic mutant must keep, as its rewriter counted it in both sources.
MutantSourceCheck sourceCheck(const AutoMutant& mutant, RunMode mode) {
  if (mode == RunMode::memory_only)
    return {"global loads and stores", mutant.original.global_loads + mutant.original.global_stores,
            mutant.mutant.global_loads + mutant.mutant.global_stores};
  return {"floating-point operations", mutant.original.float_ops, mutant.mutant.float_ops};
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
      builds_(std::make_unique<ProgramBuilds>(
          context_, device_.device,
          backgroundBuildThreads(device_.info.type == "CPU", settings.environment.build_threads))) {}

std::string VariantPrograms::options(const ResolvedPoint& point, RunMode mode) const {
  // The family's folder is on the include path, so `#include "common.h"` beside the manifest works.
  // A what-if is the kernel as written (RL_MODE 0, normal) with its own define among the options.
  const int rl_mode = isMutant(mode) ? static_cast<int>(mode) : 0;
  return "-D RL_MODE=" + std::to_string(rl_mode) + point.program_options + " " +
         includeOption(point.run_point.variant->include_dir) + nvidia::verboseBuildOption(device_.info);
}

std::string VariantPrograms::key(const RunPoint& point, const std::string& options) {
  return sourcesKey(*point.variant) + options;
}

void VariantPrograms::queue(const std::vector<PlannedPoint>& points) {
  if (backgroundThreads() == 0) return;
  std::map<std::string, std::string> sources;  // by sourcesKey
  for (const PlannedPoint& p : points) {
    if (!p.resolved) continue;  // run() records why
    const RunPoint& point = p.run_point;
    if (isAutomaticMutant(point)) continue;  // build() rewrites it first
    try {
      const std::string options = this->options(*p.resolved, point.mode);
      const std::string program_key = key(point, options);
      if (programs_.count(program_key)) continue;
      auto source = sources.find(sourcesKey(*point.variant));
      if (source == sources.end()) source = sources.emplace(sourcesKey(*point.variant), variantSource(*point.variant)).first;
      builds_->enqueue(program_key, source->second, options);
    } catch (const std::exception&) {
      // A point whose source cannot be read fails in run(), with its context.
    }
  }
}

const AutoMutant& VariantPrograms::automaticMutant(const RunPoint& point, const std::string& options) {
  const std::string mutant_key = key(point, options);
  auto it = automatic_mutants_.find(mutant_key);
  if (it == automatic_mutants_.end()) {
    AutoMutationRequest request;
    // Several files are rewritten as the one program they build into (joined behind #line directives).
    const VariantSpec& v = *point.variant;
    request.source_text = joinSourceFiles(v.sources, v.include_dir);
    request.source_path = point.variant->source.string();
    request.build_options = splitBuildOptions(options);
    request.kind = point.mode == RunMode::memory_only ? AutoMutantKind::memory_only : AutoMutantKind::compute_only;
    it = automatic_mutants_.emplace(mutant_key, mutateAutomatically(request)).first;
  }
  if (!it->second.source)
    throw MutantUnavailable("no automatic " + modeName(point.mode) + " mutant of " +
                            point.variant->source.filename().string() + " (the kernel has no RL_LOAD / RL_STORE "
                            "annotations): " + it->second.reason);
  return it->second;
}

cl::Program VariantPrograms::build(const RunPoint& point, const std::string& options, RunRecord& record,
                                   const std::set<std::string>& pad_kernels) {
  const AutoMutant* automatic = isAutomaticMutant(point) ? &automaticMutant(point, options) : nullptr;
  if (automatic) record.mutant_source_check = sourceCheck(*automatic, point.mode);
  std::string program_key = key(point, options);
  for (const std::string& k : pad_kernels) program_key += "\npad:" + k;
  if (auto it = programs_.find(program_key); it != programs_.end()) return it->second;
  std::optional<ProgramBuild> built = builds_->take(program_key);
  if (!built) {
    std::string source = automatic ? automaticMutantSource(*automatic->source, point.variant->source.filename().string())
                                   : variantSource(*point.variant);
    if (!pad_kernels.empty()) source = addOccupancyPadParameter(source, pad_kernels);
    built = buildProgramNow(context_, device_.device, source, options);
  }
  if (!built->ok) {
    record.build_log = built->log;
    throw VariantError("OpenCL build of " + point.variant->source.filename().string() + " failed" + built->failure);
  }
  const cl::Program program = built->program;
  record.build_seconds = built->seconds;
  requireBuiltKernels(program, *point.variant);
  registers_.add(program, device_);
  if (!binaries_dir_.empty()) keepBinary(program, point, options);
  programs_.emplace(program_key, program);
  return program;
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
