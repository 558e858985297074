#include "reports/html/html_text.hpp"

#include <cctype>

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

std::string td(const std::string& html_content, std::string_view css_class) {
  return css_class.empty() ? "<td>" + html_content + "</td>"
                           : "<td class=\"" + std::string(css_class) + "\">" + html_content + "</td>";
}

std::string tdText(std::string_view text, std::string_view css_class) { return td(escapeHtml(text), css_class); }

std::string tdNumber(const std::optional<double>& value, std::string (*format)(double)) {
  return td(value ? escapeHtml(format(*value)) : "<span class=\"muted\">–</span>", "num");
}

std::string th(std::string_view text) { return "<th>" + escapeHtml(text) + "</th>"; }

std::string cssToken(std::string_view text) {
  std::string token;
  for (char c : text) token += (std::isalnum(static_cast<unsigned char>(c)) || c == '-') ? c : '-';
  return token;
}

}  // namespace rooflab::reports
