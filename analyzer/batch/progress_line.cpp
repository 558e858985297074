#include "analyzer/batch/progress_line.hpp"

#include <unistd.h>

#include <cstdio>
#include "analyzer/support/terminal_text.hpp"

namespace rooflab {

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled), tty_(enabled && ::isatty(STDERR_FILENO)) {}

void ProgressLine::show(const std::string& text) {
  if (!enabled_) return;
  if (tty_) {
    std::fprintf(stderr, "\r\033[K%s", terminalText(text).c_str());
  } else if (text != last_) {
    std::fprintf(stderr, "%s\n", terminalText(text).c_str());
  }
  last_ = text;
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (enabled_ && tty_ && !last_.empty()) std::fprintf(stderr, "\n");
}

}  // namespace rooflab
