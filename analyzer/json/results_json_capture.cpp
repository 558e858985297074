// The JSON edge of a captured application's timeline (docs/results-schema.md, "capture_timeline").
#include "analyzer/json/json_fields.hpp"
#include "analyzer/json/results_json.hpp"

namespace rooflab {

using namespace json_fields;

namespace {

json sizes(const std::vector<std::uint64_t>& values) { return values; }

std::vector<std::uint64_t> sizesFromJson(const json& j, std::string_view key) {
  std::vector<std::uint64_t> values;
  if (const json* list = member(j, key); list != nullptr && list->is_array())
    for (const json& value : *list)
      if (value.is_number_unsigned()) values.push_back(value.get<std::uint64_t>());
  return values;
}

// Each element of the array at `key` that is an object, read by `read`.
template <class T, class Read>
std::vector<T> listFromJson(const json& j, std::string_view key, Read read) {
  std::vector<T> out;
  if (const json* list = member(j, key); list != nullptr && list->is_array())
    for (const json& element : *list)
      if (element.is_object()) out.push_back(read(element));
  return out;
}

json toJson(const TimelinePartTime& part) {
  return {{"part", toString(part.part)},
          {"exclusive_ns", finiteOrNull(part.exclusive_ns)},
          {"busy_ns", finiteOrNull(part.busy_ns)},
          {"sum_ns", finiteOrNull(part.sum_ns)},
          {"commands", part.commands},
          {"timed_commands", part.timed_commands},
          {"bytes", part.bytes}};
}

TimelinePartTime partFromJson(const json& j) {
  TimelinePartTime part;
  part.part = parseTimelinePart(textOr(j, "part")).value_or(TimelinePart::other);
  part.exclusive_ns = numberOr(j, "exclusive_ns", 0);
  part.busy_ns = numberOr(j, "busy_ns", 0);
  part.sum_ns = numberOr(j, "sum_ns", 0);
  part.commands = integerOr<std::uint64_t>(j, "commands", 0);
  part.timed_commands = integerOr<std::uint64_t>(j, "timed_commands", 0);
  part.bytes = integerOr<std::uint64_t>(j, "bytes", 0);
  return part;
}

json toJson(const TimelineBox& box) {
  json j = {{"queue", box.queue_id},
            {"sequence", box.sequence},
            {"kind", toString(box.kind)},
            {"ready_ns", finiteOrNull(box.ready_ns)},
            {"start_ns", finiteOrNull(box.start_ns)},
            {"end_ns", finiteOrNull(box.end_ns)}};
  if (box.launch_id) j["launch"] = *box.launch_id;
  return j;
}

TimelineBox boxFromJson(const json& j) {
  TimelineBox box;
  box.queue_id = integerOr<std::uint64_t>(j, "queue", 0);
  box.sequence = integerOr<std::uint64_t>(j, "sequence", 0);
  box.kind = parseCapturedCommandKind(textOr(j, "kind")).value_or(CapturedCommandKind::other);
  box.ready_ns = numberOr(j, "ready_ns", 0);
  box.start_ns = numberOr(j, "start_ns", 0);
  box.end_ns = numberOr(j, "end_ns", 0);
  box.launch_id = optionalInteger<std::uint64_t>(j, "launch");
  return box;
}

json toJson(const TimelineQueue& queue) {
  return {{"id", queue.id},
          {"out_of_order", queue.out_of_order},
          {"commands", queue.commands},
          {"timed_commands", queue.timed_commands},
          {"busy_ns", finiteOrNull(queue.busy_ns)}};
}

TimelineQueue queueFromJson(const json& j) {
  return TimelineQueue{integerOr<std::uint64_t>(j, "id", 0), boolOr(j, "out_of_order", false),
                       integerOr<std::uint64_t>(j, "commands", 0), integerOr<std::uint64_t>(j, "timed_commands", 0),
                       numberOr(j, "busy_ns", 0)};
}

json toJson(const TimelineLinkUse& use) {
  return {{"buffers", use.buffers},
          {"use_host_ptr_buffers", use.use_host_ptr_buffers},
          {"alloc_host_ptr_buffers", use.alloc_host_ptr_buffers},
          {"copy_host_ptr_buffers", use.copy_host_ptr_buffers},
          {"blocking_copies", use.blocking_copies},
          {"non_blocking_copies", use.non_blocking_copies},
          {"maps", use.maps},
          {"unmaps", use.unmaps}};
}

TimelineLinkUse linkUseFromJson(const json& j) {
  TimelineLinkUse use;
  use.buffers = integerOr<std::uint64_t>(j, "buffers", 0);
  use.use_host_ptr_buffers = integerOr<std::uint64_t>(j, "use_host_ptr_buffers", 0);
  use.alloc_host_ptr_buffers = integerOr<std::uint64_t>(j, "alloc_host_ptr_buffers", 0);
  use.copy_host_ptr_buffers = integerOr<std::uint64_t>(j, "copy_host_ptr_buffers", 0);
  use.blocking_copies = integerOr<std::uint64_t>(j, "blocking_copies", 0);
  use.non_blocking_copies = integerOr<std::uint64_t>(j, "non_blocking_copies", 0);
  use.maps = integerOr<std::uint64_t>(j, "maps", 0);
  use.unmaps = integerOr<std::uint64_t>(j, "unmaps", 0);
  return use;
}

json toJson(const TimelineTransferPattern& pattern) {
  json what_ifs = json::array();
  for (const TimelineStrategyWhatIf& what_if : pattern.what_ifs)
    what_ifs.push_back({{"strategy", toString(what_if.strategy)},
                        {"predicted_ns", finiteOrNull(what_if.predicted_ns)},
                        {"saved_ns", finiteOrNull(what_if.saved_ns)}});
  return {{"kind", toString(pattern.kind)},
          {"direction", pattern.direction ? json(toString(*pattern.direction)) : json(nullptr)},
          {"strategy", pattern.strategy ? json(toString(*pattern.strategy)) : json(nullptr)},
          {"bytes", pattern.bytes},
          {"blocking", pattern.blocking},
          {"commands", pattern.commands},
          {"timed_commands", pattern.timed_commands},
          {"sum_ns", finiteOrNull(pattern.sum_ns)},
          {"gbps", finiteOrNull(pattern.gbps)},
          {"ceiling_gbps", finiteOrNull(pattern.ceiling_gbps)},
          {"ceiling_latency_ns", finiteOrNull(pattern.ceiling_latency_ns)},
          {"ceiling_ns", finiteOrNull(pattern.ceiling_ns)},
          {"ceiling_zero_copy", pattern.ceiling_zero_copy},
          {"what_ifs", what_ifs}};
}

TimelineTransferPattern patternFromJson(const json& j) {
  TimelineTransferPattern pattern;
  pattern.kind = parseCapturedCommandKind(textOr(j, "kind")).value_or(CapturedCommandKind::other);
  pattern.direction = parseLinkDirection(textOr(j, "direction"));
  pattern.strategy = parseLinkStrategy(textOr(j, "strategy"));
  pattern.bytes = integerOr<std::uint64_t>(j, "bytes", 0);
  pattern.blocking = boolOr(j, "blocking", false);
  pattern.commands = integerOr<std::uint64_t>(j, "commands", 0);
  pattern.timed_commands = integerOr<std::uint64_t>(j, "timed_commands", 0);
  pattern.sum_ns = numberOr(j, "sum_ns", 0);
  pattern.gbps = optionalNumber(j, "gbps");
  pattern.ceiling_gbps = optionalNumber(j, "ceiling_gbps");
  pattern.ceiling_latency_ns = optionalNumber(j, "ceiling_latency_ns");
  pattern.ceiling_ns = optionalNumber(j, "ceiling_ns");
  pattern.ceiling_zero_copy = boolOr(j, "ceiling_zero_copy", false);
  pattern.what_ifs = listFromJson<TimelineStrategyWhatIf>(j, "what_ifs", [](const json& w) {
    return TimelineStrategyWhatIf{parseEndToEndStrategy(textOr(w, "strategy")).value_or(EndToEndStrategy::copy),
                                  numberOr(w, "predicted_ns", 0), numberOr(w, "saved_ns", 0)};
  });
  return pattern;
}

json toJson(const TimelineHotspot& spot) {
  json j = {{"kernel", spot.kernel},
            {"commands", spot.commands},
            {"timed_commands", spot.timed_commands},
            {"sum_ns", finiteOrNull(spot.sum_ns)},
            {"share_of_kernels", finiteOrNull(spot.share_of_kernels)},
            {"share_of_span", finiteOrNull(spot.share_of_span)}};
  if (spot.launch_id) {
    j["launch"] = *spot.launch_id;
    j["global_size"] = sizes(spot.global_size);
    j["local_size"] = spot.local_size ? sizes(*spot.local_size) : json(nullptr);
  }
  return j;
}

TimelineHotspot hotspotFromJson(const json& j) {
  TimelineHotspot spot;
  spot.kernel = textOr(j, "kernel");
  spot.launch_id = optionalInteger<std::uint64_t>(j, "launch");
  spot.global_size = sizesFromJson(j, "global_size");
  if (member(j, "local_size") != nullptr) spot.local_size = sizesFromJson(j, "local_size");
  spot.commands = integerOr<std::uint64_t>(j, "commands", 0);
  spot.timed_commands = integerOr<std::uint64_t>(j, "timed_commands", 0);
  spot.sum_ns = numberOr(j, "sum_ns", 0);
  spot.share_of_kernels = numberOr(j, "share_of_kernels", 0);
  spot.share_of_span = numberOr(j, "share_of_span", 0);
  return spot;
}

template <class T>
json arrayOf(const std::vector<T>& values) {
  json out = json::array();
  for (const T& value : values) out.push_back(toJson(value));
  return out;
}

}  // namespace

json toJson(const CaptureTimeline& t) {
  json what_ifs = json::array();
  for (const TimelineApplicationWhatIf& w : t.application_what_ifs)
    what_ifs.push_back({{"strategy", toString(w.strategy)},
                        {"chunks", w.chunks},
                        {"predicted_ns", finiteOrNull(w.predicted_ns)},
                        {"saved_ns", finiteOrNull(w.saved_ns)}});
  return {{"command", t.command},
          {"device", t.device_name},
          {"platform", t.platform_name},
          {"process_wall_ns", finiteOrNull(t.process_wall_ns)},
          {"span_ns", finiteOrNull(t.span_ns)},
          {"parts", arrayOf(t.parts)},
          {"queues", arrayOf(t.queues)},
          {"boxes", arrayOf(t.boxes)},
          {"untimed_commands", t.untimed_commands},
          {"link_use", toJson(t.link_use)},
          {"transfers", arrayOf(t.transfers)},
          {"kernels", arrayOf(t.kernels)},
          {"launches", arrayOf(t.launches)},
          {"application_what_ifs", what_ifs},
          {"link_ceilings_measured", t.link_ceilings_measured},
          {"launch_ceiling_ns", finiteOrNull(t.launch_ceiling_ns)},
          {"log_complete", t.log_complete}};
}

CaptureTimeline captureTimelineFromJson(const json& j) {
  CaptureTimeline t;
  t.command = textList(j, "command");
  t.device_name = textOr(j, "device");
  t.platform_name = textOr(j, "platform");
  t.process_wall_ns = numberOr(j, "process_wall_ns", 0);
  t.span_ns = numberOr(j, "span_ns", 0);
  t.parts = listFromJson<TimelinePartTime>(j, "parts", partFromJson);
  t.queues = listFromJson<TimelineQueue>(j, "queues", queueFromJson);
  t.boxes = listFromJson<TimelineBox>(j, "boxes", boxFromJson);
  t.untimed_commands = integerOr<std::uint64_t>(j, "untimed_commands", 0);
  t.link_use = linkUseFromJson(objectOrEmpty(j, "link_use"));
  t.transfers = listFromJson<TimelineTransferPattern>(j, "transfers", patternFromJson);
  t.kernels = listFromJson<TimelineHotspot>(j, "kernels", hotspotFromJson);
  t.launches = listFromJson<TimelineHotspot>(j, "launches", hotspotFromJson);
  t.application_what_ifs = listFromJson<TimelineApplicationWhatIf>(j, "application_what_ifs", [](const json& w) {
    return TimelineApplicationWhatIf{parseEndToEndStrategy(textOr(w, "strategy")).value_or(EndToEndStrategy::copy),
                                     integerOr<int>(w, "chunks", 1), numberOr(w, "predicted_ns", 0),
                                     numberOr(w, "saved_ns", 0)};
  });
  t.link_ceilings_measured = boolOr(j, "link_ceilings_measured", false);
  t.launch_ceiling_ns = optionalNumber(j, "launch_ceiling_ns");
  t.log_complete = boolOr(j, "log_complete", true);
  return t;
}

}  // namespace rooflab
