#include "analyzer/config/toml_reader.hpp"

#include <fstream>
#include <sstream>

#include "analyzer/support/errors.hpp"
#include "analyzer/support/format.hpp"
#include "analyzer/support/input_errors.hpp"

namespace rooflab {

TomlReader::TomlReader(const toml::table& table, std::string file, std::string path)
    : table_(table), file_(std::move(file)), path_(std::move(path)) {}

SourceLocation TomlReader::where() const { return {file_, static_cast<int>(table_.source().begin.line)}; }

SourceLocation TomlReader::where(const std::string& key) const {
  if (const toml::node* node = table_.get(key)) return {file_, static_cast<int>(node->source().begin.line)};
  return where();
}

std::string TomlReader::error(const std::string& key, const std::string& message) const {
  return where(key).str() + ": " + (key.empty() ? path_ : keyPath(key)) + ": " + message;
}

void TomlReader::fail(const std::string& key, const std::string& message) const {
  throw InputError(error(key, message));
}

std::string TomlReader::requireString(const std::string& key) const {
  if (!has(key)) fail(key, "missing (a string is required)");
  auto value = optionalString(key);
  return *value;
}

std::optional<std::string> TomlReader::optionalString(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  if (auto s = node->value<std::string>()) return *s;
  fail(key, "must be a string");
}

std::string TomlReader::requireExpression(const std::string& key) const {
  if (!has(key)) fail(key, "missing (an expression is required)");
  return *optionalExpression(key);
}

std::optional<std::string> TomlReader::optionalExpression(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  if (auto text = nodeAsText(*node)) return text;
  fail(key, "must be an expression (a string such as \"N*N\" or a number)");
}

std::optional<double> TomlReader::optionalNumber(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  if (node->is_integer() || node->is_floating_point()) return node->value<double>();
  fail(key, "must be a number");
}

std::optional<std::int64_t> TomlReader::optionalInteger(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  if (auto v = node->value_exact<std::int64_t>()) return *v;
  fail(key, "must be an integer");
}

std::optional<bool> TomlReader::optionalBool(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  if (auto v = node->value_exact<bool>()) return *v;
  fail(key, "must be true or false");
}

std::optional<std::vector<std::string>> TomlReader::optionalTextArray(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return std::nullopt;
  const toml::array* array = node->as_array();
  if (!array) fail(key, "must be an array");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < array->size(); ++i) {
    auto text = nodeAsText(*array->get(i));
    if (!text) fail(key, "element " + std::to_string(i) + " must be a string or a number");
    out.push_back(*text);
  }
  return out;
}

const toml::table* TomlReader::optionalTable(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return nullptr;
  if (const toml::table* t = node->as_table()) return t;
  fail(key, "must be a table");
}

const toml::array* TomlReader::optionalArray(const std::string& key) const {
  const toml::node* node = table_.get(key);
  if (!node) return nullptr;
  if (const toml::array* a = node->as_array()) return a;
  fail(key, "must be an array");
}

TomlReader TomlReader::sub(const toml::table& table, const std::string& path) const {
  return TomlReader(table, file_, path);
}

void TomlReader::rejectUnknownKeys(std::initializer_list<const char*> allowed) const {
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  InputErrorList unknown;
  for (const auto& [key, node] : table_) {
    bool known = false;
    for (const char* a : allowed) known = known || key.str() == a;
    if (!known)
      unknown.add(SourceLocation{file_, static_cast<int>(node.source().begin.line)}.str() + ": " +
                  keyPath(std::string(key.str())) + ": unknown key (expected one of: " + list + ")");
  }
  unknown.throwIfAny();
}

namespace {
toml::table parseOrThrow(std::string_view text, const std::string& name) {
  try {
    return toml::parse(text, name);
  } catch (const toml::parse_error& e) {
    throw InputError(name + ":" + std::to_string(e.source().begin.line) +
                     ": TOML syntax error: " + std::string(e.description()));
  }
}
}  // namespace

toml::table parseTomlFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot be read");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parseOrThrow(buffer.str(), path);
}

toml::table parseTomlText(std::string_view text, const std::string& name) { return parseOrThrow(text, name); }

std::optional<std::string> nodeAsText(const toml::node& node) {
  if (auto s = node.value_exact<std::string>()) return *s;
  if (auto i = node.value_exact<std::int64_t>()) return std::to_string(*i);
  if (auto d = node.value_exact<double>()) return formatNumber(*d);
  return std::nullopt;
}

}  // namespace rooflab
