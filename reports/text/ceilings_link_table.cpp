// The host-link and launch part of `rooflab ceilings`' terminal table (linkCeilingsTable): it reads
// only the report.
#include <sstream>
#include <string>

#include "analyzer/support/format.hpp"
#include "reports/text/ceilings_table.hpp"
#include "reports/text/number_format.hpp"
#include "reports/text/ceilings_sentences.hpp"

namespace rooflab::reports {
namespace {

std::string linkCeilingsPad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string linkCeilingsUsText(double ns) { return formatFixedAsWritten(ns / 1000, ns < 10'000 ? 2 : 1) + " us"; }

std::string linkCeilingsSizeText(std::uint64_t bytes) {
  constexpr double kMiB = 1024.0 * 1024.0;
  return bytes >= 1024 * 1024 ? formatNumber(double(bytes) / kMiB) + " MiB"
                              : formatNumber(double(bytes) / 1024) + " KiB";
}

std::string linkCeilingsFigureText(const LatencyFigure& figure) {
  if (!figure.median_ns) return "-";
  std::string text = linkCeilingsUsText(*figure.median_ns);
  if (figure.noise) text += " (±" + formatFixedAsWritten(100 * *figure.noise, 1) + "%)";
  return text;
}

void writeLinkCeiling(std::ostringstream& out, const LinkCeiling& ceiling) {
  out << "  " << linkCeilingsPad(toString(ceiling.strategy), 16) << linkCeilingsPad(toString(ceiling.direction), 16);
  if (ceiling.error && !ceiling.latency_ns) {
    out << "FAILED: " << *ceiling.error << "\n";
    return;
  }
  std::string bandwidth = ceiling.zero_copy ? "zero-copy"
                          : ceiling.gbps    ? formatFixedAsWritten(*ceiling.gbps, 2) + " GB/s"
                                            : "-";
  out << linkCeilingsPad(bandwidth, 14)
      << linkCeilingsPad(ceiling.latency_ns ? linkCeilingsUsText(*ceiling.latency_ns) : "-", 12)
      << linkCeilingsPad(formatFixedAsWritten(100 * ceiling.max_relative_residual, 0) + "%", 7) << ceiling.calls
      << "\n";
  if (ceiling.zero_copy)
    out << "  " << linkCeilingsPad("", 32) << "zero-copy: " << zeroCopyEvidenceText(ceiling) << "\n";
  if (ceiling.error) out << "  " << linkCeilingsPad("", 32) << "stopped early: " << *ceiling.error << "\n";
}

}  // namespace

std::string linkCeilingsTable(const CeilingsReport& report) {
  std::ostringstream out;
  if (report.link) {
    const LinkCeilings& link = *report.link;
    std::string span;
    for (const LinkCeiling& ceiling : link.transfers)
      if (!ceiling.sizes.empty()) {
        span = linkCeilingsSizeText(ceiling.sizes.front().bytes) + " to " +
               linkCeilingsSizeText(ceiling.sizes.back().bytes) + ", " + std::to_string(ceiling.sizes.size()) +
               " sizes";
        break;
      }
    out << "\nHost link: each size timed to the noise target, time = latency + bytes / bandwidth fitted over "
        << (span.empty() ? "the sizes" : span) << " (least squares on relative error):\n";
    out << "  " << linkCeilingsPad("strategy", 16) << linkCeilingsPad("direction", 16)
        << linkCeilingsPad("bandwidth", 14) << linkCeilingsPad("latency", 12) << linkCeilingsPad("fit", 7) << "calls\n";
    for (const LinkCeiling& ceiling : link.transfers) writeLinkCeiling(out, ceiling);
    if (link.host_memcpy) writeLinkCeiling(out, *link.host_memcpy);
    for (LinkDirection direction : {LinkDirection::host_to_device, LinkDirection::device_to_host})
      if (const LinkCeiling* fastest = link.fastestLink(direction))
        out << "Link " << toString(direction) << ": " << formatFixedAsWritten(*fastest->gbps, 2) << " GB/s ("
            << toString(fastest->strategy) << "), the fastest strategy that moves data.\n";
    out << "A zero-copy strategy moves no data: its time is the map's own, not a link speed.\n";
  }
  if (report.launch) {
    const LaunchCeilings& launch = *report.launch;
    out << "\nLaunch of an empty kernel: ";
    if (launch.error && !launch.queued_to_start.median_ns) {
      out << "FAILED: " << *launch.error << "\n";
    } else {
      out << "queued -> start " << linkCeilingsFigureText(launch.queued_to_start)
          << " (the launch latency), submitted -> end " << linkCeilingsFigureText(launch.submit_to_end)
          << ", back to back " << linkCeilingsFigureText(launch.back_to_back) << " per launch ("
          << launch.burst_launches << " launches in a burst).\n";
    }
  }
  return out.str();
}

}  // namespace rooflab::reports
