#pragma once
// An original's source view (data/source_lines.hpp): its files as the user wrote them, and the PTX
// bridge's PC samples placed on their lines.
#include <string>
#include <vector>

#include "analyzer/counters/counters.hpp"
#include "analyzer/data/batch_config.hpp"
#include "analyzer/data/family_manifest.hpp"
#include "analyzer/data/source_lines.hpp"

namespace rooflab {

// The variant's listed files, then the headers they include with `#include "x"` (found beside the
// including file, else in the family folder), each once, named as SourceFileText says: a listed file
// as its `#line` names it, a header relative to the family folder, else by its file name. The source
// view and the annotated mutants' changed lines both read them, so that their names agree. A file that
// cannot be read is left out (the build has said why by then).
std::vector<SourceFileText> variantSourceFiles(const VariantSpec& variant);

// The bridge's samples, each line named by the file of `files` the line info names: the same path, or
// a path that ends in it (a header found through the include folder). A line of another file is taken
// for a line of the program's text as rooflab gave it to the compiler (`program_text`: the prelude,
// then each listed file behind `#line 1 "<path>"`; an automatic mutant's, the preprocessor's output
// with its `# <n> "<path>"` markers), in case the compiler names that text rather than the files,
// and placed through those directives. Samples at other files (the prelude, the
// compiler's headers) and at instructions without a line are unattributed.
LineSampling lineSamplingFrom(const counters::PcSampling& sampled, const std::vector<SourceFileText>& files,
                              const std::string& program_text);

// Whether a record of `mode` gets the PC-sampling pass under [run] line_sampling.
bool linesSampled(LineSamplingSetting setting, RunMode mode);

// A record's sampling where there is none, and why.
LineSampling lineSamplingUnavailable(std::string reason);

}  // namespace rooflab
