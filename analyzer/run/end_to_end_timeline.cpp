#include "analyzer/run/end_to_end_timeline.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace rooflab {

EndToEndParts partsOf(const std::vector<TimedCommand>& all_commands) {
  EndToEndParts parts;
  std::vector<TimedCommand> commands;
  for (const TimedCommand& c : all_commands)
    if (c.reported) commands.push_back(c);
  if (commands.empty()) return parts;
  std::vector<std::pair<std::int64_t, std::int64_t>> covered;
  std::map<int, std::int64_t> queue_end;         // the end of the last command seen on each queue
  std::map<CommandPart, std::int64_t> part_end;  // and of each kind
  std::int64_t first = commands.front().queued_ns, last = commands.front().end_ns;
  for (const TimedCommand& c : commands) {
    first = std::min(first, c.queued_ns);
    last = std::max(last, c.end_ns);
    // A command's own time begins when it was queued, or when the command before it on its queue,
    // or the last command of its kind on any queue (the link a transfer shares, the device a kernel
    // shares), ended if that came later: before, it waits its turn, which is the other command's time.
    std::int64_t own_from = c.queued_ns;
    if (const auto before = queue_end.find(c.queue); before != queue_end.end())
      own_from = std::max(own_from, before->second);
    if (const auto before = part_end.find(c.part); before != part_end.end())
      own_from = std::max(own_from, before->second);
    own_from = std::min(own_from, c.start_ns);
    const std::int64_t end = std::max(c.start_ns, c.end_ns);
    const double own = static_cast<double>(end - own_from);
    switch (c.part) {
      case CommandPart::upload: parts.upload_ns += own; break;
      case CommandPart::download: parts.download_ns += own; break;
      case CommandPart::kernel:
        parts.kernel_ns += static_cast<double>(end - c.start_ns);
        parts.launch_ns += static_cast<double>(c.start_ns - own_from);
        break;
    }
    covered.emplace_back(own_from, end);
    queue_end[c.queue] = std::max(queue_end[c.queue], end);
    part_end[c.part] = std::max(part_end[c.part], end);
  }
  std::sort(covered.begin(), covered.end());
  std::int64_t union_ns = 0, open = covered.front().first, close = covered.front().second;
  for (const auto& [from, to] : covered) {
    if (from > close) {
      union_ns += close - open;
      open = from;
    }
    close = std::max(close, to);
  }
  union_ns += close - open;
  parts.total_ns = static_cast<double>(last - first);
  parts.gaps_ns = std::max(0.0, parts.total_ns - static_cast<double>(union_ns));
  return parts;
}

}  // namespace rooflab
