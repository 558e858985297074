#pragma once
#include <string>

#include "analyzer/data/results_document.hpp"
#include "reports/chart/chart_scene.hpp"
#include "reports/chart/roofline_chart.hpp"

// A family's sizes in the HTML report: what its size rules chose on the device, and why.
namespace rooflab::reports {

// "" when no rule of the run sized the family.
std::string sizeChoicesHtml(const AnalysedResults& results, const std::string& family);

// The family's rate against its size (with the roofline's zoom and filter), and each variant's
// half-plateau size; "" unless a variant ran at three sizes or more.
std::string rateVsSizeHtml(const AnalysedResults& results, const std::string& family, const ChartStyle& style);

}  // namespace rooflab::reports
