#pragma once
// Which libcupti the user named: the command line settles --cupti-library, [run] cupti_library and
// ROOFLAB_CUPTI_LIBRARY into the run's settings, and each process that may read counters (rooflab and
// its point workers) hands the result here before the counters first load libcupti
// (cupti_library.hpp), which then tries it before its own search.
#include <string>

namespace rooflab::counters {

// "" leaves the search alone. Loading happens once per process: a choice made after it changes nothing.
void chooseCuptiLibrary(const std::string& path);
const std::string& chosenCuptiLibrary();

}  // namespace rooflab::counters
