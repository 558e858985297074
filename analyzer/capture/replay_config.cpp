// The replay config and its families (docs/capture.md, "The replay"). Each distinct replayable
// launch becomes a family of one variant, "captured", whose buffers start from the bytes saved just
// before the launch first ran and whose outputs are checked against the bytes saved after it.
#include "analyzer/capture/replay_config.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "analyzer/capture/replay_values.hpp"
#include "analyzer/support/atomic_file.hpp"
#include "analyzer/support/errors.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

struct CaptureIndex {
  std::map<std::uint64_t, const CapturedKernel*> kernels;
  std::map<std::uint64_t, const CapturedProgram*> programs;
  std::map<std::uint64_t, std::size_t> program_ordinal;  // 1 for the first program the log made
  std::map<std::uint64_t, const CapturedBuffer*> buffers;
};

CaptureIndex indexOf(const CaptureLog& log) {
  CaptureIndex index;
  for (const CapturedKernel& k : log.kernels) index.kernels[k.id] = &k;
  for (const CapturedProgram& p : log.programs) {
    index.programs[p.id] = &p;
    index.program_ordinal[p.id] = index.program_ordinal.size() + 1;
  }
  for (const CapturedBuffer& b : log.buffers) index.buffers[b.id] = &b;
  return index;
}

// A buffer argument of the family: its manifest name and what the capture saved of it.
struct FamilyBuffer {
  std::string name;
  const CapturedLaunch::BufferState* state = nullptr;
  BufferElement element;
  std::uint64_t bytes = 0;
};

std::string sizesToml(const std::vector<std::uint64_t>& sizes) {
  std::string out = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + tomlQuoted(std::to_string(sizes[i]));
  return out + "]";
}

// Links (or copies) a saved data file into the family's folder under `name`.
void placeData(const fs::path& capture, const CaptureBlob& blob, const fs::path& file) {
  std::error_code ec;
  fs::remove(file, ec);
  fs::create_hard_link(capture / "data" / blob.name, file, ec);
  if (ec) fs::copy_file(capture / "data" / blob.name, file, ec);
  if (ec) throw IoError("cannot write " + file.string() + ": " + ec.message());
}

// The family's buffers and argument list, or `why` the launch cannot be replayed.
bool familyArguments(const CapturedLaunch& launch, const CaptureIndex& index, std::vector<FamilyBuffer>& buffers,
                     std::vector<std::string>& args, std::string& why) {
  std::map<std::uint64_t, std::string> names;
  for (std::size_t i = 0; i < launch.arguments.size(); ++i) {
    const CapturedArgument& a = launch.arguments[i];
    const std::string where = "argument " + std::to_string(i) + (a.name.empty() ? "" : " (" + a.name + ")");
    if (a.kind == CapturedArgumentKind::local) {
      args.push_back("local:" + std::to_string(a.size_bytes));
    } else if (a.kind == CapturedArgumentKind::scalar) {
      const auto text = manifestScalar(a, why);
      if (!text) return why = where + ": " + why, false;
      args.push_back(*text);
    } else if (a.kind == CapturedArgumentKind::buffer) {
      if (names.count(a.buffer_id) == 0) {
        const CapturedLaunch::BufferState* state = nullptr;
        for (const auto& s : launch.buffers) state = s.buffer_id == a.buffer_id ? &s : state;
        const auto buffer = index.buffers.find(a.buffer_id);
        if (state == nullptr || !state->before || !state->after || buffer == index.buffers.end())
          return why = where + ": its buffer's data was not saved", false;
        std::string name = identifierFrom(a.name, "arg" + std::to_string(i));
        for (const FamilyBuffer& b : buffers) name = b.name == name ? name + "_" + std::to_string(i) : name;
        FamilyBuffer fb{name, state, bufferElement(a.type_name), buffer->second->size_bytes};
        if (fb.bytes % fb.element.bytes != 0) fb.element = BufferElement{};
        buffers.push_back(fb);
        names[a.buffer_id] = name;
      }
      args.push_back(names[a.buffer_id]);
    } else {
      return why = where + ": a " + toString(a.kind) + " argument cannot be written in a manifest", false;
    }
  }
  return true;
}

bool changedByLaunch(const FamilyBuffer& buffer) { return buffer.state->before->name != buffer.state->after->name; }

// A buffer whose bytes changed is an output. A launch that changed none (it wrote the very values an
// earlier launch left there, as a benchmark repeating one kernel over one buffer does) still wrote
// something: every buffer is then checked against the bytes it held after the launch.
bool checkedAfterLaunch(const FamilyBuffer& buffer, const std::vector<FamilyBuffer>& buffers) {
  return changedByLaunch(buffer) || std::none_of(buffers.begin(), buffers.end(), changedByLaunch);
}

