#include "reports/html/html_chart_controls.hpp"

#include <string_view>

#include "reports/chart/chart_scene.hpp"
#include "reports/html/html_text.hpp"
#include "reports/html/svg_chart.hpp"

namespace rooflab::reports {
namespace {

constexpr std::string_view kControlsStyle = R"css(
.chart-controls { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; align-items: flex-start; margin: 0.4em 0; }
.chart-controls button { font: inherit; font-size: 0.9em; padding: 0.1em 0.6em; }
.chart-controls fieldset { border: 1px solid #ddd; margin: 0; padding: 0.2em 0.8em 0.4em; }
.chart-controls fieldset label { display: inline-block; margin-right: 1em; white-space: nowrap; }
.chart-controls .swatch { display: inline-block; width: 0.8em; height: 0.8em; border: 1px solid #1a1a1a; border-radius: 50%; }
svg.roofline.zoomable { cursor: crosshair; touch-action: none; }
)css";

// Drag a box on the chart to zoom into it; the buttons zoom about the centre, "reset" (or a double
// click) shows the whole chart. The checkboxes hide a variant's points, bars and labels and dim its
// legend entry; clicking a legend entry in the chart toggles it too.
constexpr std::string_view kControlsScript = R"js(
(function () {
  'use strict';
  function setUp(figure) {
    var svg = figure.querySelector('svg.roofline');
    var controls = figure.querySelector('.chart-controls');
    if (!svg || !controls) return;
    var full = svg.getAttribute('viewBox').split(' ').map(Number);
    var view = full.slice();
    function show() { svg.setAttribute('viewBox', view.join(' ')); }
    function clampView() {
      view[2] = Math.min(view[2], full[2]);
      view[3] = Math.min(view[3], full[3]);
      view[0] = Math.min(Math.max(view[0], full[0]), full[0] + full[2] - view[2]);
      view[1] = Math.min(Math.max(view[1], full[1]), full[1] + full[3] - view[3]);
    }
    function zoomAbout(factor, cx, cy) {
      view = [cx - (cx - view[0]) * factor, cy - (cy - view[1]) * factor, view[2] * factor, view[3] * factor];
      clampView();
      show();
    }
    function reset() { view = full.slice(); show(); }
    function toChart(evt) {
      var box = svg.getBoundingClientRect();
      return [view[0] + (evt.clientX - box.left) / box.width * view[2],
              view[1] + (evt.clientY - box.top) / box.height * view[3]];
    }
    controls.querySelectorAll('button[data-zoom]').forEach(function (button) {
      button.addEventListener('click', function () {
        var kind = button.getAttribute('data-zoom');
        if (kind === 'reset') { reset(); return; }
        zoomAbout(kind === 'in' ? 0.66 : 1.5, view[0] + view[2] / 2, view[1] + view[3] / 2);
      });
    });
    svg.classList.add('zoomable');
    var start = null;
    var band = document.createElementNS(svg.namespaceURI, 'rect');
    band.setAttribute('fill', 'rgba(0,114,178,0.12)');
    band.setAttribute('stroke', '#0072b2');
    band.setAttribute('stroke-dasharray', '6 4');
    band.setAttribute('pointer-events', 'none');
    function drawBand(a, b) {
      band.setAttribute('x', Math.min(a[0], b[0]));
      band.setAttribute('y', Math.min(a[1], b[1]));
      band.setAttribute('width', Math.abs(a[0] - b[0]));
      band.setAttribute('height', Math.abs(a[1] - b[1]));
      band.setAttribute('stroke-width', view[2] / full[2] * 2);
    }
    svg.addEventListener('pointerdown', function (evt) {
      if (evt.button !== 0 || evt.target.closest('[data-legend]')) return;
      start = toChart(evt);
      drawBand(start, start);
      svg.appendChild(band);
      svg.setPointerCapture(evt.pointerId);
    });
    svg.addEventListener('pointermove', function (evt) { if (start) drawBand(start, toChart(evt)); });
    svg.addEventListener('pointerup', function (evt) {
      if (!start) return;
      var end = toChart(evt);
      band.remove();
      var width = Math.abs(end[0] - start[0]), height = Math.abs(end[1] - start[1]);
      if (width > view[2] / 50 && height > view[3] / 50) {
        // Keep the chart's aspect: the larger side of the box decides.
        var scale = Math.max(width / full[2], height / full[3]);
        var cx = (start[0] + end[0]) / 2, cy = (start[1] + end[1]) / 2;
        view = [cx - full[2] * scale / 2, cy - full[3] * scale / 2, full[2] * scale, full[3] * scale];
        clampView();
        show();
      }
      start = null;
    });
    svg.addEventListener('dblclick', reset);

    function setSeries(index, visible) {
      svg.querySelectorAll('[data-series="' + index + '"]').forEach(function (item) {
        item.style.display = visible ? '' : 'none';
      });
      svg.querySelectorAll('[data-legend="' + index + '"]').forEach(function (item) {
        item.style.opacity = visible ? '' : '0.3';
      });
    }
    var boxes = controls.querySelectorAll('input[data-series]');
    boxes.forEach(function (box) {
      box.addEventListener('change', function () { setSeries(box.getAttribute('data-series'), box.checked); });
    });
    controls.querySelectorAll('button[data-show-all]').forEach(function (button) {
      button.addEventListener('click', function () {
        var visible = button.getAttribute('data-show-all') === '1';
        boxes.forEach(function (box) { box.checked = visible; setSeries(box.getAttribute('data-series'), visible); });
      });
    });
    svg.querySelectorAll('[data-legend]').forEach(function (item) {
      item.style.cursor = 'pointer';
      item.addEventListener('click', function () {
        var box = controls.querySelector('input[data-series="' + item.getAttribute('data-legend') + '"]');
        if (!box) return;
        box.checked = !box.checked;
        setSeries(box.getAttribute('data-series'), box.checked);
      });
    });
  }
  document.querySelectorAll('figure').forEach(setUp);
})();
)js";

}  // namespace

std::string chartControlsHtml(const RooflineChart& chart) { return chartControlsHtml(chart.series); }

std::string chartControlsHtml(const std::vector<VariantSeries>& series) {
  std::string html = "<div class=\"chart-controls\">\n<div class=\"chart-zoom\">Zoom: "
                     "<button type=\"button\" data-zoom=\"in\">+</button> "
                     "<button type=\"button\" data-zoom=\"out\">−</button> "
                     "<button type=\"button\" data-zoom=\"reset\">reset</button>"
                     " <span class=\"muted\">or drag a box on the chart; double-click resets</span></div>\n";
  if (!series.empty()) {
    html += "<fieldset class=\"variant-filter\"><legend>Variants shown</legend>\n";
    for (std::size_t index = 0; index < series.size(); ++index) {
      html += "<label><input type=\"checkbox\" checked data-series=\"" + std::to_string(index) +
              "\"> <span class=\"swatch\" style=\"background:" + hexColor(seriesColor(index)) + "\"></span> " +
              escapeHtml(series[index].variant) + "</label>\n";
    }
    html += "<button type=\"button\" data-show-all=\"1\">all</button> "
            "<button type=\"button\" data-show-all=\"0\">none</button></fieldset>\n";
  }
  return html + "</div>\n";
}

std::string chartScriptHtml() {
  return "<style>" + std::string(kControlsStyle) + "</style>\n<script id=\"chart-controls\">" +
         std::string(kControlsScript) + "</script>\n";
}

}  // namespace rooflab::reports
