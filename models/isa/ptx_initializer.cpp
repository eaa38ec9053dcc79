#include "models/isa/ptx_initializer.h"

#include <cstring>

namespace gputlm::isa {
namespace {

class InitParser {
 public:
  InitParser(TokenCursor& c, DType type, ModuleVar& var)
      : m_c(c), m_type(type), m_elem(std::max(1u, dtype_bytes(type))), m_var(var) {}

  void value_or_list() {
    if (m_c.accept("{")) {
      if (!m_c.accept("}")) {
        do value_or_list();
        while (m_c.accept(","));
        m_c.expect("}");
      }
      return;
    }
    scalar();
  }

 private:
  void scalar() {
    const Token& at = m_c.peek();
    if (m_var.init.size() + m_elem > m_var.size && m_var.size != 0)
      m_c.fail(at, "more initial values than variable '" + m_var.name + "' holds (" +
                       std::to_string(m_var.size) + " bytes)");
    if (at.kind == Token::Ident) return address(at);
    const bool neg = m_c.accept("-");
    const Token& t = m_c.next();
    if (t.kind != Token::Number)
      m_c.fail(t, "expected a number in the initialiser of '" + m_var.name + "'");
    const int64_t bits = m_c.parse_number(t, neg);
    const std::string& s = t.text;
    const bool f32_bits = s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F');
    const bool f64_bits =
        !f32_bits && ((s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) ||
                      (s.find_first_of(".eE") != std::string::npos &&
                       !(s.size() > 1 && (s[1] == 'x' || s[1] == 'X'))));
    uint64_t out = static_cast<uint64_t>(bits);
    if (m_type == DType::F32 || m_type == DType::F64) {
      double v;
      if (f32_bits) {
        float f;
        const uint32_t b = static_cast<uint32_t>(bits);
        std::memcpy(&f, &b, 4);
        v = f;
      } else if (f64_bits)
        std::memcpy(&v, &bits, 8);
      else
        v = static_cast<double>(bits);
      if (m_type == DType::F32) {
        const float f = static_cast<float>(v);
        uint32_t b;
        std::memcpy(&b, &f, 4);
        out = b;
      } else
        std::memcpy(&out, &v, 8);
    } else if (f64_bits) {
      m_c.fail(t, "a float literal initialises an integer variable '" + m_var.name + "'");
    }
    append(out);
  }
  // `sym`, `generic(sym)`, `sym+imm`: the address of another variable, filled in at load time.
  void address(const Token& at) {
    if (m_elem != 8)
      m_c.fail(at, "an address initialises '" + m_var.name + "' whose elements are not 64-bit");
    const bool generic = m_c.accept("generic");
    if (generic) m_c.expect("(");
    const Token& nt = m_c.next();
    if (nt.kind != Token::Ident || nt.text[0] == '.' || nt.text[0] == '%')
      m_c.fail(nt, "expected a variable name in an address initialiser");
    if (generic) m_c.expect(")");
    int64_t addend = 0;
    if (m_c.accept("+")) addend = m_c.parse_number(m_c.next(), false);
    m_var.relocs.push_back({static_cast<uint32_t>(m_var.init.size()), nt.text, addend});
    append(0);
  }
  void append(uint64_t v) {
    const size_t at = m_var.init.size();
    m_var.init.resize(at + m_elem);
    std::memcpy(m_var.init.data() + at, &v, m_elem);
  }

  TokenCursor& m_c;
  DType m_type;
  uint32_t m_elem;
  ModuleVar& m_var;
};

}  // namespace

void parse_initializer(TokenCursor& c, DType type, ModuleVar& var) {
  InitParser p(c, type, var);
  p.value_or_list();
  if (var.size == 0) var.size = static_cast<uint32_t>(var.init.size());  // `a[] = {...}`
}

}  // namespace gputlm::isa
