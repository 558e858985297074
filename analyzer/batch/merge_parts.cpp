#include "analyzer/batch/merge_parts.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analyzer/batch/batch_identity.hpp"
#include "analyzer/batch/batch_summary.hpp"
#include "analyzer/diagnose/analysis.hpp"

namespace rooflab {
namespace {

constexpr std::size_t kListed = 20;  // points named in a message; the rest counted

std::size_t partIndex(const ResultsDocument& d) { return d.batch && d.batch->part ? d.batch->part->index : 1; }
std::size_t partCount(const ResultsDocument& d) { return d.batch && d.batch->part ? d.batch->part->count : 1; }

// The devices a part ran on, as a merge compares them: names and platforms, and how it used them.
std::string devicesOf(const ResultsDocument& d) {
  std::string text;
  if (d.device_runs.empty()) {
    if (d.device) text = d.device->name + " [" + d.device->platform + "]";
  } else {
    for (const DeviceRun& run : d.device_runs)
      text += (text.empty() ? "" : ", ") + run.key + " " + run.info.name + " [" + run.info.platform + "]";
    text += " (" + toString(d.device_mode.value_or(DeviceMode::compare)) + ")";
  }
  return text.empty() ? "an unnamed device" : text;
}

// The first measurement setting two parts' configs differ in, as "repetitions: 5 in A, 7 in B".
std::string settingDifference(const PartDocument& a, const PartDocument& b) {
  if (!a.document.config || !b.document.config) return "";
  const auto one = measurementSettings(a.document.config->run), other = measurementSettings(b.document.config->run);
  for (std::size_t i = 0; i < one.size() && i < other.size(); ++i)
    if (one[i].second != other[i].second)
      return one[i].first + ": " + one[i].second + " in " + a.path + ", " + other[i].second + " in " + b.path;
  return "";
}

// A part's identity is what its contents make: an id edited by hand no longer matches its components.
void checkOwnIdentity(const PartDocument& part) {
  const BatchIdentity& batch = *part.document.batch;
  if (!batch.components.empty() && idOfComponents(batch.components) != batch.id)
    throw InputError("merge: " + part.path + ": its batch id " + batch.id + " is not the one its components make (" +
                     idOfComponents(batch.components) +
                     "): the file was edited; merge only parts as rooflab wrote them");
}

// What makes `part` another batch than `first`, by name: a measurement setting, else the first
// component that differs.
std::string batchDifference(const PartDocument& first, const PartDocument& part) {
  if (std::string setting = settingDifference(first, part); !setting.empty())
    return "the measurement settings differ (" + setting + ")";
  const auto& mine = first.document.batch->components;
  const auto& theirs = part.document.batch->components;
  for (const auto& [name, value] : mine) {
    const auto other = theirs.find(name);
    if (other != theirs.end() && other->second != value) return "the " + componentMeaning(name) + " differ";
  }
  if (first.document.batch->id != part.document.batch->id)
    return "batch " + part.document.batch->id + ", not " + first.document.batch->id +
           ": parts must come from the same config, kernels and settings";
  return "";
}

// Parts of one batch, of one split, on the same devices; throws InputError naming the first that is not.
void checkParts(const std::vector<PartDocument>& parts) {
  if (parts.empty()) throw InputError("merge: no part given");
  for (const PartDocument& part : parts)
    if (!part.document.batch || part.document.batch->id.empty())
      throw InputError("merge: " + part.path +
                       " has no batch identity (\"batch\"): it was written by a rooflab "
                       "older than parts, or is not a run's results");
  const PartDocument& first = parts.front();
  for (const PartDocument& part : parts) {
    const ResultsDocument& d = part.document;
    if (const std::string difference = batchDifference(first, part); !difference.empty())
      throw InputError("merge: " + part.path + " is part of another batch than " + first.path + ": " + difference);
    checkOwnIdentity(part);
    if (partCount(d) != partCount(first.document))
      throw InputError("merge: " + part.path + " is a part of " + std::to_string(partCount(d)) + " and " + first.path +
                       " of " + std::to_string(partCount(first.document)) +
                       ": the parts of one merge must split the batch the same way (the same --shard N)");
    if (devicesOf(d) != devicesOf(first.document))
      throw InputError("merge: " + part.path + " ran on " + devicesOf(d) + " and " + first.path + " on " +
                       devicesOf(first.document) + ": the parts of one merge must run on the same devices");
  }
}

std::string recordKey(const RunRecord& record) {
  return record.label() + (record.device ? " on " + *record.device : "");
}

// The devices every planned point has a record on: one unnamed device, or the compare list's keys.
std::vector<std::optional<std::string>> recordDevices(const ResultsDocument& d) {
  std::vector<std::optional<std::string>> keys;
  if (d.device_mode == DeviceMode::compare)
    for (const DeviceRun& run : d.device_runs) keys.push_back(run.key);
  if (keys.empty()) keys.push_back(std::nullopt);
  return keys;
}

std::string listed(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size() && i < kListed; ++i) text += (i ? "; " : "") + items[i];
  if (items.size() > kListed) text += "; ... and " + std::to_string(items.size() - kListed) + " more";
  return text;
}

class Merger {
 public:
  explicit Merger(const std::vector<PartDocument>& parts) : parts_(parts) {
    for (std::size_t i = 0; i < parts.size(); ++i) order_.push_back(i);
    // Lowest part first; of two with one index, the first named.
    std::stable_sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      return partIndex(parts[a].document) < partIndex(parts[b].document);
    });
  }

  MergeOutcome merge() {
    const ResultsDocument& base = parts_[order_.front()].document;
    MergeOutcome outcome;
    ResultsDocument& merged = outcome.merged;
    header(base, merged);
    MergeSummary& summary = merged.merge.emplace();
    summary.parts = partCount(base);
    std::vector<std::tuple<std::size_t, std::size_t, AnalysedRecord>> sorted;
    for (std::size_t which : order_) takeRecords(which, summary, sorted);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
      return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    Analysis saved;
    for (auto& entry : sorted) {
      RecordConclusions& conclusions = std::get<2>(entry);
      // A what-if compares records that another part may hold: merged, it is compared afresh.
      conclusions.what_if_outcome.reset();
      saved.records.push_back(std::move(conclusions));
      merged.records.push_back(std::move(static_cast<RunRecord&>(std::get<2>(entry))));
    }
    findMissing(base, merged, summary, outcome.messages);
    merged.analysis = analyse(merged.records, merged, std::move(saved));
    const BatchTally tally = tallyRecords(merged.records, base.batch->points * recordDevices(base).size());
    merged.summary = tally.finalSummary(merged.records.size());
    const bool complete =
        summary.missing_parts.empty() && summary.missing_points.empty() && merged.summary->not_run == 0;
    merged.status = complete ? BatchStatus::complete : BatchStatus::incomplete;
    outcome.exit_code = complete ? tally.exitCode(false, false) : ExitCode::variant_failed;
    if (!summary.duplicates.empty())
      outcome.messages.push_back(std::to_string(summary.duplicates.size()) +
                                 " records are in two parts; the first part's is kept: " + listed(summary.duplicates));
    return outcome;
  }

 private:
  // The document around the records: the lowest part's, spanning every part's time.
  void header(const ResultsDocument& base, ResultsDocument& merged) const {
    merged.schema = base.schema;
    merged.tool = base.tool;
    merged.config = base.config;
    merged.device = base.device;
    merged.models = base.models;
    merged.ceilings_seconds = base.ceilings_seconds;
    merged.build_threads = base.build_threads;
    merged.host = base.host;
    merged.noisy_host = base.noisy_host;
    merged.device_mode = base.device_mode;
    merged.device_runs = base.device_runs;
    merged.batch = BatchIdentity{base.batch->id, base.batch->points, std::nullopt, base.batch->components};
    // What a part's file says of the whole run: the drift control `rooflab diff` reads, the sizes
    // chosen, the launch floor, the phase table (the lowest part's: each part's own is in its file).
    merged.drift_control = base.drift_control;
    merged.size_choices = base.size_choices;
    merged.launch_floor_ns = base.launch_floor_ns;
    merged.cost = base.cost;
    merged.started_at = base.started_at;
    for (const PartDocument& part : parts_) {
      if (!part.document.started_at.empty() && part.document.started_at < merged.started_at)
        merged.started_at = part.document.started_at;
      if (part.document.finished_at && (!merged.finished_at || *part.document.finished_at > *merged.finished_at))
        merged.finished_at = part.document.finished_at;
    }
  }

  void takeRecords(std::size_t which, MergeSummary& summary,
                   std::vector<std::tuple<std::size_t, std::size_t, AnalysedRecord>>& sorted) {
    const PartDocument& part = parts_[which];
    const ResultsDocument& d = part.document;
    const std::size_t index = partIndex(d);
    if (!given_.insert(index).second) duplicate_parts_.push_back(index);
    summary.merged.push_back({index, part.path, d.records.size(), devicesOf(d)});
    // Each record's place in the whole plan, from the part's list of its points.
    std::map<std::string, std::size_t> plan_index;
    if (d.batch->part)
      for (std::size_t i = 0; i < d.batch->part->points.size() && i < d.batch->part->plan_indices.size(); ++i)
        plan_index.emplace(d.batch->part->points[i], d.batch->part->plan_indices[i]);
    const std::vector<std::optional<std::string>> devices = recordDevices(d);
    for (std::size_t i = 0; i < d.records.size(); ++i) {
      const RunRecord& record = d.records[i];
      if (!seen_.insert(recordKey(record)).second) {
        summary.duplicates.push_back(recordKey(record) + " (" + part.path + ")");
        continue;
      }
      const auto at = plan_index.find(record.label());
      if (d.batch->part && at == plan_index.end())
        throw InputError("merge: " + part.path + ": record " + recordKey(record) + " is not a point of its part (" +
                         std::to_string(plan_index.size()) + " points): the file was edited or mixes batches");
      const std::size_t device =
          static_cast<std::size_t>(std::find(devices.begin(), devices.end(), record.device) - devices.begin());
      sorted.emplace_back(at == plan_index.end() ? i : at->second, device,
                          AnalysedRecord(record, conclusionsOf(d.analysis, i)));
    }
  }

  // Parts not given, and points of given parts that have no record.
  void findMissing(const ResultsDocument& base, const ResultsDocument& merged, MergeSummary& summary,
                   std::vector<std::string>& messages) const {
    for (std::size_t index : duplicate_parts_)
      messages.push_back("part " + std::to_string(index) + " of " + std::to_string(summary.parts) +
                         " is given twice: the records of the first named are kept");
    const std::vector<std::size_t> sizes =
        base.batch->part ? base.batch->part->part_points : std::vector<std::size_t>{};
    for (std::size_t index = 1; index <= summary.parts; ++index) {
      // Completeness is about points: a part the deal gave no point is not missing.
      if (given_.count(index) != 0 || (index <= sizes.size() && sizes[index - 1] == 0)) continue;
      summary.missing_parts.push_back(index);
      messages.push_back("part " + std::to_string(index) + " of " + std::to_string(summary.parts) + " is missing" +
                         (index <= sizes.size() ? " (its " + std::to_string(sizes[index - 1]) + " points)" : "") +
                         ": run it (`rooflab run --shard " + std::to_string(index) + "/" +
                         std::to_string(summary.parts) + "`) and merge again");
    }
    std::set<std::string> have;
    for (const RunRecord& record : merged.records) have.insert(recordKey(record));
    std::set<std::size_t> looked;
    for (std::size_t which : order_) {
      const ResultsDocument& d = parts_[which].document;
      if (!d.batch->part || !looked.insert(partIndex(d)).second) continue;
      std::vector<std::string> missing;
      for (const std::string& point : d.batch->part->points)
        for (const std::optional<std::string>& device : recordDevices(d))
          if (have.count(point + (device ? " on " + *device : "")) == 0)
            missing.push_back(point + (device ? " on " + *device : ""));
      if (missing.empty()) continue;
      messages.push_back(missingPointsText(parts_[which], summary.parts, missing));
      summary.missing_points.insert(summary.missing_points.end(), missing.begin(), missing.end());
    }
  }

  // One part's points without a record, and why: a part still running has them to come; one that
  // ended without them was interrupted or killed.
  static std::string missingPointsText(const PartDocument& part, std::size_t parts,
                                       const std::vector<std::string>& missing) {
    const std::string index = std::to_string(partIndex(part.document)), count = std::to_string(parts);
    const std::string head = "part " + index + " of " + count + " (" + part.path +
                             "): " + std::to_string(missing.size()) + " of its " +
                             std::to_string(part.document.batch->part->points.size()) + " points " +
                             (missing.size() == 1 ? "has" : "have") + " no record: ";
    if (part.running_pid)
      return head + "it is still running (pid " + *part.running_pid + " holds its folder): merge again when it ends; " +
             listed(missing);
    return head + "it was interrupted or killed before they ran: run it again (`rooflab run --shard " + index + "/" +
           count + "`) and merge again; " + listed(missing);
  }

  const std::vector<PartDocument>& parts_;
  std::vector<std::size_t> order_;
  std::set<std::size_t> given_;
  std::vector<std::size_t> duplicate_parts_;
  std::set<std::string> seen_;
};

}  // namespace

MergeOutcome mergeParts(const std::vector<PartDocument>& parts) {
  checkParts(parts);
  return Merger(parts).merge();
}

}  // namespace rooflab
