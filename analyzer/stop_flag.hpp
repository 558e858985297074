#pragma once
#include <atomic>

namespace rooflab {
// Set by SIGINT/SIGTERM (installStopSignalHandlers): long loops finish the current repetition,
// keep what they measured and return, so results survive an interrupt.
std::atomic<bool>& stopFlag();
void installStopSignalHandlers();
}  // namespace rooflab
