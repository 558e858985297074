#pragma once
#include <string>

#include "analyzer/data/results_document.hpp"

// The sections of the HTML report about the run as a whole, after the families.
namespace rooflab::reports {

std::string deviceSectionHtml(const AnalysedResults& results);  // the device that ran, field by field
std::string modelsSectionHtml(const AnalysedResults& results);  // the roofline models, their roofs and sources
// The benchmarks `rooflab ceilings` ran at the start of the batch, where the device model's numbers
// come from; "" when none ran.
std::string measuredCeilingsHtml(const AnalysedResults& results);
std::string configSectionHtml(const AnalysedResults& results);  // the config as run

}  // namespace rooflab::reports
