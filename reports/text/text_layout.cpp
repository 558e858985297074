#include "reports/text/text_layout.hpp"

#include <cctype>

namespace rooflab::reports {

std::size_t screenColumns(const std::string& text) {
  std::size_t columns = 0;
  for (unsigned char byte : text) columns += (byte & 0xC0) != 0x80;  // a UTF-8 continuation byte adds none
  return columns;
}

std::string padded(const std::string& text, std::size_t width, bool right) {
  const std::size_t shown = screenColumns(text);
  const std::string padding(width > shown ? width - shown : 0, ' ');
  return right ? padding + text : text + padding;
}

std::string plural(std::uint64_t count, const std::string& one, const std::string& many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string fileSafe(const std::string& text) {
  std::string out = text;
  for (char& c : out)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return out;
}

}  // namespace rooflab::reports
