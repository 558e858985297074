#pragma once
// A plan dealt into parts: the deterministic split that `rooflab run --shard I/N` runs one part of and
// that a batch sharded over identical devices gives each device.
#include <cstddef>
#include <vector>

#include "analyzer/data/batch_plan.hpp"

namespace rooflab {

// `points` (indices into the plan, in plan order) dealt into `count` parts, each in plan order. The
// points' groups (a variant at its params, its modes together: a verdict needs every mode of its
// group) are dealt out in turn, the g-th group to part g % count, so that each part holds whole
// groups and every family spreads over the parts. The same points always give the same parts.
std::vector<std::vector<std::size_t>> dealPoints(const BatchPlan& plan, const std::vector<std::size_t>& points,
                                                 std::size_t count);

// `points` (in plan order) split over `count` devices of one batch: each part's groups (a variant at
// its params, its modes together), in plan order, each group its plan indices. Each input set (a
// family's consecutive groups whose points share their inputs) stays on one device, where it is
// generated, referenced and built for once. `seconds[i]` is the estimated cost of points[i]. Input
// sets go, costliest first, to the least loaded part; while that leaves a part more than 10% above
// an even share, the costliest input set still whole is dealt by its groups instead.
using ShardGroups = std::vector<std::vector<std::size_t>>;
std::vector<ShardGroups> shardPoints(const BatchPlan& plan, const std::vector<std::size_t>& points, std::size_t count,
                                     const std::vector<double>& seconds);

// `points` (in plan order) in the order that collects counters at least cost: within each input set
// (a family's consecutive groups whose points share their inputs), its originals and what-ifs first,
// then its mutants, each in plan order. The range profiler stays enabled from one record to the next
// of the same metric set and starts afresh when the set changes: in plan order it changes twice a
// variant, in this order twice an input set. A mutant still comes after its own original, whose
// compile it follows.
std::vector<std::size_t> orderByMetricSet(const BatchPlan& plan, const std::vector<std::size_t>& points);

// Whether plan points `a` and `b` share their input set (family and inputs).
bool sameInputSet(const BatchPlan& plan, std::size_t a, std::size_t b);

// Every point of the plan, in order.
std::vector<std::size_t> allPoints(const BatchPlan& plan);

// The points of part `index` (1-based) of `count` of the whole plan: dealPoints(plan, allPoints(plan), count).
std::vector<std::size_t> pointsOfPart(const BatchPlan& plan, std::size_t index, std::size_t count);

// The number of points in each of `count` parts of the whole plan, part 1 first.
std::vector<std::size_t> partSizes(const BatchPlan& plan, std::size_t count);

}  // namespace rooflab
