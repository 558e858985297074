// A PCI location read as `rooflab devices` and nvidia-smi write it, for the `pci:` device selector and
// the worker that opens its batch's device by it (analyzer/device/device.hpp).
#include <gtest/gtest.h>

#include "analyzer/data/device_info.hpp"

using namespace rooflab;

TEST(PciLocation, ReadsTheFormsToolsWrite) {
  const std::optional<PciLocation> ours = parsePciLocation("0000:1b:00");
  ASSERT_TRUE(ours.has_value());
  EXPECT_EQ(ours->domain, 0u);
  EXPECT_EQ(ours->bus, 0x1bu);
  EXPECT_EQ(ours->device, 0u);
  EXPECT_EQ(toString(*ours), "0000:1b:00");
  // nvidia-smi's bus id: an 8-digit domain, capitals, and the function.
  const std::optional<PciLocation> smi = parsePciLocation("00000001:C1:03.0");
  ASSERT_TRUE(smi.has_value());
  EXPECT_EQ(toString(*smi), "0001:c1:03");
  // Without a domain: domain 0.
  ASSERT_TRUE(parsePciLocation("1b:00").has_value());
  EXPECT_TRUE(*parsePciLocation("1b:00") == *ours);
}

TEST(PciLocation, AnythingElseIsNoLocation) {
  for (const char* text : {"", "1b", "0000:1b:00:00", "00:zz:00", "0000::00", "123456789:00:00", ":1b:00"})
    EXPECT_FALSE(parsePciLocation(text).has_value()) << text;
}
