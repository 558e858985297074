#pragma once
// What a normal point's end-to-end runs need ([[study]] end_to_end), resolved when the batch is
// planned: the strategies, and for overlapped runs each chunk of the data resolved as a point of its
// own. Every reason the runs cannot be made is an input error here, before any device work.
#include <optional>
#include <string>

#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/resolved_point.hpp"

namespace rooflab {

// The chunk counts an overlap run uses when a study names none.
inline constexpr int kDefaultOverlapChunks = 4;

// The study's end-to-end request for `point` (a normal point of `study`), or nullopt when the study
// asks for none. Throws InputError: overlap asked of a family that declares no [end_to_end] split, a
// split parameter too small for the chunk count, a chunk that cannot be resolved, or a buffer whose
// count does not grow in proportion to the split parameter.
std::optional<EndToEndRequest> planEndToEnd(const StudySpec& study, const ResolvedPoint& point);

// Why `study` cannot ask for end-to-end runs at all ("" when it can): they run with the normal points,
// so a study of only other modes has none to attach them to.
std::string endToEndStudyProblem(const StudySpec& study, const std::vector<RunMode>& modes);

}  // namespace rooflab
