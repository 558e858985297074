#include "analyzer/batch/shard_queue.hpp"

#include <utility>

namespace rooflab {

ShardQueue::ShardQueue(std::vector<ShardGroups> groups, std::map<std::size_t, double> seconds, SameInputSet same_set)
    : same_set_(std::move(same_set)) {
  for (ShardGroups& part : groups) {
    std::deque<Group>& waiting = waiting_.emplace_back();
    for (std::vector<std::size_t>& points : part) {
      Group& group = waiting.emplace_back(Group{std::move(points), 0});
      for (const std::size_t i : group.points)
        if (const auto found = seconds.find(i); found != seconds.end()) group.seconds += found->second;
    }
  }
}

double ShardQueue::secondsWaiting(std::size_t device) const {
  double seconds = 0;
  for (const Group& group : waiting_[device]) seconds += group.seconds;
  return seconds;
}

std::optional<ShardQueue::Taken> ShardQueue::next(std::size_t device) {
  const std::lock_guard<std::mutex> hold(lock_);
  if (device >= waiting_.size()) return std::nullopt;
  std::deque<Group>& own = waiting_[device];
  if (!own.empty()) {
    Taken taken{std::move(own.front().points), true};
    own.pop_front();
    while (same_set_ && !own.empty() && same_set_(taken.points.front(), own.front().points.front())) {
      taken.points.insert(taken.points.end(), own.front().points.begin(), own.front().points.end());
      own.pop_front();
    }
    return taken;
  }
  // The device with the most left, by estimate; of a tie, the first.
  std::optional<std::size_t> from;
  for (std::size_t other = 0; other < waiting_.size(); ++other) {
    if (waiting_[other].empty()) continue;
    if (!from || secondsWaiting(other) > secondsWaiting(*from)) from = other;
  }
  if (!from) return std::nullopt;
  Taken taken{std::move(waiting_[*from].back().points), false};
  waiting_[*from].pop_back();
  return taken;
}

std::vector<std::size_t> ShardQueue::preparationOrder(std::size_t device) const {
  std::vector<std::size_t> order;
  if (device >= waiting_.size()) return order;
  for (const Group& group : waiting_[device]) order.insert(order.end(), group.points.begin(), group.points.end());
  // The last third of each other's groups, from their ends, in turn: what a device is likely to take
  // once its own are done. Not all of them: builds beside the records share the host with them, and
  // NVIDIA's compiler gains little from more at once (docs/cost.md, "Few compiles at once").
  std::vector<std::size_t> taken_from(waiting_.size(), 0);
  for (bool more = true; more;) {
    more = false;
    for (std::size_t other = 0; other < waiting_.size(); ++other) {
      if (other == device || 3 * taken_from[other] >= waiting_[other].size()) continue;
      const Group& group = waiting_[other][waiting_[other].size() - 1 - taken_from[other]++];
      order.insert(order.end(), group.points.begin(), group.points.end());
      more = true;
    }
  }
  return order;
}

std::size_t ShardQueue::pointsWaiting(std::size_t device) const {
  const std::lock_guard<std::mutex> hold(lock_);
  std::size_t points = 0;
  if (device < waiting_.size())
    for (const Group& group : waiting_[device]) points += group.points.size();
  return points;
}

}  // namespace rooflab
