// A noisy host's sentence (reports/text/host_sentences.hpp): the words the analysis wrote before it
// kept the finding as data, and a schema-1 file's sentence as saved.
#include <gtest/gtest.h>

#include "analyzer/device/host_condition.hpp"
#include "analyzer/json/results_json.hpp"
#include "reports/text/host_sentences.hpp"

using namespace rooflab;

TEST(HostSentences, SaysEachNoisyReadingAsBefore) {
  HostCondition host;
  host.load_average_1min = 13.02;
  host.core_count = 2;
  auto noise = noisyHost(host);
  ASSERT_TRUE(noise.has_value());
  EXPECT_EQ(reports::hostNoiseText(*noise),
            "load average 13.02 on 2 cores (6.51 per core, above 0.50): other processes share the cores");

  host.cpu_governor = "powersave";
  host.gpu_sm_clock = GpuClockSamples{1410, 1980, 12};
  noise = noisyHost(host);
  ASSERT_TRUE(noise.has_value());
  EXPECT_EQ(reports::hostNoiseText(*noise),
            "load average 13.02 on 2 cores (6.51 per core, above 0.50): other processes share the cores; CPU "
            "frequency governor 'powersave', not 'performance': clocks may change during the run; GPU SM clock "
            "between 1410 and 1980 MHz during the run (28.8% apart, above 5.0%): the GPU changed its clock under the "
            "measurement");

  host = HostCondition{};
  host.cpu_governor = "ondemand";
  noise = noisyHost(host);
  ASSERT_TRUE(noise.has_value());
  EXPECT_EQ(reports::hostNoiseText(*noise),
            "CPU frequency governor 'ondemand', not 'performance': clocks may change during the run");
}

TEST(HostSentences, SchemaOneSentenceIsSaidAndWrittenAsSaved) {
  const std::string saved =
      "load average 16.24 on 2 cores (8.12 per core, above 0.50): other processes share the cores";
  const nlohmann::json file = {{"host", {{"core_count", 2}, {"load_average_1min", 16.24}}}, {"noisy_host", saved}};
  const std::optional<HostNoise> noise = hostNoiseFromJson(file);
  ASSERT_TRUE(noise.has_value());
  EXPECT_EQ(reports::hostNoiseText(*noise), saved);
  nlohmann::json written = nlohmann::json::object();
  writeHostNoise(written, HostCondition{}, noise);
  EXPECT_EQ(written, nlohmann::json({{"noisy_host", saved}}));
}

TEST(HostSentences, DataRoundTripsUnderHostNoise) {
  HostCondition host;
  host.load_average_1min = 5.89;
  host.core_count = 2;
  host.gpu_sm_clock = GpuClockSamples{1410, 1980, 12};
  const auto noise = noisyHost(host);
  ASSERT_TRUE(noise.has_value());
  nlohmann::json written = nlohmann::json::object();
  writeHostNoise(written, host, noise);
  EXPECT_FALSE(written.contains("noisy_host"));
  EXPECT_EQ(written["host_noise"]["gpu_clock"]["max_mhz"], 1980.0);
  const auto back = hostNoiseFromJson(written);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(reports::hostNoiseText(*back), reports::hostNoiseText(*noise));
  nlohmann::json quiet = nlohmann::json::object();
  writeHostNoise(quiet, host, std::nullopt);
  EXPECT_EQ(quiet, nlohmann::json({{"noisy_host", nullptr}}));  // as schema 1 wrote a quiet host
  EXPECT_FALSE(hostNoiseFromJson(quiet).has_value());
}
