#pragma once
#include <optional>
#include <string>
#include <string_view>

// Building blocks of the HTML report.
namespace rooflab::reports {

// Text made safe for HTML/SVG element content and double- or single-quoted attribute values.
// Everything a results file holds (error messages, build logs, names) goes through this.
std::string escapeHtml(std::string_view text);

// Table cells. `html_content` is put in as it is; `text` is escaped.
std::string td(const std::string& html_content, std::string_view css_class = "");
std::string tdText(std::string_view text, std::string_view css_class = "");
// A right-aligned number, or a muted dash when it is not known.
std::string tdNumber(const std::optional<double>& value, std::string (*format)(double));
std::string th(std::string_view text);

// `text` with everything but letters, digits and '-' turned into '-': a CSS class name.
std::string cssToken(std::string_view text);

}  // namespace rooflab::reports
