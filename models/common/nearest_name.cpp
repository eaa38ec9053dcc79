#include "models/common/nearest_name.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace gputlm {

size_t edit_distance(const std::string& a, const std::string& b) {
  // Optimal string alignment distance: Levenshtein plus adjacent transpositions ("bnaks" -> "banks"
  // is 1).
  auto eq = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (eq(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && eq(a[i - 1], b[j - 2]) && eq(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string nearest_name(const std::string& word, const std::vector<std::string>& known) {
  const size_t limit = std::max<size_t>(1, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& k : known) {
    const size_t d = edit_distance(word, k);
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  if (best.empty() && word.size() >= 3)  // a name cut short: "fermi" for "fermi-gtx480"
    for (const std::string& k : known)
      if (k.size() > word.size() && edit_distance(k.substr(0, word.size()), word) == 0) return k;
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& known) {
  const std::string n = nearest_name(word, known);
  return n.empty() ? "" : " (did you mean '" + n + "'?)";
}

std::string did_you_mean_file(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "";
  std::vector<std::string> stems;  // compared without the extension
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == p.extension() && e.is_directory(ec) == p.extension().empty())
      stems.push_back(e.path().stem().string());
  std::sort(stems.begin(), stems.end());
  const std::string n = nearest_name(p.stem().string(), stems);
  return n.empty() ? ""
                   : " (did you mean '" +
                         (p.parent_path() / (n + p.extension().string())).string() + "'?)";
}

}  // namespace gputlm
