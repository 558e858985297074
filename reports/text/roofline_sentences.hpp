#pragma once
// A roofline placement's findings as the sentences reports show: why its fields are null or what
// decided its bound, and why it stands above its roof.
#include <optional>
#include <string>

#include "analyzer/data/roofline.hpp"

namespace rooflab::reports {

// One reason: "not timed: no achieved rate", "reaches 12.0% of the roof, under the 50.0% ...".
std::string placementReasonText(const PlacementReason& reason);

// The placement's reasons joined with "; ", or the sentence a schema-1 file saved; nullopt when none.
std::optional<std::string> placementReasonsText(const RooflinePlacement& placement);

// "above its roof (169.1%): <causes joined with "; ">", or the sentence a schema-1 file saved.
std::string aboveRoofText(const AboveRoof& above);

}  // namespace rooflab::reports
