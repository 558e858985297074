#pragma once
// The report page's style sheet, inlined in its <head> so that the page is one file.
#include <string_view>

namespace rooflab::reports {

std::string_view reportStyleSheet();

}  // namespace rooflab::reports
