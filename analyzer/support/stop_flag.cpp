#include "analyzer/support/stop_flag.hpp"

#include <csignal>

namespace rooflab {
namespace {
std::atomic<bool> g_stop{false};
std::atomic<int> g_requests{0};
static_assert(std::atomic<bool>::is_always_lock_free, "the flag is written from a signal handler");
static_assert(std::atomic<int>::is_always_lock_free, "the count is written from a signal handler");
extern "C" void onStopSignal(int signal_number) {
  g_stop.store(true);
  g_requests.fetch_add(signal_number == SIGTERM ? 2 : 1);
}
}  // namespace

std::atomic<bool>& stopFlag() { return g_stop; }
int stopRequests() { return g_requests.load(); }

void throwIfStopRequested(const std::string& doing) {
  if (g_requests.load() > 0) throw StopRequested("interrupted while " + doing + ": nothing was measured");
}

void installStopSignalHandlers() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}
}  // namespace rooflab
