#include "analyzer/capture/replay_values.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <utility>

namespace rooflab {
namespace {

// The scalar types a manifest argument can name: the OpenCL spellings, their prefix, their size.
struct ScalarType {
  const char* name;
  const char* prefix;  // "" for int, the manifest's default
  std::uint64_t bytes;
};
constexpr ScalarType kScalarTypes[] = {
    {"int", "", 4},         {"uint", "uint:", 4},           {"unsigned int", "uint:", 4}, {"long", "long:", 8},
    {"ulong", "ulong:", 8}, {"unsigned long", "ulong:", 8}, {"float", "float:", 4},       {"double", "double:", 8},
};

// The decimal with the fewest of `digits_from`..17 significant digits that reads back to `value`.
template <class Real>
std::string exactDecimal(Real value, int digits_from) {
  char text[40];
  for (int digits = digits_from; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(value));
    const Real back = static_cast<Real>(std::strtod(text, nullptr));
    if (std::memcmp(&back, &value, sizeof value) == 0) break;
  }
  return text;
}

constexpr double kExactInDouble = 9007199254740992.0;  // 2^53: integers beyond it round in muParser

}  // namespace

std::optional<std::string> manifestScalar(const CapturedArgument& argument, std::string& why) {
  const ScalarType* type = nullptr;
  for (const ScalarType& t : kScalarTypes) type = argument.type_name == t.name ? &t : type;
  if (argument.type_name.empty()) return why = "its type is unknown (the build gave no argument info)", std::nullopt;
  if (type == nullptr) return why = "a manifest has no scalar type " + argument.type_name, std::nullopt;
  if (argument.value.size() != type->bytes)
    return why =
               "its value has " + std::to_string(argument.value.size()) + " bytes, not " + std::to_string(type->bytes),
           std::nullopt;
  const std::string prefix = type->prefix;
  const void* bytes = argument.value.data();
  if (prefix == "float:" || prefix == "double:") {
    double real;
    float single;
    if (prefix == "float:") std::memcpy(&single, bytes, 4), real = single;
    else std::memcpy(&real, bytes, 8);
    if (!std::isfinite(real)) return why = "its value is NaN or infinite", std::nullopt;
    return prefix + (prefix == "float:" ? exactDecimal(single, 9) : exactDecimal(real, 17));
  }
  if (type->bytes == 4) {
    std::int32_t i;
    std::uint32_t u;
    std::memcpy(&i, bytes, 4);
    std::memcpy(&u, bytes, 4);
    return prefix + (prefix == "uint:" ? std::to_string(u) : std::to_string(i));
  }
  std::int64_t i;
  std::uint64_t u;
  std::memcpy(&i, bytes, 8);
  std::memcpy(&u, bytes, 8);
  const double magnitude = prefix == "ulong:" ? static_cast<double>(u) : std::fabs(static_cast<double>(i));
  if (magnitude > kExactInDouble)
    return why = "its value is beyond 2^53, which a manifest expression rounds", std::nullopt;
  return prefix + (prefix == "ulong:" ? std::to_string(u) : std::to_string(i));
}

BufferElement bufferElement(const std::string& type_name) {
  std::string base = type_name;
  while (!base.empty() && (base.back() == '*' || base.back() == ' ')) base.pop_back();
  for (const char* qualifier : {"const ", "volatile ", "restrict "})
    while (base.rfind(qualifier, 0) == 0) base.erase(0, std::strlen(qualifier));
  std::uint64_t lanes = 1;
  std::string scalar = base;
  const std::pair<const char*, std::uint64_t> widths[] = {{"16", 16}, {"8", 8}, {"4", 4}, {"2", 2}};
  for (const auto& [digits, width] : widths) {
    const std::string suffix = digits;
    if (base.size() > suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        std::isalpha(static_cast<unsigned char>(base[base.size() - suffix.size() - 1]))) {
      scalar = base.substr(0, base.size() - suffix.size());
      lanes = width;
      break;
    }
  }
  const std::pair<const char*, std::uint64_t> sizes[] = {{"char", 1},  {"uchar", 1}, {"short", 2}, {"ushort", 2},
                                                         {"int", 4},   {"uint", 4},  {"long", 8},  {"ulong", 8},
                                                         {"float", 4}, {"double", 8}};
  for (const auto& [name, bytes] : sizes)
    if (scalar == name) return {base, bytes * lanes};
  return {};
}

ManifestBuildOptions manifestBuildOptions(const std::string& captured) {
  std::vector<std::string> words;
  std::istringstream in(captured);
  for (std::string word; in >> word;) words.push_back(word);
  ManifestBuildOptions out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string define;
    if (words[i] == "-D" && i + 1 < words.size()) {
      define = words[++i];
    } else if (words[i].rfind("-D", 0) == 0 && words[i].size() > 2) {
      define = words[i].substr(2);
    } else {
      out.options += (out.options.empty() ? "" : " ") + words[i];
      continue;
    }
    const std::size_t equals = define.find('=');
    if (equals == std::string::npos) out.defines.emplace_back(define, "raw:1");
    else out.defines.emplace_back(define.substr(0, equals), "raw:" + define.substr(equals + 1));
  }
  return out;
}

std::string tomlQuoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string identifierFrom(const std::string& text, const std::string& fallback) {
  std::string out;
  for (const char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty()) return fallback;
  if (std::isdigit(static_cast<unsigned char>(out[0]))) out = fallback + "_" + out;
  return out;
}

}  // namespace rooflab
