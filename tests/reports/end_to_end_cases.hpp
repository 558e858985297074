#pragma once
// Records whose end-to-end runs take each sentence the analysis says: every bound, every reason for
// no prediction, the ceilings' forms (bandwidth, none, zero-copy), host copies and the pipeline, and
// the verdict's three summaries. The sentences the renderer must give for them are in
// test_end_to_end_sentences.cpp, as the analysis wrote them before reports/ said them.
#include <utility>
#include <vector>

#include "analyzer/data/run_record.hpp"
#include "analyzer/diagnose/end_to_end_model.hpp"

namespace rooflab::testing {

inline LinkCeiling endToEndCeiling(LinkStrategy strategy, LinkDirection direction, double latency_ns,
                                   std::optional<double> gbps) {
  LinkCeiling c;
  c.strategy = strategy;
  c.direction = direction;
  c.latency_ns = latency_ns;
  c.gbps = gbps;
  return c;
}

// copy at 8 GB/s up and 10 GB/s down, 10 us a transfer; copy-async at 25 GB/s, 5 us; map with no
// bandwidth up; alloc-host-ptr zero-copy; the host's memcpy at 20 GB/s. No use-host-ptr ceiling.
inline LinkCeilings endToEndLink() {
  LinkCeilings l;
  l.transfers = {endToEndCeiling(LinkStrategy::copy, LinkDirection::host_to_device, 10'000, 8),
                 endToEndCeiling(LinkStrategy::copy, LinkDirection::device_to_host, 10'000, 10),
                 endToEndCeiling(LinkStrategy::copy_async, LinkDirection::host_to_device, 5'000, 25),
                 endToEndCeiling(LinkStrategy::copy_async, LinkDirection::device_to_host, 5'000, 25),
                 endToEndCeiling(LinkStrategy::map, LinkDirection::host_to_device, 1'500'000, std::nullopt),
                 endToEndCeiling(LinkStrategy::map, LinkDirection::device_to_host, 3'000, 12.5),
                 endToEndCeiling(LinkStrategy::alloc_host_ptr, LinkDirection::host_to_device, 2'000, std::nullopt),
                 endToEndCeiling(LinkStrategy::alloc_host_ptr, LinkDirection::device_to_host, 2'000, std::nullopt)};
  l.transfers[6].zero_copy = l.transfers[7].zero_copy = true;
  l.host_memcpy = endToEndCeiling(LinkStrategy::host_memcpy, LinkDirection::host_to_device, 0, 20);
  return l;
}

// A run that passed verification with `median` (upload, launch, kernel, download, gaps, total).
inline EndToEndRun endToEndCaseRun(EndToEndStrategy strategy, int chunks, EndToEndParts median) {
  EndToEndRun r;
  r.strategy = strategy;
  r.chunks = chunks;
  r.queues = chunks > 1 ? 2 : 1;
  r.upload_bytes = 2ull << 28;
  r.download_bytes = 1ull << 28;
  r.upload_buffers = 2;
  r.download_buffers = 1;
  r.launches = chunks;
  for (int k = 0; k < chunks; ++k) r.chunk_elements.push_back((1ull << 26) / std::uint64_t(chunks));
  r.median = median;
  r.repetitions = {median};
  r.verification.status = VerificationStatus::passed;
  return r;
}

// Each record with the ceilings its analysis reads.
struct EndToEndCase {
  RunRecord record;
  bool link = true;    // the link ceilings measured
  bool launch = true;  // the launch times measured
};

inline std::vector<EndToEndCase> endToEndCases() {
  std::vector<EndToEndCase> cases;
  {  // link-up, link-down, launch, kernel and host bounds; a failed run; the best beats copy
    EndToEndCase& c = cases.emplace_back();
    c.record.timings.emplace().kernel_ns.median = 270'000;
    EndToEndRun wrong = endToEndCaseRun(EndToEndStrategy::use_host_ptr, 1, {1e3, 1e3, 1e3, 1e3, 0, 4e3});
    wrong.verification.status = VerificationStatus::failed;
    EndToEndRun mapped = endToEndCaseRun(EndToEndStrategy::map, 1, {1e6, 2e3, 270e3, 30e6, 1e6, 32.3e6});
    mapped.host_copy_bytes = 3ull << 27;
    EndToEndRun launches = endToEndCaseRun(EndToEndStrategy::overlap, 7, {1e5, 5.5e6, 270e3, 1e5, 0, 5.9e6});
    EndToEndRun hosted = endToEndCaseRun(EndToEndStrategy::alloc_host_ptr, 1, {2e3, 7e3, 270e3, 2e3, 40e6, 40.3e6});
    hosted.host_copy_bytes = 3ull << 28;
    c.record.end_to_end.emplace().runs = {
        endToEndCaseRun(EndToEndStrategy::copy, 1, {70e6, 7e3, 270e3, 27e6, 1e6, 98.3e6}),
        wrong,
        mapped,
        endToEndCaseRun(EndToEndStrategy::overlap, 1, {22e6, 2e3, 270e3, 11e6, 0, 33.3e6}),
        launches,
        endToEndCaseRun(EndToEndStrategy::overlap, 4, {1e6, 8e3, 21.5e6, 1e6, 0, 23e6}),
        hosted};
  }
  {  // one launch over the launch-bound line, a use-host-ptr run with no ceiling: the fastest alone
    EndToEndCase& c = cases.emplace_back();
    c.record.timings.emplace().kernel_ns.median = 800;
    c.record.end_to_end.emplace().runs = {
        endToEndCaseRun(EndToEndStrategy::use_host_ptr, 1, {1e3, 9e3, 800, 1e3, 0, 11.8e3})};
  }
  {  // no link ceilings
    EndToEndCase& c = cases.emplace_back();
    c.link = false;
    c.record.timings.emplace().kernel_ns.median = 270'000;
    c.record.end_to_end.emplace().runs = {
        endToEndCaseRun(EndToEndStrategy::copy, 1, {70e6, 7e3, 270e3, 27e6, 1e6, 98.3e6}),
        endToEndCaseRun(EndToEndStrategy::map, 1, {60e6, 7e3, 270e3, 27e6, 1e6, 88.3e6})};
  }
  {  // no launch time; every run failed: no verified run
    EndToEndCase& c = cases.emplace_back();
    c.launch = false;
    EndToEndRun wrong = endToEndCaseRun(EndToEndStrategy::copy, 1, {70e6, 7e3, 270e3, 27e6, 1e6, 98.3e6});
    wrong.verification.status = VerificationStatus::failed;
    c.record.end_to_end.emplace().runs = {wrong};
  }
  {  // no kernel median; a measured run with zero times: undetermined
    EndToEndCase& c = cases.emplace_back();
    c.record.end_to_end.emplace().runs = {endToEndCaseRun(EndToEndStrategy::copy, 1, {0, 0, 0, 0, 0, 0})};
  }
  return cases;
}

inline EndToEndCeilings endToEndCaseCeilings(const EndToEndCase& c, const LinkCeilings& link) {
  EndToEndCeilings ceilings;
  if (c.link) ceilings.link = &link;
  if (c.launch) {
    ceilings.launch_ns = 7'000;
    ceilings.queued_launch_ns = 2'000;
  }
  return ceilings;
}

}  // namespace rooflab::testing
