#pragma once
// Lines over a pipe between the batch and its worker process: a reader that waits with a timeout
// (so that the batch can kill a worker that stays silent, or answer a signal) and a writer that
// writes whole lines.
#include <string>

namespace rooflab {

class LineReader {
 public:
  explicit LineReader(int fd) : fd_(fd) {}
  enum class Result { line, timeout, closed };
  // Waits up to `timeout_ms` (-1: for ever) for the next line (without its '\n').
  Result next(std::string& line, int timeout_ms);

 private:
  int fd_;
  std::string buffer_;
};

// Writes `line` and a '\n'; false when the other end is gone (EPIPE) or the write failed.
bool writeLine(int fd, const std::string& line);

}  // namespace rooflab
