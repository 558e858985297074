// A family manifest read (docs/manifest.md): the family's own keys, its variants (manifest_variant.cpp), the
// checks that need them all, every error kept; and the families found on the kernel search path.
#include "analyzer/manifest/manifest.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "analyzer/config/config.hpp"
#include "analyzer/config/toml_reader.hpp"
#include "analyzer/support/errors.hpp"
#include "analyzer/support/input_errors.hpp"
#include "analyzer/manifest/manifest_fields.hpp"
#include "analyzer/manifest/manifest_what_if.hpp"
#include "analyzer/verify/references.hpp"
#include "analyzer/manifest/resolve_point.hpp"

namespace fs = std::filesystem;

namespace rooflab {

namespace {

// [params]: each must be a finite number; one in error stands in as 1, so that the expressions that
// name it are still checked.
void parseParams(const TomlReader& r, FamilyManifest& family, InputErrorList& errors) {
  const toml::table* params = nullptr;
  errors.attempt([&] { params = r.optionalTable("params"); });
  if (params == nullptr) return;
  const TomlReader pr = r.sub(*params, "params");
  for (const auto& [key, value] : *params) {
    const std::string name(key.str());
    // A reference of its own: a lambda may not capture a structured binding before C++20.
    const toml::node& node = value;
    if (!isIdentifier(name)) {
      errors.add(pr.error(name, "not a valid parameter name"));
      continue;
    }
    family.params[name] = 1;
    family.param_order.push_back(name);
    errors.attempt([&] {
      if (!node.is_integer() && !node.is_floating_point()) pr.fail(name, "must be a number");
      const double value = *node.value<double>();
      if (!std::isfinite(value)) pr.fail(name, "must be a finite number");
      family.params[name] = value;
    });
  }
}

// [work]: flops and bytes expressions, and the type of the work; an expression in error stands in as 0.
void parseWork(const TomlReader& r, FamilyManifest& family, InputErrorList& errors) {
  family.flops = expressionAt(r, "work", "0");
  family.bytes = expressionAt(r, "work", "0");
  const toml::table* work = nullptr;
  errors.attempt([&] {
    work = r.optionalTable("work");
    if (!work) r.fail("work", "missing: [work] needs flops and bytes expressions");
  });
  if (work == nullptr) return;
  TomlReader wr = r.sub(*work, "work");
  errors.attempt([&] { wr.rejectUnknownKeys({"flops", "bytes", "type"}); });
  // "unmeasured" stands in as 0, flagged, so that every expression still evaluates.
  errors.attempt([&] {
    const std::string flops = wr.requireExpression("flops");
    family.flops_unmeasured = flops == kUnmeasuredWork;
    family.flops = expressionAt(wr, "flops", family.flops_unmeasured ? "0" : flops);
  });
  errors.attempt([&] {
    const std::string bytes = wr.requireExpression("bytes");
    family.bytes_unmeasured = bytes == kUnmeasuredWork;
    family.bytes = expressionAt(wr, "bytes", family.bytes_unmeasured ? "0" : bytes);
  });
  errors.attempt([&] {
    if (const auto type = wr.optionalString("type")) {
      family.work_type = ElementType::parse(*type);
      if (!family.work_type)
        wr.fail("type", "unknown type '" + *type + "' of the work (float, double, int, uint, ...)");
    }
  });
}

void parseBuffers(const TomlReader& r, FamilyManifest& family, InputErrorList& errors) {
  std::vector<const toml::table*> tables;
  if (!errors.attempt([&] { tables = tablesOf(r, "buffers"); })) return;
  std::set<std::string> names;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    BufferSpec buffer = parseBuffer(r.sub(*tables[i], "buffers[" + std::to_string(i) + "]"), false, errors);
    if (buffer.name.empty()) continue;  // its error is kept; nothing can name it
    if (!names.insert(buffer.name).second)
      errors.add(r.error("buffers", "duplicate buffer name '" + buffer.name + "'"));
    else if (family.params.count(buffer.name))
      errors.add(r.error("buffers", "buffer '" + buffer.name + "' has the name of a parameter"));
    else family.buffers.push_back(std::move(buffer));
  }
  if (tables.empty()) errors.add(r.error("buffers", "missing: a family needs at least one [[buffers]] entry"));
}

void parseCheck(const TomlReader& r, FamilyManifest& family, InputErrorList& errors) {
  const toml::table* check = nullptr;
  errors.attempt([&] { check = r.optionalTable("check"); });
  if (check == nullptr) return;
  TomlReader cr = r.sub(*check, "check");
  errors.attempt([&] { cr.rejectUnknownKeys({"reference", "tolerance"}); });
  errors.attempt([&] {
    const std::optional<std::string> reference = cr.optionalString("reference");
    if (!reference) return;
    const std::optional<ReferenceSpec> parsed = ReferenceSpec::parse(*reference);
    if (!parsed) cr.fail("reference", "'" + *reference + "' must be variant:<name>, cpu:<name> or outputs");
    family.reference = *parsed;
  });
  errors.attempt([&] {
    const double tolerance = cr.optionalNumber("tolerance").value_or(family.tolerance);
    checkTolerance(cr, tolerance);
    family.tolerance = tolerance;
  });
}

// [end_to_end]: the parameter the family is element-wise over, so that its data can be split in chunks.
void parseEndToEnd(const TomlReader& r, FamilyManifest& family, InputErrorList& errors) {
  const toml::table* table = nullptr;
  errors.attempt([&] { table = r.optionalTable("end_to_end"); });
  if (table == nullptr) return;
  const TomlReader er = r.sub(*table, "end_to_end");
  errors.attempt([&] { er.rejectUnknownKeys({"split", "granule"}); });
  errors.attempt([&] {
    const std::string param = er.requireString("split");
    if (!family.params.count(param))
      er.fail("split", "'" + param + "' is not a parameter of the family (declare it in [params])");
    EndToEndSplit split{param, expressionAt(er, "granule", er.optionalExpression("granule").value_or("1")),
                        er.where("split")};
    const std::int64_t granule = split.granule.count(family.params);
    if (granule < 1) er.fail("granule", "must be at least 1");
    family.split = std::move(split);
  });
}

void parseVariants(const TomlReader& r, FamilyManifest& family, InputErrorList& errors) {
  const fs::path dir = family.path.parent_path();
  std::vector<const toml::table*> tables;
  if (!errors.attempt([&] { tables = tablesOf(r, "variants"); })) return;
  if (tables.empty()) errors.add(r.error("variants", "missing: a family needs at least one [[variants]] entry"));
  std::set<std::string> names;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    VariantSpec variant = parseVariant(r.sub(*tables[i], "variants[" + std::to_string(i) + "]"), family, dir, errors);
    if (!variant.name.empty() && !names.insert(variant.name).second)
      errors.add(r.error("variants", "duplicate variant name '" + variant.name + "'"));
    family.variants.push_back(std::move(variant));
  }
}

