#include "reports/chart/png_report.hpp"

#include <cairo.h>

#include <memory>
#include <stdexcept>
#include <variant>

#include "analyzer/support/atomic_file.hpp"
#include "reports/text/results_order.hpp"
#include "reports/chart/end_to_end_chart.hpp"
#include "reports/chart/family_charts.hpp"
#include "reports/chart/roofline_chart.hpp"

namespace rooflab::reports {
namespace {

constexpr const char* kFontFace = "DejaVu Sans";

using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using ContextPtr = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

void setColor(cairo_t* cr, Rgb color) {
  cairo_set_source_rgb(cr, color.red / 255.0, color.green / 255.0, color.blue / 255.0);
}

void setDash(cairo_t* cr, StrokeDash dash, double width_px) {
  switch (dash) {
    case StrokeDash::solid:
      cairo_set_dash(cr, nullptr, 0, 0);
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
      break;
    case StrokeDash::dashed: {
      const double pattern[] = {width_px * 4, width_px * 2.5};
      cairo_set_dash(cr, pattern, 2, 0);
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
      break;
    }
    case StrokeDash::dotted: {  // the same pattern as the SVG drawer's stroke-dasharray
      const double pattern[] = {width_px * 0.1, width_px * 2.2};
      cairo_set_dash(cr, pattern, 2, 0);
      cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
      break;
    }
  }
}

class CairoWriter {
 public:
  explicit CairoWriter(cairo_t* cr) : cr_(cr) {}

  void operator()(const SceneRect& rect) {
    cairo_rectangle(cr_, rect.top_left.x_px, rect.top_left.y_px, rect.width_px, rect.height_px);
    if (rect.fill) {
      setColor(cr_, *rect.fill);
      cairo_fill_preserve(cr_);
    }
    if (rect.stroke) {
      setColor(cr_, *rect.stroke);
      setDash(cr_, StrokeDash::solid, rect.stroke_width_px);
      cairo_set_line_width(cr_, rect.stroke_width_px);
      cairo_stroke_preserve(cr_);
    }
    cairo_new_path(cr_);
  }

  void operator()(const SceneLine& line) {
    setColor(cr_, line.color);
    cairo_set_line_width(cr_, line.width_px);
    setDash(cr_, line.dash, line.width_px);
    cairo_move_to(cr_, line.from.x_px, line.from.y_px);
    cairo_line_to(cr_, line.to.x_px, line.to.y_px);
    cairo_stroke(cr_);
  }

  void operator()(const SceneText& text) {
    cairo_save(cr_);
    cairo_select_font_face(cr_, kFontFace, CAIRO_FONT_SLANT_NORMAL,
                           text.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr_, text.font_px);
    setColor(cr_, text.color);
    cairo_translate(cr_, text.baseline.x_px, text.baseline.y_px);
    cairo_rotate(cr_, text.rotation_deg * 3.14159265358979323846 / 180.0);
    cairo_text_extents_t extents;
    cairo_text_extents(cr_, text.text.c_str(), &extents);
    double x = 0;
    if (text.align == TextAlign::middle) x = -extents.x_advance / 2;
    if (text.align == TextAlign::end) x = -extents.x_advance;
    cairo_move_to(cr_, x, 0);
    cairo_show_text(cr_, text.text.c_str());
    cairo_new_path(cr_);  // show_text leaves a current point that the next arc would join
    cairo_restore(cr_);
  }

  void operator()(const SceneMarker& marker) {
    cairo_new_path(cr_);
    if (marker.shape == MarkerShape::circle) {
      cairo_arc(cr_, marker.center.x_px, marker.center.y_px, marker.radius_px, 0, 2 * 3.14159265358979323846);
    } else {
      const auto corners = markerPolygon(marker.shape, marker.center, marker.radius_px);
      cairo_move_to(cr_, corners.front().x_px, corners.front().y_px);
      for (std::size_t i = 1; i < corners.size(); ++i) cairo_line_to(cr_, corners[i].x_px, corners[i].y_px);
      cairo_close_path(cr_);
    }
    const double outline_px = marker.hollow ? 3 : 1.5;
    setColor(cr_, marker.hollow ? Rgb{0xff, 0xff, 0xff} : marker.fill);
    cairo_fill_preserve(cr_);
    setColor(cr_, marker.hollow ? marker.fill : Rgb{0x1a, 0x1a, 0x1a});
    setDash(cr_, StrokeDash::solid, outline_px);
    cairo_set_line_width(cr_, outline_px);
    cairo_stroke(cr_);
  }

 private:
  cairo_t* cr_;
};

cairo_status_t appendToString(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

}  // namespace

std::string renderPng(const ChartScene& scene) {
  SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(scene.width_px),
                                                static_cast<int>(scene.height_px)),
                     &cairo_surface_destroy);
  if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cairo: cannot create the image surface: ") +
                             cairo_status_to_string(cairo_surface_status(surface.get())));
  }
  {
    ContextPtr cr(cairo_create(surface.get()), &cairo_destroy);
    CairoWriter writer(cr.get());
    for (const SceneItem& item : scene.items) std::visit(writer, item);
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS) {
      throw std::runtime_error(std::string("cairo: drawing failed: ") + cairo_status_to_string(cairo_status(cr.get())));
    }
  }
  std::string png_bytes;
  const cairo_status_t status = cairo_surface_write_to_png_stream(surface.get(), &appendToString, &png_bytes);
  if (status != CAIRO_STATUS_SUCCESS) {
    throw std::runtime_error(std::string("cairo: cannot encode PNG: ") + cairo_status_to_string(status));
  }
  return png_bytes;
}

std::string rooflinePngFileName(const std::string& family, const std::string& suffix) {
  return chartPngFileName("roofline", family, suffix);
}

std::vector<std::filesystem::path> writePngReports(const AnalysedResults& results, const std::filesystem::path& out_dir,
                                                   const ChartStyle& style, const ChartOptions& chart_options,
                                                   const std::string& name_suffix) {
  std::vector<std::filesystem::path> written;
  auto write = [&](const std::string& name, const ChartScene& scene) {
    const std::filesystem::path file = out_dir / name;
    writeFileAtomically(file, renderPng(scene));
    written.push_back(file);
  };
  for (const std::string& family : familiesInRunOrder(results)) {
    const FamilyCharts charts = buildFamilyCharts(results, family, chart_options);
    if (charts.roofline) write(rooflinePngFileName(family, name_suffix), layoutRooflineChart(*charts.roofline, style));
    if (charts.bandwidth)
      write(chartPngFileName("bandwidth", family, name_suffix), layoutBandwidthChart(*charts.bandwidth, style));
    if (charts.instructions)
      write(chartPngFileName("instructions", family, name_suffix), layoutRooflineChart(*charts.instructions, style));
    // Families with end-to-end runs get their bars too.
    if (const std::optional<ChartScene> bars = layoutEndToEndChart(results, family, style))
      write(chartPngFileName("end-to-end", family, name_suffix), *bars);
  }
  return written;
}

}  // namespace rooflab::reports
