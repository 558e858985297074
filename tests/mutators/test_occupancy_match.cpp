// The occupancy-matching policy for mutants, without a device: the driver is played by oracles.
#include <gtest/gtest.h>

#include <stdexcept>

#include "mutators/occupancy_match.hpp"

using namespace rooflab;
using counters::KernelOccupancy;
using counters::OccupancyQuery;

namespace {

OccupancyLaunch launch(const std::string& kernel, std::uint64_t original_local, std::uint64_t mutant_local,
                       std::size_t threads = 256) {
  OccupancyLaunch l;
  l.kernel = kernel;
  l.threads_per_group = threads;
  l.original_local_bytes = original_local;
  l.original_private_bytes = 8;
  l.mutant_local_bytes = mutant_local;
  l.mutant_private_bytes = 4;
  return l;
}

KernelOccupancy occupancy(int blocks, std::optional<std::size_t> pad = std::nullopt, int padded_blocks = 0) {
  KernelOccupancy o;
  o.blocks_per_sm = blocks;
  o.warps_per_sm = blocks * 8;
  o.max_warps_per_sm = 64;
  o.pad_bytes = pad;
  o.padded_blocks_per_sm = padded_blocks;
  return o;
}

OccupancyOracle answering(std::vector<KernelOccupancy> answer,
                          std::vector<std::vector<OccupancyQuery>>* asked = nullptr) {
  return [answer, asked](const std::vector<OccupancyQuery>& queries) {
    if (asked) asked->push_back(queries);
    return answer;
  };
}

}  // namespace

TEST(OccupancyMatch, WithoutTheDriverTheMutantGetsTheLocalMemoryItLacks) {
  const std::vector<OccupancyLaunch> launches = {launch("k", 4096, 1024)};
  const OccupancyPadPlan m = matchOccupancy(launches, 49152, {}, {});
  EXPECT_FALSE(m.byOccupancy());
  EXPECT_EQ(m.pad_bytes, std::vector<std::size_t>{3072});
  EXPECT_EQ(m.pad_kernels, std::set<std::string>{"k"});
  EXPECT_TRUE(m.match.padded);
  EXPECT_EQ(describe(m.match.method), "local memory: CL_KERNEL_LOCAL_MEM_SIZE of the original and the mutant");
  const LaunchOccupancyMatch& l = m.match.launches.at(0);
  EXPECT_EQ(l.kernel, "k");
  EXPECT_EQ(l.original.local_bytes, 4096u);
  EXPECT_EQ(l.original.private_bytes, 8u);
  EXPECT_EQ(l.mutant.local_bytes, 1024u);
  EXPECT_EQ(l.mutant.private_bytes, 4u);
  EXPECT_EQ(l.pad_bytes, 3072u);
  EXPECT_EQ(l.matched, true);
  EXPECT_TRUE(m.match.notes.empty());
}

TEST(OccupancyMatch, APadNeverExceedsWhatOpenclLeavesTheWorkGroup) {
  std::vector<OccupancyLaunch> launches = {launch("k", 4096, 1024)};
  launches[0].dynamic_local_bytes = 512;
  const OccupancyPadPlan m = matchOccupancy(launches, 2048, {}, {});
  EXPECT_EQ(m.pad_bytes, std::vector<std::size_t>{512});  // 2048 - 1024 static - 512 dynamic
  EXPECT_EQ(m.match.launches.at(0).matched, false);
}

TEST(OccupancyMatch, NothingToPadLeavesTheMutantAsItIs) {
  const OccupancyPadPlan m = matchOccupancy({launch("k", 1024, 1024)}, 49152, {}, {});
  EXPECT_FALSE(m.padded());
  EXPECT_EQ(m.match.padded, false);
  EXPECT_EQ(m.match.launches.at(0).pad_bytes, 0u);
  EXPECT_EQ(m.match.launches.at(0).matched, true);
}

