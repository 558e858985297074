#include "reports/html_text.hpp"

namespace rooflab::reports {

std::string escapeHtml(std::string_view text) {
  std::string escaped;
  escaped.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&#39;"; break;
      case '\0': break;  // not allowed in HTML text; a NUL from a build log is dropped
      default: escaped += c;
    }
  }
  return escaped;
}

}  // namespace rooflab::reports
