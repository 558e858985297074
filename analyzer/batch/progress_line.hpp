#pragma once
#include <string>

namespace rooflab {

// The batch's progress on stderr: one line rewritten in place on a terminal, else a line for each
// change of text (so that logs stay readable).
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled);
  void show(const std::string& text);
  // Ends the rewritten line, so that what is printed next starts on a line of its own.
  void finish();
  bool tty() const { return tty_; }

 private:
  bool enabled_;
  bool tty_;
  std::string last_;
};

}  // namespace rooflab
