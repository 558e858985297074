#include "analyzer/counters/cupti_choice.hpp"

namespace rooflab::counters {
namespace {

std::string& chosen() {
  static std::string path;
  return path;
}

}  // namespace

void chooseCuptiLibrary(const std::string& path) { chosen() = path; }

const std::string& chosenCuptiLibrary() { return chosen(); }

}  // namespace rooflab::counters
