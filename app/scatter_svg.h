// A log-log scatter plot as a small standalone SVG: `gputlm validate`'s scatter.svg of simulated
// against measured cycles, one point per kernel, with the y = x line, decade ticks and labelled
// axes. No plotting library: a few SVG elements written by hand.
#pragma once

#include <string>
#include <vector>

namespace gputlm::app {

struct ScatterPoint {
  double x = 0, y = 0;  // both positive (others are left out)
  std::string label;    // the point's tooltip (an SVG <title>)
};

struct ScatterPlot {
  std::string title, x_label, y_label;
  std::vector<ScatterPoint> points;
};

// The SVG document (600 x 600 pixels). The axes span the decades around every point's x and y,
// the same range on both so that y = x is the diagonal.
std::string scatter_svg(const ScatterPlot& plot);

}  // namespace gputlm::app
