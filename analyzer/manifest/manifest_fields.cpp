#include "analyzer/manifest/manifest_fields.hpp"

#include <cmath>
#include <regex>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

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

}  // namespace

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

void checkTolerance(const TomlReader& r, double tolerance) {
  if (!std::isfinite(tolerance)) r.fail("tolerance", "must be a finite number (got " + formatNumber(tolerance) + ")");
  if (tolerance < 0) r.fail("tolerance", "must not be negative");
}

BufferSpec parseBuffer(const TomlReader& r, bool scratch, InputErrorList& errors) {
  errors.attempt([&] {
    if (scratch)
      r.rejectUnknownKeys({"name", "type", "count", "init"});
    else
      r.rejectUnknownKeys({"name", "type", "count", "init", "access", "link"});
  });
  BufferSpec b;
  errors.attempt([&] {
    const std::string name = r.requireString("name");
    if (!isIdentifier(name)) r.fail("name", "'" + name + "' is not a valid buffer name");
    b.name = name;
  });
  errors.attempt([&] {
    const std::string type = r.requireString("type");
    auto parsed = ElementType::parse(type);
    if (!parsed)
      r.fail("type", "unknown element type '" + type +
                         "' (float, double, int, uint, long, ulong, char, uchar, short, ushort, with optional 2/3/4/8/16)");
    b.type = *parsed;
  });
  // A count in error stands in as 1, so that the rest of the manifest is still checked.
  b.count = expressionAt(r, "count", "1");
  errors.attempt([&] { b.count = expressionAt(r, "count", r.requireExpression("count")); });
  errors.attempt([&] { b.init = parseInit(r); });
  b.access = scratch ? BufferAccess::read_write : BufferAccess::read;
  if (!scratch) errors.attempt([&] { b.access = parseAccess(r); });
  if (!scratch)
    errors.attempt([&] {
      const std::optional<std::string> link = r.optionalString("link");
      if (!link) return;
      b.link = parseBufferLink(*link);
      if (!b.link) r.fail("link", "unknown link '" + *link + "' (expected up, down, both or none)");
    });
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

}  // namespace rooflab
