#pragma once
#include <atomic>

namespace rooflab {
// Set by SIGINT/SIGTERM (installStopSignalHandlers): long loops finish the current repetition,
// keep what they measured and return, so results survive an interrupt.
std::atomic<bool>& stopFlag();
// How urgently the user asked to stop: 0 not at all; 1 after the current point (a first Ctrl-C);
// 2 or more now (a second Ctrl-C, or SIGTERM), killing the worker that runs the current point.
int stopRequests();
void installStopSignalHandlers();
}  // namespace rooflab
