// Which CUDA device the counters' bridge takes for the OpenCL device a worker runs: by PCI location,
// so that two GPUs of one name each count on their own; by name only where the name is unique.
#include <gtest/gtest.h>

#include "analyzer/counters/device_match.hpp"

using namespace rooflab;
using namespace rooflab::counters;

namespace {

const std::vector<CudaDeviceIdentity> kTwoH100s = {{"NVIDIA H100 80GB HBM3", PciLocation{0, 0x1b, 0}},
                                                   {"NVIDIA H100 80GB HBM3", PciLocation{0, 0x43, 0}}};

}  // namespace

TEST(DeviceMatch, TheSecondOfTwoGpusOfOneNameIsFoundAtItsPciLocation) {
  std::string why;
  EXPECT_EQ(matchCudaDevice({"NVIDIA H100 80GB HBM3", PciLocation{0, 0x43, 0}}, kTwoH100s, why), 1) << why;
  EXPECT_EQ(matchCudaDevice({"NVIDIA H100 80GB HBM3", PciLocation{0, 0x1b, 0}}, kTwoH100s, why), 0) << why;
}

TEST(DeviceMatch, WithoutAPciLocationTwoDevicesOfOneNameAreNotGuessed) {
  std::string why;
  EXPECT_FALSE(matchCudaDevice({"NVIDIA H100 80GB HBM3", std::nullopt}, kTwoH100s, why));
  EXPECT_EQ(why, "2 CUDA devices are named NVIDIA H100 80GB HBM3 and the OpenCL driver gave no PCI location to tell "
                 "which one runs this device (CUDA lists: 0 NVIDIA H100 80GB HBM3 at 0000:1b:00, 1 NVIDIA H100 80GB "
                 "HBM3 at 0000:43:00)");
  // One device of the name: that one, as before.
  const std::vector<CudaDeviceIdentity> mixed = {{"NVIDIA A100", std::nullopt}, {"NVIDIA H100", std::nullopt}};
  EXPECT_EQ(matchCudaDevice({"NVIDIA H100", std::nullopt}, mixed, why), 1);
}

TEST(DeviceMatch, ALocationCudaDoesNotListIsNamedWithWhatItLists) {
  std::string why;
  EXPECT_FALSE(matchCudaDevice({"NVIDIA H100 80GB HBM3", PciLocation{1, 0x9a, 2}}, kTwoH100s, why));
  EXPECT_NE(why.find("PCI location 0001:9a:02"), std::string::npos) << why;
  EXPECT_NE(why.find("0 NVIDIA H100 80GB HBM3 at 0000:1b:00"), std::string::npos) << why;
  EXPECT_FALSE(matchCudaDevice({"NVIDIA H100 80GB HBM3", std::nullopt}, {}, why));
  EXPECT_NE(why.find("CUDA lists: none"), std::string::npos) << why;
}
