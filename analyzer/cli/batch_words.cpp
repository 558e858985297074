#include "analyzer/cli/run_finish.hpp"
#include "reports/text/ceilings_sentences.hpp"
#include "reports/text/ceilings_table.hpp"
#include "reports/text/host_sentences.hpp"
#include "reports/text/progress_text.hpp"

namespace rooflab {

void giveBatchTheReportsWords(BatchOptions& options) {
  options.host_noise_text = reports::hostNoiseText;
  options.estimate_text = reports::estimateText;
  options.ceilings_words = {reports::ceilingsTable, reports::measuredRoofSource};
}

}  // namespace rooflab
