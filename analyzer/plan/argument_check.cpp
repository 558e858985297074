#include "analyzer/plan/argument_check.hpp"

#include "analyzer/manifest/kernel_signature.hpp"
#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/support/errors.hpp"

namespace rooflab {
namespace {

using Space = KernelParameter::Space;

std::string spaceName(Space space) {
  switch (space) {
    case Space::global: return "__global";
    case Space::local: return "__local";
    case Space::constant: return "__constant";
    case Space::private_: return "__private";
    case Space::none: break;
  }
  return "";
}

// "a __global pointer", "a scalar": what the kernel declares, in the words of the messages.
std::string parameterKind(const KernelParameter& p) {
  if (!p.pointer) return "a scalar";
  return p.space == Space::none ? "a pointer" : "a " + spaceName(p.space) + " pointer";
}

// The scalar types an argument's prefix gives (int: by default).
bool hasPrefix(const ElementType& type) {
  switch (type.scalar) {
    case ScalarKind::i32:
    case ScalarKind::u32:
    case ScalarKind::i64:
    case ScalarKind::u64:
    case ScalarKind::f32:
    case ScalarKind::f64: return type.lanes == 1;
    default: return false;
  }
}

// Whether a value written as `given` reaches a parameter of type `declared` with its meaning: the same
// size, and both floating point or both integers (int for uint passes the same bits).
bool sameScalar(ScalarKind given, const ElementType& declared) {
  const ElementType g{given, 1};
  return declared.lanes == 1 && g.isFloat() == declared.isFloat() && g.scalarBytes() == declared.scalarBytes();
}

// Why argument `arg` cannot be given to parameter `p`, and what to write instead; "" when it can.
std::string mismatch(const KernelArgSpec& arg, const KernelParameter& p) {
  if (!p.known) return "";
  const std::string declared = "declares `" + p.declaration + "` (" + parameterKind(p) + ")";
  switch (arg.kind) {
    case KernelArgSpec::Kind::buffer:
      if (!p.pointer) return "is a buffer, but the kernel " + declared + ": give a value";
      if (p.space == Space::local) return "is a buffer, but the kernel " + declared + ": give local:<bytes>";
      return "";
    case KernelArgSpec::Kind::local_bytes:
      if (!p.pointer) return "is a __local size, but the kernel " + declared + ": give a value";
      if (p.space != Space::local && p.space != Space::none)
        return "is a __local size, but the kernel " + declared + ": give a buffer";
      return "";
    case KernelArgSpec::Kind::scalar: {
      if (p.pointer)
        return "is a scalar, but the kernel " + declared + ": give " +
               (p.space == Space::local ? "local:<bytes>" : "a buffer");
      if (!p.type || sameScalar(arg.scalar_type, *p.type)) return "";
      const std::string given = ElementType{arg.scalar_type, 1}.name();
      const std::string fix = hasPrefix(*p.type) ? "write '" + p.type->name() + ":" + arg.value.text + "'"
                                                 : "no argument prefix gives " + p.type->name();
      return "is " + given + " (" + std::to_string(ElementType{arg.scalar_type, 1}.bytes()) +
             " bytes), but the kernel declares `" + p.declaration + "` (" + std::to_string(p.type->bytes()) +
             " bytes): " + fix;
    }
  }
  return "";
}

// A buffer whose elements the kernel reads as another scalar type: a warning, since a kernel may
// view a buffer's bytes through another type on purpose (bits of floats as uint, bytes as uchar).
std::string elementMismatch(const FamilyManifest& family, const VariantSpec& variant, const KernelArgSpec& arg,
                            const KernelParameter& p) {
  const BufferSpec* buffer = family.findBuffer(arg.buffer, &variant);
  if (arg.kind != KernelArgSpec::Kind::buffer || !p.pointer || !p.type || !buffer) return "";
  const ElementType& declared = *p.type;
  if (declared.scalarBytes() == 1 || buffer->type.scalar == declared.scalar) return "";
  return "is a buffer of " + buffer->type.name() + ", but the kernel declares `" + p.declaration + "` (" +
         ElementType{declared.scalar, 1}.name() + " elements): the kernel reads its bytes as " +
         ElementType{declared.scalar, 1}.name();
}

void checkLaunch(const FamilyManifest& family, const VariantSpec& variant, const LaunchSpec& launch,
                 const std::vector<KernelParameter>& parameters, ArgumentProblems& problems) {
  const std::string at = launch.args_where.str() + ": ";
  const std::string who = "variant '" + variant.name + "': ";
  const std::string kernel = "kernel '" + launch.kernel + "'";
  for (std::size_t i = 0; i < launch.args.size(); ++i) {
    const KernelArgSpec& arg = launch.args[i];
    const std::string key = launch.args_key + "[" + std::to_string(i) + "]: ";
    const std::string argument = "argument " + std::to_string(i) + " '" + arg.text + "'";
    if (i >= parameters.size()) {
      problems.errors.push_back(at + key + who + argument + " has no parameter: " + kernel + " declares " +
                                std::to_string(parameters.size()) + " (remove it)");
      continue;
    }
    const std::string parameter = " (parameter '" + parameters[i].name + "' of " + kernel + ")";
    if (const std::string why = mismatch(arg, parameters[i]); !why.empty())
      problems.errors.push_back(at + key + who + argument + parameter + " " + why);
    else if (const std::string odd = elementMismatch(family, variant, arg, parameters[i]); !odd.empty())
      problems.warnings.push_back(at + key + who + argument + parameter + " " + odd);
  }
  for (std::size_t i = launch.args.size(); i < parameters.size(); ++i)
    problems.errors.push_back(at + launch.args_key + ": " + who + kernel + " declares " +
                              std::to_string(parameters.size()) + " parameters and " +
                              std::to_string(launch.args.size()) + " arguments are given: parameter " +
                              std::to_string(i) + ", `" + parameters[i].declaration + "`, has none");
}

}  // namespace

ArgumentProblems checkLaunchArguments(const FamilyManifest& family, const VariantSpec& variant,
                                      const std::string& program_options, const std::string& source) {
  ArgumentProblems problems;
  const std::map<std::string, std::string> defines = definesOfOptions(program_options);
  for (const LaunchSpec& launch : variant.launches)
    if (const auto parameters = readKernelParameters(source, launch.kernel, defines))
      checkLaunch(family, variant, launch, *parameters, problems);
  return problems;
}

ArgumentProblems ArgumentChecker::check(const FamilyManifest& family, const VariantSpec& variant,
                                        const std::string& program_options) {
  if (!checked_.insert({&variant, program_options}).second) return {};
  auto source = sources_.find(&variant);
  if (source == sources_.end()) {
    std::string text;
    try {
      text = sourceTextWithIncludes(variant.sources, variant.include_dir);
    } catch (const InputError&) {
      // Loading the manifest reported it.
    }
    source = sources_.emplace(&variant, std::move(text)).first;
  }
  if (source->second.empty()) return {};
  ArgumentProblems found = checkLaunchArguments(family, variant, program_options, source->second);
  ArgumentProblems fresh;
  for (std::string& e : found.errors)
    if (reported_.insert(e).second) fresh.errors.push_back(std::move(e));
  for (std::string& w : found.warnings)
    if (reported_.insert(w).second) fresh.warnings.push_back(std::move(w));
  return fresh;
}

}  // namespace rooflab
