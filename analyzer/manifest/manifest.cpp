#include "analyzer/manifest/manifest.hpp"

#include <cctype>
#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "analyzer/config/config.hpp"
#include "analyzer/config/toml_reader.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/manifest/kernel_source.hpp"
#include "analyzer/manifest/manifest_what_if.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/verify/references.hpp"
#include "analyzer/manifest/resolve_point.hpp"

namespace fs = std::filesystem;

namespace rooflab {

namespace {

bool isIdentifier(const std::string& s) {
  static const std::regex re("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(s, re);
}

ManifestExpression expressionAt(const TomlReader& r, const std::string& key, const std::string& text) {
  return ManifestExpression{text, r.keyPath(key), r.where(key)};
}

std::optional<ManifestExpression> optionalExpressionAt(const TomlReader& r, const std::string& key) {
  if (auto text = r.optionalExpression(key)) return expressionAt(r, key, *text);
  return std::nullopt;
}

BufferInit parseInit(const TomlReader& r) {
  const std::string init = r.optionalString("init").value_or("random");
  if (init == "random") return BufferInit::random;
  if (init == "random_positive") return BufferInit::random_positive;
  if (init == "iota") return BufferInit::iota;
  if (init == "ones") return BufferInit::ones;
  if (init == "zero") return BufferInit::zero;
  r.fail("init", "unknown init '" + init + "' (expected random, random_positive, iota, ones or zero)");
}

BufferAccess parseAccess(const TomlReader& r) {
  const std::string access = r.optionalString("access").value_or("read");
  if (access == "read") return BufferAccess::read;
  if (access == "write") return BufferAccess::write;
  if (access == "read_write") return BufferAccess::read_write;
  r.fail("access", "unknown access '" + access + "' (expected read, write or read_write)");
}

BufferSpec parseBuffer(const TomlReader& r, bool scratch) {
  if (scratch)
    r.rejectUnknownKeys({"name", "type", "count", "init"});
  else
    r.rejectUnknownKeys({"name", "type", "count", "init", "access"});
  BufferSpec b;
  b.name = r.requireString("name");
  if (!isIdentifier(b.name)) r.fail("name", "'" + b.name + "' is not a valid buffer name");
  const std::string type = r.requireString("type");
  auto parsed = ElementType::parse(type);
  if (!parsed) r.fail("type", "unknown element type '" + type + "' (float, double, int, uint, long, ulong, char, uchar, short, ushort, with optional 2/3/4/8/16)");
  b.type = *parsed;
  b.count = expressionAt(r, "count", r.requireExpression("count"));
  b.init = parseInit(r);
  b.access = scratch ? BufferAccess::read_write : parseAccess(r);
  return b;
}

std::vector<const toml::table*> tablesOf(const TomlReader& r, const std::string& key) {
  std::vector<const toml::table*> out;
  const toml::array* array = r.optionalArray(key);
  if (!array) return out;
  for (std::size_t i = 0; i < array->size(); ++i) {
    const toml::table* t = array->get(i)->as_table();
    if (!t) r.fail(key, "element " + std::to_string(i) + " must be a table");
    out.push_back(t);
  }
  return out;
}

KernelArgSpec parseArg(const TomlReader& r, const std::string& key, const std::string& text,
                       const FamilyManifest& family, const std::vector<BufferSpec>& scratch, const ParamValues& values) {
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
      {"int", ScalarKind::i32}, {"uint", ScalarKind::u32}, {"long", ScalarKind::i64},
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
                       const ParamValues& values) {
  LaunchSpec launch;
  launch.kernel = r.requireString("kernel");
  if (!isIdentifier(launch.kernel)) r.fail("kernel", "'" + launch.kernel + "' is not a valid kernel name");
  auto args = r.optionalTextArray("args");
  if (!args) r.fail("args", "missing (list the kernel's arguments: buffer names, params, local:<bytes>)");
  for (std::size_t i = 0; i < args->size(); ++i)
    launch.args.push_back(parseArg(r, r.keyPath("args") + "[" + std::to_string(i) + "]", (*args)[i], family, scratch, values));
  launch.global = geometry(r, "global", true);
  launch.local = geometry(r, "local", false);
  if (!launch.local.empty() && launch.local.size() != launch.global.size())
    r.fail("local", "has " + std::to_string(launch.local.size()) + " dimensions but global has " +
                        std::to_string(launch.global.size()));
  return launch;
}

// inf would pass any output and nan would fail every one (every comparison with it is false).
void checkTolerance(const TomlReader& r, double tolerance) {
  if (!std::isfinite(tolerance)) r.fail("tolerance", "must be a finite number (got " + formatNumber(tolerance) + ")");
  if (tolerance < 0) r.fail("tolerance", "must not be negative");
}

DefineSpec parseDefine(const TomlReader& r, const std::string& name, const toml::node& node) {
  DefineSpec d;
  d.name = name;
  d.key = r.keyPath("defines") + "." + name;
  d.where = SourceLocation{r.file(), static_cast<int>(node.source().begin.line)};
  if (!isIdentifier(name)) throw InputError(d.where.str() + ": " + d.key + ": not a valid macro name");
  if (auto b = node.value_exact<bool>()) {
    d.value = *b ? "1" : "0";
  } else if (auto s = node.value_exact<std::string>()) {
    if (s->rfind("raw:", 0) == 0) {
      d.value = s->substr(4);
    } else {
      d.value = *s;
      d.is_expression = true;
    }
  } else if (auto text = nodeAsText(node)) {
    d.value = *text;
    d.is_number = true;
  } else {
    throw InputError(d.where.str() + ": " + d.key + ": must be a number, a boolean, an expression string or \"raw:<text>\"");
  }
  return d;
}

// `source = "k.cl"` or `source = ["common.cl", "k.cl"]`: files relative to the family's folder.
std::vector<fs::path> parseSources(const TomlReader& r, const fs::path& dir) {
  std::vector<std::string> names;
  const toml::node* node = r.table().get("source");
  if (node && node->is_array()) {
    names = *r.optionalTextArray("source");
    if (names.empty()) r.fail("source", "must list at least one file");
  } else if (node && node->is_string()) {
    names.push_back(r.requireString("source"));
  } else {
    r.fail("source", node ? "must be a file name or an array of file names" : "missing (the variant's OpenCL C file or files)");
  }
  std::vector<fs::path> files;
  for (const std::string& name : names) {
    files.push_back(fs::absolute(dir / name).lexically_normal());
    std::error_code ec;  // a symlink loop is an input error, not an exception
    if (!fs::is_regular_file(files.back(), ec))
      r.fail("source", "file '" + files.back().string() + "' not found" + (ec ? " (" + ec.message() + ")" : ""));
  }
  return files;
}

std::string sourceNames(const VariantSpec& v) {
  std::string names;
  for (const fs::path& f : v.sources) names += (names.empty() ? "" : ", ") + f.lexically_relative(v.include_dir).string();
  return names;
}

VariantSpec parseVariant(const TomlReader& r, const FamilyManifest& family, const fs::path& dir) {
  r.rejectUnknownKeys({"name", "description", "source", "kernel", "args", "global", "local", "defines",
                       "launches", "scratch", "flops", "bytes", "global_accesses", "local_accesses",
                       "tolerance", "build_options", "what_if"});
  VariantSpec v;
  v.where = r.where();
  v.name = r.requireString("name");
  if (!isIdentifier(v.name)) r.fail("name", "'" + v.name + "' is not a valid variant name (letters, digits, _)");
  v.description = r.optionalString("description").value_or("");
  v.include_dir = dir;
  v.sources = parseSources(r, dir);
  v.source = v.sources.front();
  if (const toml::table* defines = r.optionalTable("defines"))
    for (const auto& [name, node] : *defines) v.defines.push_back(parseDefine(r, std::string(name.str()), node));
  // Arguments are checked with the defines' values too, as the variant's expressions see them.
  const ParamValues values = variantValues(v, family.params);

  for (const toml::table* t : tablesOf(r, "scratch")) {
    v.scratch.push_back(parseBuffer(r.sub(*t, r.keyPath("scratch")), true));
    if (family.findBuffer(v.scratch.back().name))
      r.fail("scratch", "buffer '" + v.scratch.back().name + "' is already a family buffer");
  }
  const bool has_single = r.has("kernel") || r.has("args") || r.has("global") || r.has("local");
  const auto launch_tables = tablesOf(r, "launches");
  if (has_single && !launch_tables.empty())
    r.fail("launches", "give either kernel/args/global/local or launches, not both");
  if (has_single) {
    v.launches.push_back(parseLaunch(r, family, v.scratch, values));
  } else if (!launch_tables.empty()) {
    for (std::size_t i = 0; i < launch_tables.size(); ++i) {
      TomlReader lr = r.sub(*launch_tables[i], r.keyPath("launches") + "[" + std::to_string(i) + "]");
      lr.rejectUnknownKeys({"kernel", "args", "global", "local"});
      v.launches.push_back(parseLaunch(lr, family, v.scratch, values));
    }
  } else {
    r.fail("kernel", "missing (a variant needs kernel, args and global, or launches)");
  }

  // The files as the compiler reads them, includes followed and comments skipped: a commented-out
  // kernel is not a kernel, and one in an included header is.
  const std::string text = sourceTextWithIncludes(v.sources, v.include_dir);
  for (const auto& launch : v.launches)
    if (!sourceDefinesKernel(text, launch.kernel))
      r.fail(launch_tables.empty() ? "kernel" : "launches",
             "kernel '" + launch.kernel + "' is not defined in " + sourceNames(v) + " or the files they include");
  v.annotated = text.find("RL_LOAD") != std::string::npos || text.find("RL_STORE") != std::string::npos;  // RL_LOAD4 too
  v.uses_atomics = sourceUsesAtomics(text);
  v.what_ifs = parseWhatIfs(r, v, text);
  v.flops = optionalExpressionAt(r, "flops");
  v.bytes = optionalExpressionAt(r, "bytes");
  v.global_accesses = optionalExpressionAt(r, "global_accesses");
  v.local_accesses = optionalExpressionAt(r, "local_accesses");
  v.tolerance = r.optionalNumber("tolerance");
  if (v.tolerance) checkTolerance(r, *v.tolerance);
  v.build_options = r.optionalString("build_options").value_or("");
  // Only standard OpenCL C options, so that a variant builds on every device: a vendor's own option
  // (-cl-nv-..., -cl-intel-...) fails the build elsewhere.
  for (std::size_t at = 0; (at = v.build_options.find("-D", at)) != std::string::npos; ++at)
    if (at == 0 || v.build_options[at - 1] == ' ')
      r.fail("build_options", "defines belong in `defines`, not in build_options");
  for (const char* vendor : {"-cl-nv-", "-cl-intel-", "-cl-amd-"})
    if (v.build_options.find(vendor) != std::string::npos)
      r.fail("build_options", std::string("vendor options (") + vendor + "...) would fail the build on other devices");
  return v;
}

}  // namespace

FamilyManifest loadFamilyManifest(const fs::path& path) {
  const std::string file = path.string();
  const toml::table root = parseTomlFile(file);
  TomlReader r(root, file);
  r.rejectUnknownKeys({"name", "description", "params", "work", "buffers", "check", "variants"});
  FamilyManifest family;
  family.path = fs::absolute(path).lexically_normal();
  family.name = r.requireString("name");
  if (!isIdentifier(family.name)) r.fail("name", "'" + family.name + "' is not a valid family name");
  const std::string folder = family.path.parent_path().filename().string();
  if (family.name != folder)
    r.fail("name", "'" + family.name + "' must equal the folder name '" + folder + "' (studies find families by folder)");
  family.description = r.optionalString("description").value_or("");

  if (const toml::table* params = r.optionalTable("params")) {
    TomlReader pr = r.sub(*params, "params");
    for (const auto& [key, node] : *params) {
      const std::string name(key.str());
      if (!isIdentifier(name)) pr.fail(name, "not a valid parameter name");
      if (!node.is_integer() && !node.is_floating_point()) pr.fail(name, "must be a number");
      family.params[name] = *node.value<double>();
      if (!std::isfinite(family.params[name])) pr.fail(name, "must be a finite number");
      family.param_order.push_back(name);
    }
  }

  const toml::table* work = r.optionalTable("work");
  if (!work) r.fail("work", "missing: [work] needs flops and bytes expressions");
  TomlReader wr = r.sub(*work, "work");
  wr.rejectUnknownKeys({"flops", "bytes", "type"});
  family.flops = expressionAt(wr, "flops", wr.requireExpression("flops"));
  family.bytes = expressionAt(wr, "bytes", wr.requireExpression("bytes"));
  if (const auto type = wr.optionalString("type")) {
    family.work_type = ElementType::parse(*type);
    if (!family.work_type) wr.fail("type", "unknown type '" + *type + "' of the work (float, double, int, uint, ...)");
  }

  std::set<std::string> names;
  for (const toml::table* t : tablesOf(r, "buffers")) {
    family.buffers.push_back(parseBuffer(r.sub(*t, "buffers[" + std::to_string(family.buffers.size()) + "]"), false));
    if (!names.insert(family.buffers.back().name).second)
      r.fail("buffers", "duplicate buffer name '" + family.buffers.back().name + "'");
    if (family.params.count(family.buffers.back().name))
      r.fail("buffers", "buffer '" + family.buffers.back().name + "' has the name of a parameter");
  }
  if (family.buffers.empty()) r.fail("buffers", "missing: a family needs at least one [[buffers]] entry");

  if (const toml::table* check = r.optionalTable("check")) {
    TomlReader cr = r.sub(*check, "check");
    cr.rejectUnknownKeys({"reference", "tolerance"});
    if (const std::optional<std::string> reference = cr.optionalString("reference")) {
      if (const std::optional<ReferenceSpec> parsed = ReferenceSpec::parse(*reference))
        family.reference = *parsed;
      else
        cr.fail("reference", "'" + *reference + "' must be variant:<name> or cpu:<name>");
    }
    family.tolerance = cr.optionalNumber("tolerance").value_or(family.tolerance);
    checkTolerance(cr, family.tolerance);
  }

  const fs::path dir = family.path.parent_path();
  names.clear();
  const auto variant_tables = tablesOf(r, "variants");
  if (variant_tables.empty()) r.fail("variants", "missing: a family needs at least one [[variants]] entry");
  for (std::size_t i = 0; i < variant_tables.size(); ++i) {
    family.variants.push_back(parseVariant(r.sub(*variant_tables[i], "variants[" + std::to_string(i) + "]"), family, dir));
    if (!names.insert(family.variants.back().name).second)
      r.fail("variants", "duplicate variant name '" + family.variants.back().name + "'");
  }

  const ReferenceSpec& ref = family.reference;
  if (ref.kind == ReferenceSpec::Kind::variant && !family.findVariant(ref.name))
    r.fail("check", "reference variant '" + ref.name + "' does not exist");
  if (ref.kind == ReferenceSpec::Kind::cpu && !ReferenceRegistry::builtin().find(ref.name))
    r.fail("check", "no C++ reference named '" + ref.name + "' is registered");
  bool has_output = false;
  for (const auto& b : family.buffers) has_output = has_output || b.isOutput();
  if (!has_output) r.fail("buffers", "no buffer has access write or read_write: nothing could be verified");

  checkWhatIfTargets(family);
  // Everything must evaluate with the defaults; sweeps are checked again per point.
  for (const auto& v : family.variants) validateForParams(family, v, family.params);
  return family;
}

FamilyDiscovery discoverFamilies(const std::vector<fs::path>& search_path) {
  FamilyDiscovery result;
  std::set<std::string> seen;
  for (const auto& dir : search_path) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      result.errors.push_back(dir.string() + ": kernel folder not found");
      continue;
    }
    // Every check with an error code: a symlink loop or an unreadable entry throws otherwise, and
    // one bad entry must not cost the others.
    std::vector<fs::path> manifests;
    fs::directory_iterator it(dir, ec), end;
    if (ec) result.warnings.push_back(dir.string() + ": kernel folder cannot be read (" + ec.message() + "); skipped");
    for (; !ec && it != end; it.increment(ec)) {
      const fs::path folder = it->path();
      std::error_code entry_ec;
      const bool is_folder = it->is_directory(entry_ec);
      if (entry_ec) {
        result.warnings.push_back(folder.string() + ": skipped (" + entry_ec.message() + ")");
        continue;
      }
      if (!is_folder) continue;
      const fs::path manifest = folder / "family.toml";
      const fs::file_status status = fs::status(manifest, entry_ec);
      if (fs::is_regular_file(status)) {
        manifests.push_back(manifest);
      } else if (entry_ec && entry_ec != std::errc::no_such_file_or_directory) {
        result.warnings.push_back(manifest.string() + ": skipped (" + entry_ec.message() + ")");
      }
    }
    if (ec) result.warnings.push_back(dir.string() + ": listing stopped early (" + ec.message() + ")");
    std::sort(manifests.begin(), manifests.end());
    for (const auto& m : manifests) {
      try {
        FamilyManifest family = loadFamilyManifest(m);
        if (!seen.insert(family.name).second) {
          if (dir == builtinKernelsDir()) continue;  // a user's family of that name hides the built-in one
          result.errors.push_back(m.string() + ": family '" + family.name + "' is already defined earlier in the kernel search path");
          continue;
        }
        result.families.push_back(std::move(family));
      } catch (const InputError& e) {
        result.errors.push_back(e.what());
        result.broken.emplace(m.parent_path().filename().string(), e.what());
      }
    }
  }
  return result;
}

}  // namespace rooflab
