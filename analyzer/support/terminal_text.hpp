#pragma once
// Text bound for a terminal, made harmless: names and messages come from manifests, configs and
// results files, and an escape sequence in one (ESC [ 2 J, a title change) must show as text, not act.
#include <string>

namespace rooflab {

// `text` with every control character written out: ESC as \x1b, a C1 control (U+0080 to U+009F) as
// \u0085, a backslash left as it is. Newlines and tabs stay when `keep_lines` (a message of several
// lines); else they are escaped too (one table cell, one progress line).
std::string terminalText(const std::string& text, bool keep_lines = false);

}  // namespace rooflab
