// One [[variants]] entry of a family manifest (docs/manifest.md): its sources, defines, launches,
// arguments and overrides. Every key is checked on its own and its errors kept, so that a variant
// with three mistakes reports all three; a key in error takes a stand-in value where later checks
// read it, so that it does not cause errors of its own.
#include <algorithm>

#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/manifest/manifest_fields.hpp"
#include "analyzer/manifest/manifest_what_if.hpp"
#include "analyzer/manifest/resolve_point.hpp"
#include "analyzer/manifest/tuning_space.hpp"
#include "analyzer/support/expression.hpp"
#include "analyzer/support/format.hpp"

namespace fs = std::filesystem;

namespace rooflab {
namespace {

// Options that exist on one vendor's compiler only: they fail the build on every other device.
constexpr const char* kVendorOptions[] = {"-cl-nv-", "-cl-intel-", "-cl-amd-"};

KernelArgSpec parseArg(const TomlReader& r, const std::string& key, const std::string& text,
                       const FamilyManifest& family, const std::vector<BufferSpec>& scratch,
                       const ParamValues& values) {
  KernelArgSpec arg;
  arg.text = text;
  auto isBuffer = [&](const std::string& name) {
    for (const auto& b : family.buffers)
      if (b.name == name) return true;
    for (const auto& b : scratch)
      if (b.name == name) return true;
    return false;
  };
  if (isBuffer(text)) {
    arg.kind = KernelArgSpec::Kind::buffer;
    arg.buffer = text;
    return arg;
  }
  auto colon = text.find(':');
  std::string prefix = colon == std::string::npos ? "" : text.substr(0, colon);
  std::string body = colon == std::string::npos ? text : text.substr(colon + 1);
  static const std::pair<const char*, ScalarKind> kScalarPrefixes[] = {
      {"int", ScalarKind::i32},   {"uint", ScalarKind::u32},  {"long", ScalarKind::i64},
      {"ulong", ScalarKind::u64}, {"float", ScalarKind::f32}, {"double", ScalarKind::f64}};
  if (prefix == "local") {
    arg.kind = KernelArgSpec::Kind::local_bytes;
  } else if (!prefix.empty()) {
    bool known = false;
    for (const auto& [name, kind] : kScalarPrefixes)
      if (prefix == name) {
        arg.scalar_type = kind;
        known = true;
      }
    if (!known)
      throw InputError(r.where("args").str() + ": " + key + ": unknown argument prefix '" + prefix +
                       ":' (expected local, int, uint, long, ulong, float or double)");
    arg.kind = KernelArgSpec::Kind::scalar;
  } else {
    arg.kind = KernelArgSpec::Kind::scalar;
  }
  arg.value = ManifestExpression{body, key, r.where("args")};
  // An argument that is neither a buffer nor a valid expression is almost always a misspelt buffer.
  try {
    evaluateExpression(body, values);
  } catch (const ExpressionError& e) {
    throw InputError(r.where("args").str() + ": " + key + ": '" + text +
                     "' is not a buffer of this family and not a valid expression (" + e.what() + ")");
  }
  return arg;
}

std::vector<ManifestExpression> geometry(const TomlReader& r, const std::string& key, bool required) {
  std::vector<ManifestExpression> out;
  auto texts = r.optionalTextArray(key);
  if (!texts) {
    if (required) r.fail(key, "missing (an array of 1 to 3 expressions is required)");
    return out;
  }
  if (texts->empty() || texts->size() > 3) r.fail(key, "must have 1 to 3 dimensions");
  for (std::size_t i = 0; i < texts->size(); ++i)
    out.push_back(ManifestExpression{(*texts)[i], r.keyPath(key) + "[" + std::to_string(i) + "]", r.where(key)});
  return out;
}

LaunchSpec parseLaunch(const TomlReader& r, const FamilyManifest& family, const std::vector<BufferSpec>& scratch,
                       const ParamValues& values, InputErrorList& errors) {
  LaunchSpec launch;
  errors.attempt([&] {
    const std::string kernel = r.requireString("kernel");
    if (!isIdentifier(kernel)) r.fail("kernel", "'" + kernel + "' is not a valid kernel name");
    launch.kernel = kernel;
  });
  std::optional<std::vector<std::string>> args;
  errors.attempt([&] {
    args = r.optionalTextArray("args");
    if (!args) r.fail("args", "missing (list the kernel's arguments: buffer names, params, local:<bytes>)");
    launch.args_key = r.keyPath("args");
    launch.args_where = r.where("args");
  });
  for (std::size_t i = 0; args && i < args->size(); ++i)
    errors.attempt([&] {
      launch.args.push_back(
          parseArg(r, r.keyPath("args") + "[" + std::to_string(i) + "]", (*args)[i], family, scratch, values));
    });
  const bool global_read = errors.attempt([&] { launch.global = geometry(r, "global", true); });
  const bool local_read = errors.attempt([&] { launch.local = geometry(r, "local", false); });
  if (global_read && local_read && !launch.local.empty() && launch.local.size() != launch.global.size())
    errors.add(r.error("local", "has " + std::to_string(launch.local.size()) + " dimensions but global has " +
                                    std::to_string(launch.global.size())));
  return launch;
}

// A define as the compiler gets it, "-D NAME=VALUE" among the build options: a raw value holding
// white space would end the define there and hand the rest to the compiler as options of their own
// (PoCL: "Invalid build option: +"), a vendor option among them included.
void checkRawDefine(const DefineSpec& d, const std::string& written) {
  for (const char* vendor : kVendorOptions)
    if (d.value.find(vendor) != std::string::npos)
      throw InputError(d.where.str() + ": " + d.key + ": vendor options (" + vendor +
                       "...) would fail the build on other devices");
  if (d.value.find_first_of(" \t\r\n\v\f") != std::string::npos)
    throw InputError(d.where.str() + ": " + d.key + ": '" + written +
                     "' holds white space, which the OpenCL compiler reads as the end of the define (write it "
                     "without spaces)");
}

// A define in error stands in as the number 1, so that expressions that name it are still checked.
DefineSpec parseDefine(const TomlReader& r, const std::string& name, const toml::node& node, InputErrorList& errors) {
  DefineSpec d;
  d.name = name;
  d.key = r.keyPath("defines") + "." + name;
  d.where = SourceLocation{r.file(), static_cast<int>(node.source().begin.line)};
  if (!isIdentifier(name)) errors.add(d.where.str() + ": " + d.key + ": not a valid macro name");
  if (auto b = node.value_exact<bool>()) {
    d.value = *b ? "1" : "0";
  } else if (auto s = node.value_exact<std::string>()) {
    if (s->rfind("raw:", 0) == 0) {
      d.value = s->substr(4);
      errors.attempt([&] { checkRawDefine(d, *s); });
    } else {
      d.value = *s;
      d.is_expression = true;
    }
  } else if (auto text = nodeAsText(node)) {
    d.value = *text;
    d.is_number = true;
  } else {
    errors.add(d.where.str() + ": " + d.key + ": must be a number, a boolean, an expression string or \"raw:<text>\"");
    d.value = "1";
    d.is_number = true;
  }
  return d;
}

// `source = "k.cl"` or `source = ["common.cl", "k.cl"]`: files relative to the family's folder. Every
// file that is missing, and every file listed twice (the compiler would see its kernels twice), is an
// error of its own.
std::vector<fs::path> parseSources(const TomlReader& r, const fs::path& dir) {
  std::vector<std::string> names;
  const toml::node* node = r.table().get("source");
  if (node && node->is_array()) {
    names = *r.optionalTextArray("source");
    if (names.empty()) r.fail("source", "must list at least one file");
  } else if (node && node->is_string()) {
    names.push_back(r.requireString("source"));
  } else {
    r.fail("source",
           node ? "must be a file name or an array of file names" : "missing (the variant's OpenCL C file or files)");
  }
  std::vector<fs::path> files;
  InputErrorList errors;
  for (const std::string& name : names) {
    const fs::path file = fs::absolute(dir / name).lexically_normal();
    std::error_code ec;  // a symlink loop is an input error, not an exception
    if (!fs::is_regular_file(file, ec)) {
      std::error_code exists_ec;
      if (!ec && fs::exists(file, exists_ec)) {
        errors.add(
            r.error("source", "file '" + file.string() + "' is not a regular file (a FIFO, a device or a socket)"));
        continue;
      }
      const bool missing = !ec || ec == std::errc::no_such_file_or_directory;
      errors.add(
          r.error("source", "file '" + file.string() + "' not found" + (missing ? "" : " (" + ec.message() + ")")));
      continue;
    }
    const bool twice = std::any_of(files.begin(), files.end(), [&](const fs::path& earlier) {
      std::error_code same_ec;
      return earlier == file || fs::equivalent(earlier, file, same_ec);
    });
    if (twice) errors.add(r.error("source", "file '" + file.string() + "' is listed twice"));
    else files.push_back(file);
  }
  errors.throwIfAny();
  return files;
}

std::string sourceNames(const VariantSpec& v) {
  std::string names;
  for (const fs::path& f : v.sources)
    names += (names.empty() ? "" : ", ") + f.lexically_relative(v.include_dir).string();
  return names;
}

// `pingpong = [["a", "b"], ...]`: pairs of distinct buffers of the variant, of one type, each in one
// pair, that the kernels may write (a family buffer with access read is read-only and never reset).
std::vector<BufferSwap> parsePingpong(const TomlReader& r, const FamilyManifest& family, const VariantSpec& v) {
  std::vector<BufferSwap> swaps;
  const toml::array* pairs = r.optionalArray("pingpong");
  if (!pairs) return swaps;
  std::vector<std::string> seen;
  for (const toml::node& node : *pairs) {
    const toml::array* pair = node.as_array();
    if (!pair || pair->size() != 2 || !(*pair)[0].is_string() || !(*pair)[1].is_string())
      r.fail("pingpong", "must be a list of pairs of buffer names, e.g. [[\"a\", \"b\"]]");
    BufferSwap swap{*(*pair)[0].value<std::string>(), *(*pair)[1].value<std::string>()};
    const BufferSpec* first = family.findBuffer(swap.first, &v);
    const BufferSpec* second = family.findBuffer(swap.second, &v);
    for (const auto& [name, spec] : {std::pair{swap.first, first}, std::pair{swap.second, second}}) {
      if (!spec) r.fail("pingpong", "'" + name + "' is not a buffer of this family or variant");
      if (spec->access == BufferAccess::read)
        r.fail("pingpong", "buffer '" + name +
                               "' has access read, but pingpong writes it on alternate repetitions "
                               "(give it access read_write)");
      if (std::find(seen.begin(), seen.end(), name) != seen.end())
        r.fail("pingpong", "buffer '" + name + "' is exchanged twice (in one pair, or in two)");
      seen.push_back(name);
    }
    if (first->type.name() != second->type.name())
      r.fail("pingpong", "'" + swap.first + "' holds " + first->type.name() + " but '" + swap.second + "' holds " +
                             second->type.name() + ": buffers exchanged must hold one type");
    swaps.push_back(std::move(swap));
  }
  return swaps;
}

// An entry's `repeat`, `index` and `pingpong` (in a LaunchSpec that holds nothing else). The repeat is
// checked with the defaults here, and per point by the plan.
LaunchSpec parseRepetition(const TomlReader& r, const FamilyManifest& family, const VariantSpec& v,
                           const ParamValues& values, InputErrorList& errors) {
  LaunchSpec launch;
  errors.attempt([&] {
    launch.index = r.optionalString("index").value_or("i");
    if (!isIdentifier(launch.index)) r.fail("index", "'" + launch.index + "' is not a valid variable name");
    if (values.count(launch.index))
      r.fail("index",
             "'" + launch.index + "' is already a parameter or define of the variant (name the index otherwise)");
  });
  errors.attempt([&] { launch.repeat = optionalExpressionAt(r, "repeat"); });
  errors.attempt([&] { launch.pingpong = parsePingpong(r, family, v); });
  if (!launch.repeat && (r.has("index") || r.has("pingpong")))
    errors.add(r.error(r.has("index") ? "index" : "pingpong", "needs repeat = \"<count>\" in the same entry"));
  return launch;
}

void parseLaunches(const TomlReader& r, const FamilyManifest& family, const ParamValues& values, VariantSpec& v,
                   InputErrorList& errors) {
  const bool has_single = r.has("kernel") || r.has("args") || r.has("global") || r.has("local");
  std::vector<const toml::table*> launch_tables;
  const bool launches_read = errors.attempt([&] { launch_tables = tablesOf(r, "launches"); });
  if (has_single && !launch_tables.empty()) {
    errors.add(r.error("launches", "give either kernel/args/global/local or launches, not both"));
  } else if (has_single) {
    v.launches.push_back(parseLaunch(r, family, v.scratch, values, errors));
  } else if (!launch_tables.empty()) {
    for (std::size_t i = 0; i < launch_tables.size(); ++i) {
      TomlReader lr = r.sub(*launch_tables[i], r.keyPath("launches") + "[" + std::to_string(i) + "]");
      errors.attempt([&] {
        lr.rejectUnknownKeys({"kernel", "args", "global", "local", "repeat", "index", "pingpong"});
      });
      LaunchSpec repetition = parseRepetition(lr, family, v, values, errors);
      // The entry's expressions see its index, at 0 here; the plan checks every repetition.
      ParamValues entry_values = values;
      if (repetition.repeat) entry_values[repetition.index] = 0;
      LaunchSpec launch = parseLaunch(lr, family, v.scratch, entry_values, errors);
      launch.repeat = std::move(repetition.repeat);
      launch.index = std::move(repetition.index);
      launch.pingpong = std::move(repetition.pingpong);
      launch.where = lr.where();
      v.launches.push_back(std::move(launch));
    }
  } else if (launches_read) {
    errors.add(r.error("kernel", "missing (a variant needs kernel, args and global, or launches)"));
  }
}

// Only standard OpenCL C options, so that a variant builds on every device: a vendor's own option
// (-cl-nv-..., -cl-intel-...) fails the build elsewhere.
void parseBuildOptions(const TomlReader& r, VariantSpec& v, InputErrorList& errors) {
  if (!errors.attempt([&] { v.build_options = r.optionalString("build_options").value_or(""); })) return;
  for (std::size_t at = 0; (at = v.build_options.find("-D", at)) != std::string::npos; ++at)
    if (at == 0 || v.build_options[at - 1] == ' ') {
      errors.add(r.error("build_options", "defines belong in `defines`, not in build_options"));
      break;
    }
  for (const char* vendor : kVendorOptions)
    if (v.build_options.find(vendor) != std::string::npos)
      errors.add(r.error("build_options",
                         std::string("vendor options (") + vendor + "...) would fail the build on other devices"));
}

}  // namespace

VariantSpec parseVariant(const TomlReader& r, const FamilyManifest& family, const fs::path& dir,
                         InputErrorList& errors) {
  errors.attempt([&] {
    r.rejectUnknownKeys({"name", "description", "source", "kernel", "args", "global", "local", "defines", "launches",
                         "scratch", "flops", "bytes", "global_accesses", "local_accesses", "tolerance", "build_options",
                         "what_if", "tune"});
  });
  VariantSpec v;
  v.where = r.where();
  v.include_dir = dir;
  errors.attempt([&] {
    const std::string name = r.requireString("name");
    if (!isIdentifier(name)) r.fail("name", "'" + name + "' is not a valid variant name (letters, digits, _)");
    v.name = name;
  });
  errors.attempt([&] { v.description = r.optionalString("description").value_or(""); });
  const bool sources_found = errors.attempt([&] { v.sources = parseSources(r, dir); });
  if (!v.sources.empty()) v.source = v.sources.front();
  const toml::table* defines = nullptr;
  errors.attempt([&] { defines = r.optionalTable("defines"); });
  if (defines != nullptr)
    for (const auto& [name, node] : *defines)
      v.defines.push_back(parseDefine(r, std::string(name.str()), node, errors));
  // Arguments are checked with the defines' values too, as the variant's expressions see them.
  const ParamValues values = variantValues(v, family.params, &errors);

  std::vector<const toml::table*> scratch_tables;
  errors.attempt([&] { scratch_tables = tablesOf(r, "scratch"); });
  for (const toml::table* t : scratch_tables) {
    BufferSpec scratch = parseBuffer(r.sub(*t, r.keyPath("scratch")), true, errors);
    if (family.findBuffer(scratch.name))
      errors.add(r.error("scratch", "buffer '" + scratch.name + "' is already a family buffer"));
    else if (!scratch.name.empty()) v.scratch.push_back(std::move(scratch));
  }
  parseLaunches(r, family, values, v, errors);

  // The files as the compiler reads them, includes followed and comments skipped: a commented-out
  // kernel is not a kernel, and one in an included header is. Without them (a file missing), the
  // checks that read them wait for the next run.
  std::string text;
  if (sources_found && errors.attempt([&] { text = sourceTextWithIncludes(v.sources, v.include_dir); })) {
    for (const auto& launch : v.launches)
      if (!launch.kernel.empty() && !sourceDefinesKernel(text, launch.kernel))
        errors.add(r.error(r.has("launches") ? "launches" : "kernel", "kernel '" + launch.kernel +
                                                                          "' is not defined in " + sourceNames(v) +
                                                                          " or the files they include"));
    v.annotated =
        text.find("RL_LOAD") != std::string::npos || text.find("RL_STORE") != std::string::npos;  // RL_LOAD4 too
    v.uses_atomics = sourceUsesAtomics(text);
    v.what_ifs = parseWhatIfs(r, v, text, errors);
  }
  errors.attempt([&] { v.flops = optionalExpressionAt(r, "flops"); });
  errors.attempt([&] { v.bytes = optionalExpressionAt(r, "bytes"); });
  errors.attempt([&] {
    v.global_accesses = optionalExpressionAt(r, "global_accesses");
    v.global_accesses_unmeasured = v.global_accesses && v.global_accesses->text == kUnmeasuredWork;
    if (v.global_accesses_unmeasured) v.global_accesses.reset();
  });
  errors.attempt([&] { v.local_accesses = optionalExpressionAt(r, "local_accesses"); });
  errors.attempt([&] {
    const std::optional<double> tolerance = r.optionalNumber("tolerance");
    if (tolerance) checkTolerance(r, *tolerance);
    v.tolerance = tolerance;
  });
  parseBuildOptions(r, v, errors);
  v.tune = parseTuningSpace(r, family, v, errors);
  return v;
}

}  // namespace rooflab
