#include "analyzer/manifest/manifest_fields.hpp"

#include <cmath>
#include <regex>
#include <system_error>

#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

constexpr std::string_view kFilePrefix = "file:";

// `file:<path>` at `key`, relative to the manifest's folder; the file must exist (its size is checked
// per point, against the buffer's count there).
BufferFile parseBufferFile(const TomlReader& r, const std::string& key, const std::string& written) {
  const std::string name = written.substr(kFilePrefix.size());
  if (name.empty()) r.fail(key, "'" + written + "' names no file (file:<path relative to the family.toml's folder>)");
  const std::filesystem::path folder = std::filesystem::path(r.file()).parent_path();
  BufferFile file{std::filesystem::absolute(folder / name).lexically_normal(), written, r.keyPath(key), r.where(key)};
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file.path, ec))
    r.fail(key, "file '" + file.path.string() + "' not found" +
                    (ec && ec != std::errc::no_such_file_or_directory ? " (" + ec.message() + ")" : ""));
  return file;
}

BufferInit parseInit(const TomlReader& r, BufferSpec& b) {
  const std::string init = r.optionalString("init").value_or("random");
  if (init.rfind(kFilePrefix, 0) == 0) {
    b.init_file = parseBufferFile(r, "init", init);
    return BufferInit::file;
  }
  if (init == "random") return BufferInit::random;
  if (init == "random_positive") return BufferInit::random_positive;
  if (init == "iota") return BufferInit::iota;
  if (init == "ones") return BufferInit::ones;
  if (init == "zero") return BufferInit::zero;
  r.fail("init", "unknown init '" + init + "' (expected random, random_positive, iota, ones, zero or file:<path>)");
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
    if (scratch) r.rejectUnknownKeys({"name", "type", "count", "init"});
    else r.rejectUnknownKeys({"name", "type", "count", "init", "access", "link", "expect"});
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
      r.fail("type",
             "unknown element type '" + type +
                 "' (float, double, int, uint, long, ulong, char, uchar, short, ushort, with optional 2/3/4/8/16)");
    b.type = *parsed;
  });
  // A count in error stands in as 1, so that the rest of the manifest is still checked.
  b.count = expressionAt(r, "count", "1");
  errors.attempt([&] { b.count = expressionAt(r, "count", r.requireExpression("count")); });
  errors.attempt([&] { b.init = parseInit(r, b); });
  b.access = scratch ? BufferAccess::read_write : BufferAccess::read;
  if (!scratch) errors.attempt([&] { b.access = parseAccess(r); });
  // A write buffer is poisoned before each run: contents from a file would never reach the kernel.
  if (b.init_file && b.access == BufferAccess::write)
    errors.add(r.error("init", "buffer '" + b.name + "' has access write, which is poisoned before each run, so '" +
                                   b.init_file->written + "' would never reach the kernel (use access read_write)"));
  if (!scratch)
    errors.attempt([&] {
      const std::optional<std::string> expect = r.optionalString("expect");
      if (!expect) return;
      if (expect->rfind(kFilePrefix, 0) != 0) r.fail("expect", "'" + *expect + "' must be file:<path>");
      if (b.access == BufferAccess::read)
        r.fail("expect",
               "buffer '" + b.name + "' has access read: the kernels do not write it, so it cannot be verified");
      b.expect_file = parseBufferFile(r, "expect", *expect);
    });
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
