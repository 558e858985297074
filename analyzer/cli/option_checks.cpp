#include "analyzer/cli/option_checks.hpp"

#include <cctype>
#include <charconv>
#include <limits>

#include "analyzer/support/errors.hpp"

namespace rooflab {
namespace {

constexpr const char* kSelectors =
    "auto, gpu, cpu, P:D or pci:BUS (see `rooflab devices`), a part of a device's or platform's name";

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

std::string deviceOptionProblem(const std::string& selectors, bool several) {
  const std::string given = "--device '" + selectors + "': ";
  if (trimmed(selectors).empty())
    return given + "names no device: expected " + kSelectors + (several ? ", or all; several joined by commas" : "");
  if (!several) {
    if (selectors.find(',') != std::string::npos)
      return given + "this command runs on one device: give one selector (" + kSelectors + ")";
    std::string one = trimmed(selectors);
    for (char& c : one) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (one == "all")
      return given + "this command runs on one device, and all names every device: give one selector (" + kSelectors +
             ")";
    return "";
  }
  std::size_t start = 0;
  for (std::size_t element = 1;; ++element) {
    const std::size_t comma = selectors.find(',', start);
    if (trimmed(selectors.substr(start, comma == std::string::npos ? std::string::npos : comma - start)).empty())
      return given + "selector " + std::to_string(element) +
             " is empty: every selector between commas names a device (" + kSelectors + ", or all)";
    if (comma == std::string::npos) return "";
    start = comma + 1;
  }
}

std::uint64_t parseSeedOption(const std::string& text) {
  std::uint64_t seed = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size())
    throw InputError("--seed '" + text + "': expected a whole number from 0 to " +
                     std::to_string(std::numeric_limits<std::uint64_t>::max()));
  return seed;
}

}  // namespace rooflab
