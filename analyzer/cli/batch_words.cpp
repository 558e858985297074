#include "analyzer/cli/run_finish.hpp"
#include "reports/text/ceilings_sentences.hpp"
#include "reports/text/ceilings_table.hpp"
#include "reports/text/host_sentences.hpp"
#include "reports/text/progress_text.hpp"
#include "reports/text/size_choice_text.hpp"
#include "reports/text/tuned_variant_toml.hpp"
#include "reports/text/tuning_text.hpp"

namespace rooflab {

void giveBatchTheReportsWords(BatchOptions& options) {
  options.host_noise_text = reports::hostNoiseText;
  options.estimate_text = reports::estimateText;
  options.ceilings_words = {reports::ceilingsTable, reports::measuredRoofSource};
  options.start_text = reports::batchStartText;
  options.gpu_clock_text = reports::gpuClockText;
  options.size_choice_text = reports::sizeChoiceText;
}

void giveTuneTheReportsWords(TuneOptions& options) {
  giveBatchTheReportsWords(options.batch);
  options.progress_text = reports::tuneProgressText;
  options.tuned_variant_text = reports::manifestSnippet;
}

}  // namespace rooflab
