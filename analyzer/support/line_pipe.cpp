#include "analyzer/support/line_pipe.hpp"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace rooflab {

LineReader::Result LineReader::next(std::string& line, int timeout_ms) {
  for (;;) {
    if (const auto end = buffer_.find('\n'); end != std::string::npos) {
      line.assign(buffer_, 0, end);
      buffer_.erase(0, end + 1);
      return Result::line;
    }
    pollfd waiting{fd_, POLLIN, 0};
    const int ready = ::poll(&waiting, 1, timeout_ms);
    if (ready < 0 && errno == EINTR) return Result::timeout;  // a signal: let the caller look at it
    if (ready == 0) return Result::timeout;
    char chunk[65536];
    const ssize_t got = ::read(fd_, chunk, sizeof chunk);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return Result::closed;
    buffer_.append(chunk, static_cast<std::size_t>(got));
  }
}

bool writeLine(int fd, const std::string& line) {
  const std::string text = line + "\n";
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace rooflab
