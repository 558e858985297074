#include "reports/text/capture_text.hpp"

#include <cstring>
#include <map>
#include <sstream>

#include "reports/text/number_format.hpp"
#include "reports/text/text_layout.hpp"

namespace rooflab::reports {
namespace {

std::string sizesText(const std::vector<std::uint64_t>& sizes) {
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) out += (i ? "x" : "") + std::to_string(sizes[i]);
  return out;
}

}  // namespace

std::string programEndText(const CapturedProcess& process) {
  const std::string program = process.command.empty() ? "the program" : process.command.front();
  const std::string after = " after " + formatDurationNs(static_cast<double>(process.wall_ns));
  if (process.signal)
    return program + " was killed by signal " + std::to_string(*process.signal) + " (" + strsignal(*process.signal) +
           ")" + after;
  return program + " exited with code " + std::to_string(process.exit_code.value_or(-1)) + after;
}

std::string incompleteReason(const CapturedProcess& process, bool log_reached_exit) {
  if (process.signal) return "the program was killed by signal " + std::to_string(*process.signal) + " before it ended";
  if (process.exit_code.value_or(0) != 0) return "the program exited with code " + std::to_string(*process.exit_code);
  if (!log_reached_exit)
    return "the log does not reach the program's exit (it ended without running its exit handlers)";
  return "";
}

std::string familyWorkCountText(const FamilyWorkCount& count) {
  std::ostringstream out;
  out << "work of " << count.family;
  if (!count.work) {
    out << ": unmeasured (" << count.unmeasured_reason << "); the replay runs and verifies it, unplaced\n";
    return out.str();
  }
  const MeasuredWork& work = *count.work;
  out << " (oclgrind, " << formatFixed(count.wall_s, 1) << " s): " << formatCount(work.flops) << " flops, "
      << formatCount(work.global_accesses) << " global accesses, " << formatBytes(work.bytes);
  if (work.counted_work_groups < work.total_work_groups)
    out << ", scaled from " << work.counted_work_groups << " of " << work.total_work_groups << " work-groups";
  out << "\n";
  return out.str();
}

std::string noOpenClCallText(const CapturedProcess& process) {
  std::ostringstream out;
  out << "no OpenCL call was seen (mechanism: " << process.mechanism << ", "
      << (process.mechanism == "layer" ? "OPENCL_LAYERS" : "LD_PRELOAD") << " named librooflab_capture.so).\n";
  if (process.mechanism == "layer")
    out << "  If the program does use OpenCL, it may bring its own OpenCL loader, which ignores OPENCL_LAYERS:\n"
           "  try again with --mechanism preload.\n";
  else
    out << "  If the program does use OpenCL, it may load libOpenCL itself (dlopen), which a preload does not\n"
           "  see: try again with --mechanism layer (the default).\n";
  return out.str();
}

std::string captureSummaryText(const CaptureReading& reading, const std::filesystem::path& folder,
                               const std::filesystem::path& replay_config, std::size_t families,
                               const std::vector<std::string>& skipped) {
  const CaptureLog& log = reading.log;
  std::ostringstream out;
  std::size_t kernel_commands = 0;
  for (const CapturedLaunch& l : log.launches) kernel_commands += l.commands;
  out << "captured on " << (log.device_name.empty() ? "an unnamed device" : log.device_name)
      << (log.platform_name.empty() ? "" : " (" + log.platform_name + ")") << ": "
      << plural(log.programs.size(), "program", "programs") << ", " << plural(log.kernels.size(), "kernel", "kernels")
      << ", " << plural(log.launches.size(), "distinct launch", "distinct launches") << " ("
      << plural(kernel_commands, "kernel command", "kernel commands") << "), "
      << plural(log.commands.size(), "command", "commands") << " in all, "
      << plural(log.buffers.size(), "buffer", "buffers") << "\n";
  std::map<std::uint64_t, std::string> kernel_names;
  for (const CapturedKernel& k : log.kernels) kernel_names[k.id] = k.name;
  for (const CapturedLaunch& l : log.launches) {
    out << "  " << kernel_names[l.kernel_id] << ": " << plural(l.commands, "launch", "launches") << ", global "
        << sizesText(l.global_size) << ", local " << (l.local_size ? sizesText(*l.local_size) : std::string("NULL"));
    if (l.not_replayable) out << " (not replayable: " << *l.not_replayable << ")";
    out << "\n";
  }
  for (const CaptureUnsupported& u : log.unsupported)
    out << "  unsupported for replay: " << u.feature << " (" << u.call << ", " << plural(u.count, "time", "times")
        << ")\n";
  if (reading.torn_line)
    out << "  the log's last line (line " << *reading.torn_line << ") was cut short and is dropped\n";
  if (!reading.incomplete_reason.empty())
    out << "the capture is incomplete: " << reading.incomplete_reason << "; what was captured is kept and readable\n";
  for (const std::string& why : skipped) out << "  left out of the replay: " << why << "\n";
  out << "capture folder: " << folder.string() << "\n";
  if (!replay_config.empty())
    out << "replay (" << plural(families, "family", "families") << "): rooflab run " << replay_config.string() << "\n";
  else out << "no replay config: no distinct launch could be replayed\n";
  return out.str();
}

}  // namespace rooflab::reports
