#pragma once
#include <atomic>
#include <stdexcept>
#include <string>

namespace rooflab {
// Set by SIGINT/SIGTERM (installStopSignalHandlers): long loops finish the current repetition,
// keep what they measured and return, so results survive an interrupt.
std::atomic<bool>& stopFlag();
// How urgently the user asked to stop: 0 not at all; 1 after the current point (a first Ctrl-C);
// 2 or more now (a second Ctrl-C, or SIGTERM), killing the worker that runs the current point.
int stopRequests();
void installStopSignalHandlers();

// A stop asked for while a command prepares (plans a batch, checks a tuning space), before anything
// is measured: there is nothing to keep, so the loop throws this and the command ends at once, exit
// 130. what() says what was being done.
class StopRequested : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Throws StopRequested ("interrupted while <doing>") when a stop was asked for.
void throwIfStopRequested(const std::string& doing);
}  // namespace rooflab