std::string familyText(const std::string& name, const CapturedLaunch& launch, const CapturedKernel& kernel,
                       const CapturedProgram& program, std::size_t program_ordinal,
                       const std::vector<FamilyBuffer>& buffers, const std::vector<std::string>& args,
                       const std::string& command) {
  std::ostringstream out;
  out << "# Generated by rooflab capture from: " << command << "\n"
      << "# Program " << program_ordinal << " (in the order it built them), kernel " << kernel.name << ", launched "
      << launch.commands << (launch.commands == 1 ? " time" : " times")
      << " with this configuration. The buffers start from the bytes\n"
      << "# saved just before its first launch; the outputs are checked against the bytes saved after it.\n"
      << "name = " << tomlQuoted(name) << "\n"
      << "description = " << tomlQuoted("kernel " + kernel.name + " as the captured program launched it") << "\n\n"
      << "[work]\n"
      << kUnmeasuredFamilyWork;
  for (const FamilyBuffer& b : buffers) {
    const bool output = checkedAfterLaunch(b, buffers);
    out << "\n[[buffers]]\nname = " << tomlQuoted(b.name) << "\ntype = " << tomlQuoted(b.element.type)
        << "\ncount = " << tomlQuoted(std::to_string(b.bytes / b.element.bytes))
        << "\ninit = " << tomlQuoted("file:" + b.name + ".in.bin")
        << "\naccess = " << (output ? "\"read_write\"" : "\"read\"") << "\n";
    if (output) out << "expect = " << tomlQuoted("file:" + b.name + ".out.bin") << "\n";
  }
  out << "\n[check]\nreference = \"outputs\"\n\n[[variants]]\nname = \"captured\"\nsource = "
      << tomlQuoted(kernel.name + ".cl") << "\nkernel = " << tomlQuoted(kernel.name) << "\nargs = [";
  for (std::size_t i = 0; i < args.size(); ++i) out << (i ? ", " : "") << tomlQuoted(args[i]);
  out << "]\nglobal = " << sizesToml(launch.global_size) << "\n";
  if (launch.local_size) out << "local = " << sizesToml(*launch.local_size) << "\n";
  const ManifestBuildOptions options = manifestBuildOptions(program.build_options);
  if (!options.defines.empty()) {
    out << "defines = { ";
    for (std::size_t i = 0; i < options.defines.size(); ++i)
      out << (i ? ", " : "") << tomlQuoted(options.defines[i].first) << " = " << tomlQuoted(options.defines[i].second);
    out << " }\n";
  }
  if (!options.options.empty()) out << "build_options = " << tomlQuoted(options.options) << "\n";
  // A variant's key, not [work]'s: the count of the launch's global element accesses.
  out << kUnmeasuredVariantWork;
  return out.str();
}

// Why the launch as a whole cannot be a family, before its arguments are looked at.
std::string launchObstacle(const CapturedLaunch& launch, const CapturedProgram* program) {
  if (launch.not_replayable) return *launch.not_replayable;
  if (program == nullptr || program->kind != CapturedProgramKind::source || !program->source)
    return "its program was not built from source the capture saved";
  for (const std::uint64_t offset : launch.global_offset)
    if (offset != 0) return "it has a global offset, which a manifest cannot give";
  if (launch.commands == 0) return "it never ran";
  return "";
}

}  // namespace

ReplayGeneration generateReplay(const CaptureLog& log, const fs::path& folder) {
  ReplayGeneration generation;
  const CaptureIndex index = indexOf(log);
  std::string command;
  for (const std::string& word : log.process.command) command += (command.empty() ? "" : " ") + word;
  std::map<std::string, int> per_kernel;
  std::ostringstream studies;
  for (const CapturedLaunch& launch : log.launches) {
    const auto kernel = index.kernels.find(launch.kernel_id);
    if (kernel == index.kernels.end()) continue;
    const auto program_at = index.programs.find(kernel->second->program_id);
    const CapturedProgram* program = program_at == index.programs.end() ? nullptr : program_at->second;
    std::string why = launchObstacle(launch, program);
    std::vector<FamilyBuffer> buffers;
    std::vector<std::string> args;
    if (why.empty()) familyArguments(launch, index, buffers, args, why);
    if (!why.empty()) {
      generation.skipped.push_back("kernel " + kernel->second->name + ": " + why);
      continue;
    }
    const std::string stem = "program" + std::to_string(index.program_ordinal.at(program->id)) + "_" +
                             identifierFrom(kernel->second->name, "kernel");
    const std::string name = stem + "_" + std::to_string(++per_kernel[stem]);
    const fs::path dir = folder / "families" / name;
    fs::create_directories(dir);
    placeData(folder, *program->source, dir / (kernel->second->name + ".cl"));
    for (const FamilyBuffer& b : buffers) {
      placeData(folder, *b.state->before, dir / (b.name + ".in.bin"));
      if (checkedAfterLaunch(b, buffers)) placeData(folder, *b.state->after, dir / (b.name + ".out.bin"));
    }
    writeFileAtomically(dir / "family.toml", familyText(name, launch, *kernel->second, *program,
                                                        index.program_ordinal.at(program->id), buffers, args, command));
    generation.families.push_back(name);
    studies << "\n[[study]]\nfamily = " << tomlQuoted(name) << "\n";
  }
  if (generation.families.empty()) return generation;
  std::ostringstream config;
  config << "# Generated by rooflab capture from: " << command << "\n"
         << "# One study per distinct kernel launch the program made, in the order it first made them. Each runs\n"
         << "# every variant of its family: one of your own added to a family.toml runs beside `captured`.\n"
         << "[run]\nkernels = [\"families\"]\nmodes = [\"normal\", \"compute-only\", \"memory-only\"]\nout = "
            "\"replay-out\"\n\n"
         << "[capture]\nfolder = \".\"\n"
         << studies.str();
  generation.config = folder / "capture.toml";
  writeFileAtomically(generation.config, config.str());
  return generation;
}

}  // namespace rooflab
