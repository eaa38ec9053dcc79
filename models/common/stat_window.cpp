#include "models/common/stat_window.h"

namespace gputlm {

StatWindow::StatWindow(const std::vector<sc_core::sc_object*>& roots)
    : m_providers(stat_providers(roots)) {
  m_marks.reserve(m_providers.size());
  for (auto& [name, p] : m_providers) m_marks.push_back(p->stats().open_window());
}

StatWindow::~StatWindow() {
  if (!m_closed) close();
}

nlohmann::json StatWindow::close() {
  nlohmann::json out = nlohmann::json::object();
  for (size_t i = 0; i < m_providers.size(); ++i)
    out[m_providers[i].first] = m_providers[i].second->stats().close_window(m_marks[i]);
  m_closed = true;
  return out;
}

}  // namespace gputlm
