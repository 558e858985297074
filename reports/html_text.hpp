#pragma once
#include <string>
#include <string_view>

namespace rooflab::reports {

// Text made safe for HTML/SVG element content and double- or single-quoted attribute values.
// Everything a results file holds (error messages, build logs, names) goes through this.
std::string escapeHtml(std::string_view text);

}  // namespace rooflab::reports
