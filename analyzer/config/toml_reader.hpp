#pragma once
// Typed access to toml++ tables that turns every missing, mistyped or unknown key into an
// InputError naming the file, the key path and the line.
#include <toml++/toml.h>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/support/source_location.hpp"

namespace rooflab {

class TomlReader {
 public:
  // `table` must outlive the reader; `path` is the key path shown in errors ("variants[2]").
  TomlReader(const toml::table& table, std::string file, std::string path = "");

  const toml::table& table() const { return table_; }
  const std::string& file() const { return file_; }
  std::string keyPath(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  SourceLocation where() const;
  SourceLocation where(const std::string& key) const;
  bool has(const std::string& key) const { return table_.contains(key); }

  // "<file>:<line>: <key path>: <message>", the line of `key` (of the table when it is absent).
  std::string error(const std::string& key, const std::string& message) const;
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;

  std::string requireString(const std::string& key) const;
  std::optional<std::string> optionalString(const std::string& key) const;
  // An expression may be written as a string ("N*N") or as a plain number (1024).
  std::string requireExpression(const std::string& key) const;
  std::optional<std::string> optionalExpression(const std::string& key) const;
  std::optional<double> optionalNumber(const std::string& key) const;
  std::optional<std::int64_t> optionalInteger(const std::string& key) const;
  std::optional<bool> optionalBool(const std::string& key) const;
  // An array of strings or numbers, each turned into text (expressions, names).
  std::optional<std::vector<std::string>> optionalTextArray(const std::string& key) const;
  const toml::table* optionalTable(const std::string& key) const;
  const toml::array* optionalArray(const std::string& key) const;
  TomlReader sub(const toml::table& table, const std::string& path) const;

  // Unknown keys are errors: a typo must not silently fall back to a default. Each unknown key is
  // one error (InputErrors when there are several).
  void rejectUnknownKeys(std::initializer_list<const char*> allowed) const;

 private:
  const toml::table& table_;
  std::string file_;
  std::string path_;
};

// Parses a TOML file (or text), turning syntax errors into InputError with file and line.
toml::table parseTomlFile(const std::string& path);
toml::table parseTomlText(std::string_view text, const std::string& name);

// A node as expression text: strings as written, integers and floats printed exactly.
std::optional<std::string> nodeAsText(const toml::node& node);

}  // namespace rooflab
