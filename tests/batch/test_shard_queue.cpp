// How the devices of a sharded batch take their points (analyzer/batch/shard_queue.hpp): each its own
// groups in order, then, once they are done, the last group still waiting on the device with the most
// estimated seconds left; and which points each worker prepares.
#include <gtest/gtest.h>

#include <vector>

#include "analyzer/batch/shard_queue.hpp"

using namespace rooflab;

namespace {

std::vector<std::size_t> nextPoints(ShardQueue& queue, std::size_t device, bool* own = nullptr) {
  const std::optional<ShardQueue::Taken> taken = queue.next(device);
  if (!taken) return {};
  if (own) *own = taken->own;
  return taken->points;
}

}  // namespace

TEST(ShardQueue, ADeviceRunsItsOwnGroupsThenTakesTheLastWaitingOnTheBusiestDevice) {
  // Device 0: groups {0,1} and {2,3}; device 1: {4,5}, {6,7}, {8,9}; device 2: {10,11}, estimated
  // ten times as costly a point as the others.
  std::map<std::size_t, double> seconds;
  for (std::size_t i = 0; i < 12; ++i) seconds[i] = i >= 10 ? 10.0 : 1.0;
  ShardQueue queue({{{0, 1}, {2, 3}}, {{4, 5}, {6, 7}, {8, 9}}, {{10, 11}}}, seconds);
  bool own = false;
  EXPECT_EQ(nextPoints(queue, 0, &own), (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(own);
  EXPECT_EQ(nextPoints(queue, 0), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(queue.pointsWaiting(1), 6u);
  // Device 0 is done with its own: device 2's one group is estimated the longest (20 s against 6 s).
  EXPECT_EQ(nextPoints(queue, 0, &own), (std::vector<std::size_t>{10, 11}));
  EXPECT_FALSE(own);
  // Then device 1's, from its last.
  EXPECT_EQ(nextPoints(queue, 0), (std::vector<std::size_t>{8, 9}));
  EXPECT_EQ(nextPoints(queue, 1), (std::vector<std::size_t>{4, 5}));
  // Device 2's own are gone: it takes what is left of device 1's.
  EXPECT_EQ(nextPoints(queue, 2, &own), (std::vector<std::size_t>{6, 7}));
  EXPECT_FALSE(own);
  EXPECT_FALSE(queue.next(0).has_value());
  EXPECT_FALSE(queue.next(1).has_value());
  EXPECT_FALSE(queue.next(7).has_value());  // no such device
}

TEST(ShardQueue, AWorkerPreparesItsOwnPointsThenTheLastThirdOfTheOthersFromTheirEnds) {
  ShardQueue queue({{{0, 1}, {2, 3}}, {{4}, {5}, {6}, {7}, {8}, {9}}}, {});
  EXPECT_EQ(queue.preparationOrder(0), (std::vector<std::size_t>{0, 1, 2, 3, 9, 8}));
  EXPECT_EQ(queue.preparationOrder(1), (std::vector<std::size_t>{4, 5, 6, 7, 8, 9, 2, 3}));
}

// A run ordered by metric set takes its own groups an input set at a time (here, points below 4 and
// the rest are two sets); what it takes from another device is still one group.
TEST(ShardQueue, WithInputSetsADeviceTakesItsOwnGroupsOfOneSetTogether) {
  ShardQueue queue({{{0, 1}, {2, 3}, {4, 5}}, {{6, 7}, {8, 9}}}, {},
                   [](std::size_t a, std::size_t b) { return (a < 4) == (b < 4); });
  EXPECT_EQ(nextPoints(queue, 0), (std::vector<std::size_t>{0, 1, 2, 3}));
  EXPECT_EQ(nextPoints(queue, 0), (std::vector<std::size_t>{4, 5}));
  bool own = true;
  EXPECT_EQ(nextPoints(queue, 0, &own), (std::vector<std::size_t>{8, 9}));
  EXPECT_FALSE(own);
  EXPECT_EQ(nextPoints(queue, 1), (std::vector<std::size_t>{6, 7}));
}
