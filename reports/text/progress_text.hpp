#pragma once
// The numbers the batch says while it runs, in words: its estimate, before it starts and on the
// progress line. The batch gets them from the command line, as analyzer/ writes no sentence.
#include <string>

namespace rooflab::reports {

// "about 40 s", "about 3.5 min", "about 2.1 h".
std::string estimateText(double seconds);

}  // namespace rooflab::reports
