#pragma once
#include <string>

namespace rooflab {

// Where a config or manifest value was written, for errors that point at it.
struct SourceLocation {
  std::string file;
  int line = 0;
  std::string str() const { return line > 0 ? file + ":" + std::to_string(line) : file; }
};

}  // namespace rooflab