TEST(OccupancyMatch, TheDriverDecidesWhenItCanTellAndThePaddedMutantIsCheckedBack) {
  std::vector<OccupancyLaunch> launches = {launch("k", 0, 0, 128)};
  launches[0].dynamic_local_bytes = 100;
  std::vector<std::vector<OccupancyQuery>> original_asked, mutant_asked, padded_asked;
  OccupancyPadPlan m = matchOccupancy(launches, 49152, answering({occupancy(2)}, &original_asked),
                                      answering({occupancy(4, 5000, 2)}, &mutant_asked));
  ASSERT_TRUE(m.byOccupancy());
  ASSERT_EQ(original_asked.size(), 1u);
  EXPECT_EQ(original_asked[0][0].kernel, "k");
  EXPECT_EQ(original_asked[0][0].threads_per_block, 128u);
  EXPECT_EQ(original_asked[0][0].dynamic_local_bytes, 100u);
  EXPECT_FALSE(original_asked[0][0].pad_to_blocks_per_sm.has_value());
  ASSERT_EQ(mutant_asked.size(), 1u);
  EXPECT_EQ(mutant_asked[0][0].pad_to_blocks_per_sm, 2);
  EXPECT_EQ(mutant_asked[0][0].pad_limit_bytes, 49152u - 100u);
  EXPECT_EQ(m.pad_bytes, std::vector<std::size_t>{5000});
  EXPECT_EQ(describe(m.match.method),
            "occupancy: work-groups per compute unit from the CUDA driver, through the PTX bridge");
  EXPECT_EQ(m.match.launches.at(0).original.occupancy.value().work_groups_per_cu, 2);
  EXPECT_EQ(m.match.launches.at(0).mutant.occupancy.value().work_groups_per_cu, 4);
  EXPECT_EQ(m.match.launches.at(0).mutant.occupancy.value().occupancy_pct, 50.0);
  EXPECT_EQ(m.match.launches.at(0).matched, true);

  confirmPaddedOccupancy(m, launches, answering({occupancy(3)}, &padded_asked));
  ASSERT_EQ(padded_asked.size(), 1u);
  EXPECT_EQ(padded_asked[0][0].dynamic_local_bytes, 5100u);
  EXPECT_EQ(m.match.launches.at(0).padded.value().work_groups_per_cu, 3);
  EXPECT_EQ(m.match.launches.at(0).matched, false);
}

TEST(OccupancyMatch, EveryLaunchOfAPaddedKernelTakesThePadArgument) {
  const std::vector<OccupancyLaunch> launches = {launch("k", 4096, 1024), launch("k", 1024, 1024), launch("j", 0, 0)};
  const OccupancyPadPlan m = matchOccupancy(launches, 49152, {}, {});
  EXPECT_EQ(m.pad_bytes, (std::vector<std::size_t>{3072, 16, 0}));
  EXPECT_EQ(m.pad_kernels, std::set<std::string>{"k"});
  EXPECT_EQ(m.match.launches.at(1).pad_bytes, 0u);  // the report shows what the launch needed
}

TEST(OccupancyMatch, TheReportSaysWhenPaddingCannotMatch) {
  const OccupancyPadPlan fewer =
      matchOccupancy({launch("k", 0, 0)}, 49152, answering({occupancy(4)}), answering({occupancy(2)}));
  ASSERT_EQ(fewer.match.notes.size(), 1u);
  EXPECT_NE(fewer.match.notes[0].find("k: the mutant needs more resources"), std::string::npos);
  EXPECT_EQ(fewer.match.launches.at(0).matched, false);

  const OccupancyPadPlan no_room =
      matchOccupancy({launch("k", 0, 1000)}, 49152, answering({occupancy(1)}), answering({occupancy(2)}));
  EXPECT_FALSE(no_room.padded());
  EXPECT_NE(no_room.match.launches.at(0).note.value().find("no pad within the 48152 bytes"), std::string::npos);
}

TEST(OccupancyMatch, AFailingDriverFallsBackToLocalMemory) {
  const OccupancyOracle failing = [](const std::vector<OccupancyQuery>&) -> std::vector<KernelOccupancy> {
    throw std::runtime_error("no CUDA device");
  };
  OccupancyPadPlan m = matchOccupancy({launch("k", 4096, 1024)}, 49152, failing, failing);
  EXPECT_FALSE(m.byOccupancy());
  EXPECT_EQ(m.pad_bytes, std::vector<std::size_t>{3072});
  ASSERT_EQ(m.match.notes.size(), 1u);
  EXPECT_EQ(m.match.notes[0],
            "occupancy through the PTX bridge unavailable (no CUDA device); local memory compared instead");
  confirmPaddedOccupancy(m, {launch("k", 4096, 1024)}, failing);  // not by occupancy: nothing asked
  EXPECT_FALSE(m.match.launches.at(0).padded.has_value());

  // A launch whose local size the runtime chooses has no occupancy to ask for.
  const OccupancyPadPlan unsized =
      matchOccupancy({launch("k", 4096, 1024, 0)}, 49152, answering({occupancy(1)}), answering({occupancy(1)}));
  EXPECT_FALSE(unsized.byOccupancy());
}
