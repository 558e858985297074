#include "analyzer/support/terminal_text.hpp"

#include <cstdio>

namespace rooflab {

std::string terminalText(const std::string& text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool line_break = byte == '\n' || byte == '\t';
    char escaped[8];
    if ((byte < 0x20 && !(keep_lines && line_break)) || byte == 0x7f) {
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else if (byte == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned char>(text[i + 1]));
      out += escaped;
      ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace rooflab
