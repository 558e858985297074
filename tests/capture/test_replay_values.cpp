// Captured scalar arguments as manifest text (analyzer/capture/replay_values.cpp): the type prefix,
// and a decimal that reads back to the bits the program passed.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "analyzer/capture/replay_values.hpp"

using namespace rooflab;

namespace {

template <class T>
CapturedArgument scalar(const char* type_name, T value) {
  CapturedArgument a;
  a.kind = CapturedArgumentKind::scalar;
  a.type_name = type_name;
  a.value.resize(sizeof value);
  std::memcpy(a.value.data(), &value, sizeof value);
  return a;
}

}  // namespace

TEST(ReplayValues, FloatsReadBackToTheSameBits) {
  for (const float value : {0.1f, -0.0f, 1e-45f, FLT_MIN, FLT_MAX, 3.14159274f, -2.5e-20f, 16777217.0f}) {
    std::string why;
    const auto text = manifestScalar(scalar("float", value), why);
    ASSERT_TRUE(text) << why;
    ASSERT_EQ(text->rfind("float:", 0), 0u) << *text;
    const float back = static_cast<float>(std::strtod(text->c_str() + 6, nullptr));
    EXPECT_EQ(std::memcmp(&back, &value, sizeof value), 0) << *text;
  }
  for (const double value : {0.1, -1e-300, DBL_MAX, 4.9e-324}) {
    std::string why;
    const auto text = manifestScalar(scalar("double", value), why);
    ASSERT_TRUE(text) << why;
    const double back = std::strtod(text->c_str() + 7, nullptr);
    EXPECT_EQ(std::memcmp(&back, &value, sizeof value), 0) << *text;
  }
}

TEST(ReplayValues, IntegersCarryTheirPrefixAndWhatAManifestCannotSayIsRefused) {
  std::string why;
  EXPECT_EQ(manifestScalar(scalar("int", std::int32_t{-7}), why).value_or(""), "-7");
  EXPECT_EQ(manifestScalar(scalar("uint", std::uint32_t{4000000000u}), why).value_or(""), "uint:4000000000");
  EXPECT_EQ(manifestScalar(scalar("long", std::int64_t{-5}), why).value_or(""), "long:-5");
  EXPECT_FALSE(manifestScalar(scalar("ulong", std::uint64_t{1} << 60), why));
  EXPECT_NE(why.find("2^53"), std::string::npos) << why;
  EXPECT_FALSE(manifestScalar(scalar("float", std::nanf("")), why));
  EXPECT_FALSE(manifestScalar(scalar("short", std::int16_t{3}), why));
  EXPECT_NE(why.find("no scalar type short"), std::string::npos) << why;
  EXPECT_EQ(bufferElement("float*").type, "float");
  EXPECT_EQ(bufferElement("float4*").bytes, 16u);
  EXPECT_EQ(bufferElement("struct particle*").type, "uchar");
}

// An application's `-D` options become the manifest's defines, passed as written; the rest stay
// build options, in their order.
TEST(ReplayValues, DefinesOfTheBuildOptionsBecomeTheManifestsDefines) {
  const ManifestBuildOptions split =
      manifestBuildOptions("-D WIDTH=128 -cl-fast-relaxed-math -DHEIGHT=96  -D USE_FMA -DALPHA=0.5f -cl-std=CL1.2");
  EXPECT_EQ(split.defines,
            (std::vector<std::pair<std::string, std::string>>{
                {"WIDTH", "raw:128"}, {"HEIGHT", "raw:96"}, {"USE_FMA", "raw:1"}, {"ALPHA", "raw:0.5f"}}));
  EXPECT_EQ(split.options, "-cl-fast-relaxed-math -cl-std=CL1.2");
  EXPECT_TRUE(manifestBuildOptions("").defines.empty());
}