// reference = "outputs" and the buffers' `expect` files come together: one without the other is a
// family verified against nothing, or files that nothing reads.
void checkExpectedOutputs(const TomlReader& r, const FamilyManifest& family, InputErrorList& errors) {
  const bool outputs = family.reference.kind == ReferenceSpec::Kind::outputs;
  bool any_expect = false;
  for (const BufferSpec& b : family.buffers) {
    if (!b.expect_file) continue;
    any_expect = true;
    if (!outputs)
      errors.add(b.expect_file->where.str() + ": " + b.expect_file->key + ": buffer '" + b.name +
                 "' has an expected output, but [check] reference is not \"outputs\" (write reference = \"outputs\" to "
                 "verify against it)");
  }
  const toml::table* check = outputs ? r.table()["check"].as_table() : nullptr;
  if (outputs && !any_expect && check)
    errors.add(r.sub(*check, "check")
                   .error("reference", "reference = \"outputs\" but no [[buffers]] entry has expect = \"file:<path>\": "
                                       "nothing would be verified"));
}

void checkReference(const TomlReader& r, const FamilyManifest& family) {
  const ReferenceSpec& ref = family.reference;
  if (ref.kind == ReferenceSpec::Kind::variant && !family.findVariant(ref.name))
    r.fail("check", "reference variant '" + ref.name + "' does not exist");
  if (ref.kind == ReferenceSpec::Kind::cpu && !ReferenceRegistry::builtin().find(ref.name))
    r.fail("check", "no C++ reference named '" + ref.name + "' is registered");
}

}  // namespace

FamilyManifest loadFamilyManifest(const fs::path& path) {
  const std::string file = path.string();
  const toml::table root = parseTomlFile(file);  // a syntax error stops the reading: nothing after it is known
  TomlReader r(root, file);
  InputErrorList errors;
  errors.attempt([&] {
    r.rejectUnknownKeys({"name", "description", "params", "work", "buffers", "check", "variants", "end_to_end"});
  });
  FamilyManifest family;
  family.path = fs::absolute(path).lexically_normal();
  errors.attempt([&] {
    family.name = r.requireString("name");
    if (!isIdentifier(family.name)) r.fail("name", "'" + family.name + "' is not a valid family name");
    const std::string folder = family.path.parent_path().filename().string();
    if (family.name != folder)
      r.fail("name",
             "'" + family.name + "' must equal the folder name '" + folder + "' (studies find families by folder)");
  });
  errors.attempt([&] { family.description = r.optionalString("description").value_or(""); });
  parseParams(r, family, errors);
  parseWork(r, family, errors);
  parseBuffers(r, family, errors);
  parseCheck(r, family, errors);
  parseEndToEnd(r, family, errors);
  parseVariants(r, family, errors);
  errors.attempt([&] { checkReference(r, family); });
  checkExpectedOutputs(r, family, errors);
  bool has_output = false;
  for (const auto& b : family.buffers) has_output = has_output || b.isOutput();
  if (!family.buffers.empty() && !has_output)
    errors.add(r.error("buffers", "no buffer has access write or read_write: nothing could be verified"));
  errors.attempt([&] { checkWhatIfTargets(family); });
  // Everything must evaluate with the defaults; sweeps are checked again per point. An expression of
  // the family in error is one error, however many variants evaluate it.
  for (const auto& v : family.variants) errors.attempt([&] { validateForParams(family, v, family.params); });
  errors.throwIfAny();
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
          result.errors.push_back(m.string() + ": family '" + family.name +
                                  "' is already defined earlier in the kernel search path");
          continue;
        }
        result.families.push_back(std::move(family));
      } catch (const InputError& e) {
        const auto* several = dynamic_cast<const InputErrors*>(&e);
        const std::vector<std::string> messages = several ? several->messages() : std::vector<std::string>{e.what()};
        result.errors.insert(result.errors.end(), messages.begin(), messages.end());
        result.broken.emplace(m.parent_path().filename().string(), messages);
      }
    }
  }
  return result;
}

}  // namespace rooflab
