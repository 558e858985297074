// The host-link and launch part of `rooflab ceilings`' terminal table (formatLinkCeilings): it reads
// only the report.
#include <sstream>
#include <string>

#include "analyzer/ceilings/ceilings.hpp"
#include "analyzer/support/format.hpp"

namespace rooflab {
namespace {

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string usText(double ns) { return formatFixed(ns / 1000, ns < 10'000 ? 2 : 1) + " us"; }

std::string sizeText(std::uint64_t bytes) {
  constexpr double kMiB = 1024.0 * 1024.0;
  return bytes >= 1024 * 1024 ? formatNumber(double(bytes) / kMiB) + " MiB"
                              : formatNumber(double(bytes) / 1024) + " KiB";
}

std::string figureText(const LatencyFigure& figure) {
  if (!figure.median_ns) return "-";
  std::string text = usText(*figure.median_ns);
  if (figure.noise) text += " (±" + formatFixed(100 * *figure.noise, 1) + "%)";
  return text;
}

void printCeiling(std::ostringstream& out, const LinkCeiling& ceiling) {
  out << "  " << pad(toString(ceiling.strategy), 16) << pad(toString(ceiling.direction), 16);
  if (ceiling.error && !ceiling.latency_ns) {
    out << "FAILED: " << *ceiling.error << "\n";
    return;
  }
  std::string bandwidth = ceiling.zero_copy ? "zero-copy"
                          : ceiling.gbps    ? formatFixed(*ceiling.gbps, 2) + " GB/s"
                                            : "-";
  out << pad(bandwidth, 14) << pad(ceiling.latency_ns ? usText(*ceiling.latency_ns) : "-", 12)
      << pad(formatFixed(100 * ceiling.max_relative_residual, 0) + "%", 7) << ceiling.calls << "\n";
  if (ceiling.zero_copy) out << "  " << pad("", 32) << "zero-copy: " << ceiling.zero_copy_evidence << "\n";
  if (ceiling.error) out << "  " << pad("", 32) << "stopped early: " << *ceiling.error << "\n";
}

}  // namespace

std::string formatLinkCeilings(const CeilingsReport& report) {
  std::ostringstream out;
  if (report.link) {
    const LinkCeilings& link = *report.link;
    std::string span;
    for (const LinkCeiling& ceiling : link.transfers)
      if (!ceiling.sizes.empty()) {
        span = sizeText(ceiling.sizes.front().bytes) + " to " + sizeText(ceiling.sizes.back().bytes) + ", " +
               std::to_string(ceiling.sizes.size()) + " sizes";
        break;
      }
    out << "\nHost link: each size timed to the noise target, time = latency + bytes / bandwidth fitted over "
        << (span.empty() ? "the sizes" : span) << " (least squares on relative error):\n";
    out << "  " << pad("strategy", 16) << pad("direction", 16) << pad("bandwidth", 14) << pad("latency", 12)
        << pad("fit", 7) << "calls\n";
    for (const LinkCeiling& ceiling : link.transfers) printCeiling(out, ceiling);
    if (link.host_memcpy) printCeiling(out, *link.host_memcpy);
    for (LinkDirection direction : {LinkDirection::host_to_device, LinkDirection::device_to_host})
      if (const LinkCeiling* fastest = link.fastestLink(direction))
        out << "Link " << toString(direction) << ": " << formatFixed(*fastest->gbps, 2) << " GB/s ("
            << toString(fastest->strategy) << "), the fastest strategy that moves data.\n";
    out << "A zero-copy strategy moves no data: its time is the map's own, not a link speed.\n";
  }
  if (report.launch) {
    const LaunchCeilings& launch = *report.launch;
    out << "\nLaunch of an empty kernel: ";
    if (launch.error && !launch.queued_to_start.median_ns) {
      out << "FAILED: " << *launch.error << "\n";
    } else {
      out << "queued -> start " << figureText(launch.queued_to_start) << " (the launch latency), submitted -> end "
          << figureText(launch.submit_to_end) << ", back to back " << figureText(launch.back_to_back) << " per launch ("
          << launch.burst_launches << " launches in a burst).\n";
    }
  }
  return out.str();
}

}  // namespace rooflab
