#pragma once
// The device's roofs for a run ([run] ceilings): measured at its start, or its datasheet model.
#include <ostream>
#include <vector>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/ceilings_report.hpp"
#include "analyzer/device/device.hpp"
#include "analyzer/roofline/roofline_models.hpp"

namespace rooflab {

// Throws InputError when the reference model does not exist. `typed_peaks`: the compute roofs
// beside FP32 that the studied families' work needs (their [work] type), measured with the others;
// `warp_issue_rate`: the issue rate too (the instruction roofline's roof, for records with counters);
// `link_and_launch`: the host link and the launch too (a study asks for end-to-end runs).
// `words.table` writes the table of the ceilings measured to `log` (empty, nothing is written), and
// `words.roof_source` each measured roof's source note in the device model.
RooflineModels prepareRooflineModels(const RunSettings& settings, const SelectedDevice& device, std::ostream& log,
                                     const CeilingsWords& words, const std::vector<Arithmetic>& typed_peaks = {},
                                     bool warp_issue_rate = false, bool link_and_launch = false);
}  // namespace rooflab
