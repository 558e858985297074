#pragma once
// The points of a batch sharded over identical devices, as the devices' loops take them: each device
// runs its own groups (plan/plan_parts.hpp, shardPoints) in order, and a device whose groups are done
// takes the last group still waiting on the device with the most estimated seconds left, so that no
// device idles while another has work queued: the estimates that dealt the groups may be wrong.
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "analyzer/plan/plan_parts.hpp"

namespace rooflab {

class ShardQueue {
 public:
  // Whether two plan points share their input set (plan/plan_parts.hpp, sameInputSet).
  using SameInputSet = std::function<bool(std::size_t, std::size_t)>;
  // `groups`: each device's, in the order it runs them; `seconds`: each point's estimate, by plan
  // index. With `same_set`, a device takes its own groups an input set at a time (a run that orders
  // each set's records by metric set, orderByMetricSet); without, a group at a time.
  ShardQueue(std::vector<ShardGroups> groups, std::map<std::size_t, double> seconds, SameInputSet same_set = {});

  struct Taken {
    // plan indices: one group, its modes in plan order; of its own, the device's groups of one input
    // set when the queue was given `same_set`
    std::vector<std::size_t> points;
    bool own = true;  // false: taken from another device's queue
  };
  // The next group for `device`, or none once no device has a group waiting. Thread-safe.
  std::optional<Taken> next(std::size_t device);
  // The points `device`'s worker prepares (builds, input data) in order: its own, then the last third
  // of the others', from their last groups on, the ones it would take first. Not thread-safe: before
  // the loops run.
  std::vector<std::size_t> preparationOrder(std::size_t device) const;
  // How many points `device` still has waiting.
  std::size_t pointsWaiting(std::size_t device) const;

 private:
  struct Group {
    std::vector<std::size_t> points;
    double seconds = 0;  // its points' estimates, summed
  };
  double secondsWaiting(std::size_t device) const;  // lock held

  mutable std::mutex lock_;
  std::vector<std::deque<Group>> waiting_;
  SameInputSet same_set_;
};

}  // namespace rooflab
