#include "reports/html/html_style.hpp"

namespace rooflab::reports {
namespace {

constexpr std::string_view kStyleSheet = R"css(
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0 auto; padding: 1.5em 2em 3em;
       max-width: 1280px; color: #1a1a1a; background: #fff; line-height: 1.4; }
h1 { margin-bottom: 0.2em; }
h2 { border-bottom: 2px solid #1a1a1a; padding-bottom: 0.2em; margin-top: 2.2em; }
h3 { margin-top: 1.6em; }
nav a { margin-right: 1em; }
.meta { color: #555; }
.banner { background: #fff3cd; border: 1px solid #e0b000; padding: 0.6em 1em; }
figure { margin: 1em 0; }
svg.roofline { width: 100%; height: auto; border: 1px solid #ddd; }
svg.roofline g.point:hover > *, svg.roofline g.point:focus > * { stroke-width: 3; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.group-start td { border-top: 2px solid #666; }
tr.failed td { background: #fde8e8; }
tr.error td, tr.skipped td { background: #f6f6f6; }
.bad { color: #b00020; font-weight: bold; }
.muted { color: #666; }
pre { white-space: pre-wrap; word-break: break-word; margin: 0.2em 0; font-size: 0.92em; }
pre.config { background: #f7f7f7; border: 1px solid #ddd; padding: 0.8em; }
.mutation { border: 1px solid #ccc; border-radius: 4px; padding: 0.5em 1em; margin: 0.8em 0; }
.mutation h4 { margin: 0.2em 0 0.5em; }
.bar-row { display: flex; align-items: center; gap: 0.6em; margin: 0.15em 0; }
.bar-label { width: 11em; }
.bar { flex: 0 0 420px; height: 1.1em; background: #f0f0f0; position: relative; }
.bar > span { position: absolute; left: 0; top: 0; bottom: 0; }
.fill-total { background: #555; }
.fill-memory { background: #0072b2; }
.fill-compute { background: #e69f00; }
.verdict { padding: 0.05em 0.5em; border-radius: 3px; background: #eee; font-weight: normal; white-space: nowrap; }
table.counters td, table.mutants td { white-space: nowrap; }
.verdict-memory-bound { background: #d6eaf8; }
.verdict-compute-bound { background: #fdebd0; }
.verdict-latency-bound { background: #e8daef; }
.verdict-balanced { background: #d5f5e3; }
.verdict-memory-leaning { background: #eaf2f8; }
.verdict-compute-leaning { background: #fef5e7; }
.verdict-overhead-dominated { background: #f2f3f4; }
.bound-memory { background: #d6eaf8; }
.bound-compute { background: #fdebd0; }
.bound-latency { background: #e8daef; }
.disagreement { font-size: 0.85em; color: #8a4b00; white-space: nowrap; }
td.diagnosis { cursor: help; }
ul.validation { margin: 0.3em 0; }
details summary { cursor: pointer; }
details.mutation > summary h4 { display: inline; margin: 0; }
details.mutation[open] > summary { margin-bottom: 0.5em; }
)css";

}  // namespace

std::string_view reportStyleSheet() { return kStyleSheet; }

}  // namespace rooflab::reports
