#include "analyzer/stop_flag.hpp"

#include <csignal>

namespace rooflab {
namespace {
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the flag is written from a signal handler");
extern "C" void onStopSignal(int) { g_stop.store(true); }
}  // namespace

std::atomic<bool>& stopFlag() { return g_stop; }

void installStopSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}
}  // namespace rooflab
