#include "app/scatter_svg.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gputlm::app {

namespace {

std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// 10^e as the tick's label: 1, 10, 100, 1k, 10k, 100k, 1M, ..., else 1e12.
std::string decade(int e) {
  static const char* names[] = {"1",  "10",  "100",  "1k", "10k", "100k",
                                "1M", "10M", "100M", "1G", "10G", "100G"};
  return e >= 0 && e < 12 ? names[e] : "1e" + std::to_string(e);
}

}  // namespace

std::string scatter_svg(const ScatterPlot& plot) {
  const double size = 600, left = 80, top = 50, side = 480;  // the square plot area
  std::vector<const ScatterPoint*> points;
  double lo = INFINITY, hi = 0;
  for (const ScatterPoint& p : plot.points)
    if (p.x > 0 && p.y > 0 && std::isfinite(p.x) && std::isfinite(p.y)) {
      points.push_back(&p);
      lo = std::min({lo, p.x, p.y});
      hi = std::max({hi, p.x, p.y});
    }
  int e0 = 0, e1 = 1;
  if (!points.empty()) {
    e0 = static_cast<int>(std::floor(std::log10(lo)));
    e1 = std::max(e0 + 1, static_cast<int>(std::ceil(std::log10(hi))));
  }
  auto pos = [&](double v) { return (std::log10(v) - e0) / (e1 - e0) * side; };
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << size << "\" height=\"" << size
    << "\" viewBox=\"0 0 " << size << " " << size
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    << "<text x=\"" << size / 2 << "\" y=\"28\" text-anchor=\"middle\" font-size=\"14\">"
    << escaped(plot.title) << "</text>\n";
  for (int e = e0; e <= e1; ++e) {  // grid lines and tick labels at each decade
    const double at = (e - e0) * side / (e1 - e0);
    s << "<line x1=\"" << left + at << "\" y1=\"" << top << "\" x2=\"" << left + at << "\" y2=\""
      << top + side << "\" stroke=\"#ddd\"/>\n"
      << "<line x1=\"" << left << "\" y1=\"" << top + side - at << "\" x2=\"" << left + side
      << "\" y2=\"" << top + side - at << "\" stroke=\"#ddd\"/>\n"
      << "<text x=\"" << left + at << "\" y=\"" << top + side + 18 << "\" text-anchor=\"middle\">"
      << decade(e) << "</text>\n"
      << "<text x=\"" << left - 8 << "\" y=\"" << top + side - at + 4 << "\" text-anchor=\"end\">"
      << decade(e) << "</text>\n";
  }
  s << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << side << "\" height=\"" << side
    << "\" fill=\"none\" stroke=\"black\"/>\n"
    << "<line x1=\"" << left << "\" y1=\"" << top + side << "\" x2=\"" << left + side << "\" y2=\""
    << top << "\" stroke=\"#888\" stroke-dasharray=\"6,4\"/>\n"
    << "<text x=\"" << left + side - 30 << "\" y=\"" << top + 16
    << "\" text-anchor=\"end\" fill=\"#888\">y = x</text>\n";
  for (const ScatterPoint* p : points)
    s << "<g><title>" << escaped(p->label) << "</title><circle cx=\"" << left + pos(p->x)
      << "\" cy=\"" << top + side - pos(p->y) << "\" r=\"4\" fill=\"#1f77b4\"/></g>\n";
  s << "<text x=\"" << left + side / 2 << "\" y=\"" << top + side + 40
    << "\" text-anchor=\"middle\">" << escaped(plot.x_label) << "</text>\n"
    << "<text transform=\"translate(24," << top + side / 2
    << ") rotate(-90)\" text-anchor=\"middle\">" << escaped(plot.y_label) << "</text>\n"
    << "</svg>\n";
  return s.str();
}

}  // namespace gputlm::app
