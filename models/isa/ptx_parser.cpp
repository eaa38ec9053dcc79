#include "models/isa/ptx_parser.h"

#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include "models/common/error.h"
#include "models/common/limits.h"
#include "models/isa/modifiers.h"
#include "models/isa/ptx_lexer.h"
#include "models/isa/ptx_scope.h"

namespace gputlm::isa {
namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

// Recursive-descent parser over the token stream of one PTX file.
class Parser {
 public:
  Parser(std::vector<Token> toks, std::string file) : m_t(std::move(toks)), m_file(std::move(file)) {}

  std::unique_ptr<Module> module() {
    auto mod = std::make_unique<Module>();
    mod->file = m_file;
    while (peek().kind != Token::End) {
      const Token& t = peek();
      if (t.text == ".version") { next(); mod->version = next().text; }
      else if (t.text == ".target") { next(); mod->target = next().text; while (accept(",")) next(); }
      else if (t.text == ".address_size") address_size(*mod);
      else if (t.text == ".visible" || t.text == ".weak") next();
      else if (t.text == ".entry") mod->kernels.push_back(entry());
      else if (t.text == ".shared" || t.text == ".extern") module_shared();
      else if (t.text == ".file") skip_statement_line();
      else if (t.text == ".section") skip_section();
      else fail(t, "unsupported module-level syntax (only .entry kernels and .shared variables)");
    }
    return mod;
  }

 private:
  // ---- token helpers ----
  const Token& peek(size_t k = 0) const { return m_t[std::min(m_pos + k, m_t.size() - 1)]; }
  const Token& next() {
    const Token& t = peek();
    if (t.kind == Token::End) fail(t, "unexpected end of file");
    ++m_pos;
    return t;
  }
  bool accept(std::string_view s) {
    if (peek().text == s && peek().kind != Token::String) { ++m_pos; return true; }
    return false;
  }
  void expect(std::string_view s) {
    if (!accept(s)) fail(peek(), "expected '" + std::string(s) + "'");
  }
  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    throw SourceError(m_file, t.line, msg, statement_text(t.line));
  }
  // The source text of the statement on `line`, rebuilt from its tokens.
  std::string statement_text(int line) const {
    std::string s;
    bool glue_next = true;
    for (const auto& t : m_t) {
      if (t.line != line || t.kind == Token::End) continue;
      const bool glue_before = t.text == "," || t.text == ";" || t.text == "]" || t.text == "}" ||
                               t.text == ">" || t.text == ")" || t.text == "|" || t.text == "+" ||
                               t.text == ":" || (t.text == "<" && !s.empty() && s.back() != ' ');
      if (!glue_next && !glue_before) s += ' ';
      s += t.text;
      glue_next = t.text == "[" || t.text == "{" || t.text == "(" || t.text == "<" || t.text == "!" ||
                  t.text == "@" || t.text == "|" || t.text == "+" || t.text == "-";
    }
    return s;
  }
  void skip_statement_line() {
    int line = peek().line;
    while (peek().kind != Token::End && peek().line == line) ++m_pos;
  }
  void skip_section() {
    while (peek().kind != Token::End && peek().text != "{") next();
    int depth = 0;
    do {
      const Token& t = next();
      depth += t.text == "{" ? 1 : t.text == "}" ? -1 : 0;
    } while (depth > 0);
  }
  // A non-negative integer no larger than `max` (`limit`: the limits.h name of `max`).
  uint32_t number(const Token& t, uint64_t max = UINT32_MAX, const char* limit = nullptr) const {
    uint64_t v = 0;
    size_t used = 0;
    try {
      if (t.kind != Token::String && !t.text.empty() && t.text[0] != '-' && t.text[0] != '+') v = std::stoull(t.text, &used, 0);
    } catch (const std::logic_error&) {
      used = 0;
    }
    if (used == 0 || used != t.text.size()) fail(t, "expected a number");
    if (v > max) fail(t, "more than " + std::to_string(max) + (limit ? limits::named(limit) : std::string()));
    if (v > UINT32_MAX) fail(t, "more than " + std::to_string(UINT32_MAX));
    return static_cast<uint32_t>(v);
  }
  void address_size(Module& mod) {
    next();
    const Token& t = next();
    mod.address_size = number(t);
    if (mod.address_size != 32 && mod.address_size != 64) fail(t, ".address_size must be 32 or 64");
  }
  // `used` + `more` bytes of a space, checked against kMaxVariableBytes.
  uint32_t grow(const Token& t, uint64_t used, uint64_t more, const char* what) const {
    if (used + more > limits::kMaxVariableBytes)
      fail(t, what + std::string(" larger than ") + std::to_string(limits::kMaxVariableBytes) + " bytes" + limits::named("max_variable_bytes"));
    return static_cast<uint32_t>(used + more);
  }

  // ---- declarations ----
  struct VarSyntax {
    DType type = DType::B8;
    uint32_t align = 0;
    uint32_t count = 1;
    bool is_array = false;
    bool unsized = false;
    std::string name;
  };
  // Parses "[.align N] .type [.ptr ...] name[N]" after the space directive.
  VarSyntax var_syntax() {
    VarSyntax v;
    for (;;) {
      const Token& t = peek();
      if (t.text == ".align") {
        next();
        const Token& at = next();
        v.align = number(at, limits::kMaxAlign, "max_align");
        if (v.align == 0 || (v.align & (v.align - 1))) fail(at, ".align must be a power of two");
      }
      else if (t.text == ".ptr" || t.text == ".global" || t.text == ".shared" || t.text == ".local" || t.text == ".const") next();
      else if (t.kind == Token::Ident && t.text[0] == '.') {
        DType d = parse_dtype(std::string_view(t.text).substr(1));
        if (d == DType::None) fail(t, "unknown type '" + t.text + "'");
        v.type = d;
        next();
      } else break;
    }
    const Token& nt = next();
    if (nt.kind != Token::Ident) fail(nt, "expected a variable name");
    v.name = nt.text;
    if (accept("[")) {
      v.is_array = true;
      if (accept("]")) v.unsized = true;
      else { v.count = number(next(), limits::kMaxVariableBytes, "max_variable_bytes"); expect("]"); }
    }
    if (peek().text == "=") fail(peek(), "initialised variables are not supported");
    if (v.align == 0) v.align = std::max(1u, dtype_bytes(v.type));
    grow(nt, 0, uint64_t{std::max(1u, dtype_bytes(v.type))} * v.count, ("variable '" + v.name + "'").c_str());
    return v;
  }
  VarDecl to_decl(const VarSyntax& v, Space space) const {
    VarDecl d;
    d.name = v.name;
    d.space = space;
    d.type = v.type;
    d.align = v.align;
    d.size = std::max(1u, dtype_bytes(v.type)) * v.count;
    return d;
  }
  void module_shared() {
    bool ext = accept(".extern");
    const Token& t = next();
    if (t.text != ".shared") fail(t, "only .extern .shared is supported at module level");
    VarSyntax v = var_syntax();
    expect(";");
    (v.unsized || ext ? m_dynamic_shared : m_module_shared).push_back(to_decl(v, Space::Shared));
  }

  // ---- kernels ----
  std::unique_ptr<Kernel> entry() {
    auto k = std::make_unique<Kernel>();
    k->line = next().line;  // .entry
    k->file = m_file;
    k->name = next().text;
    m_kernel = k.get();
    m_scopes = ScopeStack();
    m_scopes.push();
    if (accept("(")) {
      while (!accept(")")) {
        const Token& t = next();
        if (t.text != ".param") fail(t, "expected .param in kernel signature");
        VarDecl d = to_decl(var_syntax(), Space::Param);
        d.offset = align_up(k->param_bytes, d.align);
        k->param_bytes = grow(t, d.offset, d.size, "the parameters");
        m_scopes.add_symbol(d.name, Space::Param, d.offset);
        k->params.push_back(d);
        accept(",");
      }
    }
    while (peek().text != "{") performance_directive();
    layout_module_shared(*k);
    expect("{");
    body();
    // Dynamic shared memory starts after all static shared variables (known only now).
    k->dynamic_shared_offset = align_up(k->shared_bytes, 16);
    for (const auto& [pc, index] : m_dynamic_refs) k->code[pc].ops[index].imm += k->dynamic_shared_offset;
    m_dynamic_refs.clear();
    resolve_labels();
    analyze_kernel(*k);
    m_kernel = nullptr;
    return k;
  }
  void performance_directive() {
    const Token& t = next();
    if (t.text == ".maxntid" || t.text == ".reqntid" || t.text == ".minnctapersm" ||
        t.text == ".maxnreg" || t.text == ".maxclusterrank" || t.text == ".reqnctapercluster") {
      next();
      while (accept(",")) next();
    } else if (t.text != ".noreturn") {
      fail(t, "unexpected '" + t.text + "' before kernel body");
    }
  }
  void layout_module_shared(Kernel& k) {
    for (VarDecl d : m_module_shared) add_shared(k, d, peek());
    for (const VarDecl& d : m_dynamic_shared) m_scopes.add_symbol(d.name, Space::Shared, 0, true);
  }
  // `at`: the token errors point to (the declaration's).
  void add_shared(Kernel& k, VarDecl d, const Token& at) {
    d.offset = align_up(k.shared_bytes, d.align);
    k.shared_bytes = grow(at, d.offset, d.size, "the shared memory");
    m_scopes.add_symbol(d.name, Space::Shared, d.offset);
    k.shared.push_back(d);
  }

  // Statements until the matching "}".
  void body() {
    for (;;) {
      const Token& t = peek();
      if (accept("}")) {
        if (m_scopes.depth() == 1) return;
        m_scopes.pop();
      } else if (accept("{")) {
        m_scopes.push();
      } else if (t.text == ".reg") {
        reg_decl();
      } else if (t.text == ".shared" || t.text == ".local") {
        local_or_shared_decl();
      } else if (t.text == ".loc" || t.text == ".pragma") {
        skip_statement_line();
      } else if (t.kind == Token::Ident && peek(1).text == ":" && t.text[0] != '.') {
        label();
      } else {
        instruction();
      }
    }
  }
  void label() {
    const Token& t = next();
    expect(":");
    if (!m_kernel->labels.emplace(t.text, static_cast<uint32_t>(m_kernel->code.size())).second)
      fail(t, "label '" + t.text + "' defined twice");
  }
  void reg_decl() {
    next();  // .reg
    const Token& tt = next();
    DType type = tt.text.size() > 1 ? parse_dtype(std::string_view(tt.text).substr(1)) : DType::None;
    if (type == DType::None) fail(tt, "unknown register type '" + tt.text + "'");
    do {
      const Token& nt = next();
      if (nt.kind != Token::Ident) fail(nt, "expected a register name");
      if (accept("<")) {
        const Token& ct = next();
        const uint32_t count = number(ct, limits::kMaxRegistersPerKernel, "max_registers_per_kernel");
        if (count > limits::kMaxRegistersPerKernel - m_kernel->regs.size())
          fail(ct, "the kernel would have more than " + std::to_string(limits::kMaxRegistersPerKernel) + " registers" +
                       limits::named("max_registers_per_kernel"));
        expect(">");
        for (uint32_t i = 0; i < count; ++i) declare_reg(nt.text + std::to_string(i), type);
      } else {
        declare_reg(nt.text, type);
      }
    } while (accept(","));
    expect(";");
  }
  void declare_reg(const std::string& name, DType type) {
    if (m_kernel->regs.size() >= limits::kMaxRegistersPerKernel)
      fail(peek(), "more than " + std::to_string(limits::kMaxRegistersPerKernel) + " registers" + limits::named("max_registers_per_kernel"));
    m_scopes.add_reg(name, static_cast<int32_t>(m_kernel->regs.size()));
    m_kernel->regs.push_back({name, type});
  }
  void local_or_shared_decl() {
    const Token& at = peek();
    bool shared = next().text == ".shared";
    VarDecl d = to_decl(var_syntax(), shared ? Space::Shared : Space::Local);
    expect(";");
    if (shared) {
      add_shared(*m_kernel, d, at);
    } else {
      d.offset = align_up(m_kernel->local_bytes, d.align);
      m_kernel->local_bytes = grow(at, d.offset, d.size, "the local memory");
      m_scopes.add_symbol(d.name, Space::Local, d.offset);
      m_kernel->locals.push_back(d);
    }
  }

  // ---- instructions ----
  void instruction() {
    Instruction in;
    const int line = peek().line;
    if (accept("@")) {
      in.guard_neg = accept("!");
      in.guard = reg_ref(next());
    }
    const Token& ot = next();
    if (ot.kind != Token::Ident) fail(ot, "expected an instruction");
    decode_opcode(in, ot);
    if (!accept(";")) {
      do {
        if (in.nops >= Instruction::kMaxOperands) fail(ot, "too many operands");
        in.ops[in.nops] = operand(in, in.nops);
        ++in.nops;
      } while (accept(","));
      expect(";");
    }
    if (in.nops < opcode_min_operands(in.op) || in.nops > opcode_max_operands(in.op))
      fail(ot, "wrong number of operands for " + std::string(opcode_name(in.op)));
    in.dst2 = std::exchange(m_pending_dst2, -1);
    check_types(in, ot);
    convert_float_immediates(in);
    m_kernel->code.push_back(in);
    m_kernel->text.push_back(statement_text(line));
    m_kernel->lines.push_back(line);
  }
  void decode_opcode(Instruction& in, const Token& t) {
    std::string_view s = t.text;
    size_t dot = s.find('.');
    in.op = parse_opcode(s.substr(0, dot));
    if (in.op == Opcode::Count && dot != std::string_view::npos) {  // a two-word opcode: cond.acc, tree.traverse
      const size_t second = s.find('.', dot + 1);
      if ((in.op = parse_opcode(s.substr(0, second))) != Opcode::Count) dot = second;
    }
    if (in.op == Opcode::Count) fail(t, "unknown opcode '" + std::string(s.substr(0, s.find('.'))) + "'");
    while (dot != std::string_view::npos) {
      size_t nd = s.find('.', dot + 1);
      std::string_view w = s.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1);
      if (!apply_modifier(in, w)) fail(t, "unknown modifier '." + std::string(w) + "' for " + std::string(opcode_name(in.op)));
      dot = nd;
    }
  }
  void check_types(const Instruction& in, const Token& t) const {
    switch (in.op) {
      case Opcode::Bra: case Opcode::Ret: case Opcode::Exit: case Opcode::Trap: case Opcode::Bar:
      case Opcode::Barrier: case Opcode::Membar: case Opcode::Fence: case Opcode::Prefetch:
      case Opcode::Nanosleep: case Opcode::Activemask:
        return;
      case Opcode::Vote:
        if (in.vote == VoteMode::None) fail(t, "vote needs .all, .any, .uni or .ballot");
        return;
      default:
        if (in.type == DType::None) fail(t, "missing type modifier");
    }
    if ((in.op == Opcode::Cvt) && in.type2 == DType::None) fail(t, "cvt needs two types");
    if ((in.op == Opcode::Setp || in.op == Opcode::Set) && in.cmp == CmpOp::None) fail(t, "missing comparison operator");
    if ((in.op == Opcode::Atom || in.op == Opcode::Red) && in.atom == AtomOp::None) fail(t, "missing atomic operation");
    if (in.has(kRowHint) && !(in.is_load() && (in.space == Space::Global || in.space == Space::Generic)))
      fail(t, ".rowhint applies to global loads only");
    if (in.op == Opcode::CondAcc) {
      if (in.space != Space::Global && in.space != Space::Shared && in.space != Space::Generic)
        fail(t, "cond.acc writes to .global, .shared or a generic address");
      if (in.ops[1].kind != OperandKind::Address) fail(t, "cond.acc takes its base as an address operand: [base]");
    }
    if (in.op == Opcode::CondAcc || in.op == Opcode::TreeTraverse) {
      if (in.ops[0].kind != OperandKind::Reg) fail(t, std::string(opcode_name(in.op)) + " writes a register");
      if (in.ops[2].kind != OperandKind::Reg || m_kernel->regs[static_cast<size_t>(in.ops[2].reg)].type != DType::Pred)
        fail(t, std::string(opcode_name(in.op)) + " takes a predicate register as its third operand");
    }
  }

  int32_t reg_ref(const Token& t) {
    int32_t r = m_scopes.find_reg(t.text);
    if (r < 0) fail(t, "undeclared register '" + t.text + "'");
    return r;
  }

  Operand operand(const Instruction& in, unsigned index) {
    Operand o;
    const Token& t = peek();
    if (accept("[")) return address(index);
    if (accept("{")) {
      o.kind = OperandKind::Vector;
      do {
        const Token& rt = next();
        if (o.vec_n >= 4) fail(rt, "vector operand with more than 4 elements");
        o.vec[o.vec_n++] = rt.text == "_" ? -1 : reg_ref(rt);
      } while (accept(","));
      expect("}");
      return o;
    }
    if (accept("!")) {
      o = operand(in, index);
      if (o.kind != OperandKind::Reg) fail(t, "'!' applies to a predicate register");
      o.negate = true;
      return o;
    }
    if (t.kind == Token::Number || t.text == "-") return immediate();
    if (t.kind != Token::Ident) fail(t, "unexpected '" + t.text + "' in operand");
    next();
    if (in.op == Opcode::Bra) {
      o.kind = OperandKind::Label;
      m_pending_labels.push_back({m_kernel->code.size(), index, t});
      return o;
    }
    if (int32_t r = m_scopes.find_reg(t.text); r >= 0) {
      o.kind = OperandKind::Reg;
      o.reg = r;
      if (index == 0 && accept("|")) m_pending_dst2 = reg_ref(next());
      return o;
    }
    if (special(t.text, o)) return o;
    if (const ScopeStack::Symbol* s = m_scopes.find_symbol(t.text)) {
      o.kind = OperandKind::Imm;
      o.imm = s->offset;
      o.sym_space = s->space;
      if (s->dynamic) m_dynamic_refs.emplace_back(m_kernel->code.size(), index);
      return o;
    }
    if (t.text[0] == '%') fail(t, "undeclared register '" + t.text + "'");
    fail(t, "unknown identifier '" + t.text + "'");
  }
  Operand immediate() {
    bool neg = accept("-");
    const Token& t = next();
    Operand o;
    o.kind = OperandKind::Imm;
    o.imm = parse_number(t, neg);
    const std::string& s = t.text;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F')) o.imm_format = ImmFormat::F32;
    else if ((s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) ||
             (s.find_first_of(".eE") != std::string::npos && !(s.size() > 1 && (s[1] == 'x' || s[1] == 'X'))))
      o.imm_format = ImmFormat::F64;
    return o;
  }
  // PTX 5.2.4: a literal is converted to the type the instruction reads it as. Only float types
  // need work: an f64 or integer literal in an f32 instruction becomes f32 bits, and so on.
  static void convert_float_immediates(Instruction& in) {
    const DType t = (in.op == Opcode::Cvt || in.op == Opcode::Set) ? in.type2 : in.type;  // the source type
    if (t != DType::F32 && t != DType::F64) return;
    for (unsigned i = 0; i < in.nops; ++i) {
      Operand& o = in.ops[i];
      if (o.kind != OperandKind::Imm || o.sym_space != Space::Generic) continue;
      double v;
      if (o.imm_format == ImmFormat::F32) {
        float f;
        const uint32_t bits = static_cast<uint32_t>(o.imm);
        std::memcpy(&f, &bits, 4);
        v = f;
      } else if (o.imm_format == ImmFormat::F64) {
        std::memcpy(&v, &o.imm, 8);
      } else {
        v = static_cast<double>(o.imm);
      }
      if (t == DType::F32) {
        const float f = static_cast<float>(v);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        o.imm = bits;
      } else {
        std::memcpy(&o.imm, &v, 8);
      }
      o.imm_format = t == DType::F32 ? ImmFormat::F32 : ImmFormat::F64;
    }
  }
  int64_t parse_number(const Token& t, bool neg) const {
    const std::string& s = t.text;
    size_t used = 0;
    try {
      if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
        const bool single = s[1] == 'f' || s[1] == 'F';
        uint64_t bits = std::stoull(s.substr(2), &used, 16);
        if (used + 2 != s.size() || s.size() != (single ? 10u : 18u)) fail(t, "bad number '" + s + "'");
        if (neg) bits ^= single ? 0x80000000ull : 0x8000000000000000ull;
        return static_cast<int64_t>(bits);
      }
      const bool hex = s.size() > 1 && (s[1] == 'x' || s[1] == 'X');
      if (!hex && s.find_first_of(".eE") != std::string::npos) {
        double d = std::stod(s, &used) * (neg ? -1 : 1);
        if (used != s.size()) fail(t, "bad number '" + s + "'");
        int64_t bits;
        std::memcpy(&bits, &d, sizeof bits);
        return bits;  // a decimal float literal is an f64 immediate (PTX 5.2.4)
      }
      std::string digits = s;
      if (!digits.empty() && (digits.back() == 'U' || digits.back() == 'u')) digits.pop_back();  // 123U
      uint64_t v = std::stoull(digits, &used, 0);
      if (used != digits.size()) fail(t, "bad number '" + s + "'");
      return static_cast<int64_t>(neg ? 0 - v : v);  // two's complement, no signed overflow
    } catch (const std::logic_error&) {
      fail(t, "bad number '" + s + "'");
    }
  }
  Operand address(unsigned index) {
    Operand o;
    o.kind = OperandKind::Address;
    const Token& t = next();
    if (t.kind == Token::Number) {
      o.imm = parse_number(t, false);
    } else if (int32_t r = m_scopes.find_reg(t.text); r >= 0) {
      o.reg = r;
    } else if (const ScopeStack::Symbol* s = m_scopes.find_symbol(t.text)) {
      o.imm = s->offset;
      o.sym_space = s->space;
      if (s->dynamic) m_dynamic_refs.emplace_back(m_kernel->code.size(), index);
    } else {
      fail(t, "unknown address base '" + t.text + "'");
    }
    if (accept("+")) {
      bool neg = accept("-");
      o.imm += parse_number(next(), neg);
    } else if (accept("-")) {
      o.imm -= parse_number(next(), false);
    }
    expect("]");
    return o;
  }
  bool special(const std::string& name, Operand& o) const {
    static const std::pair<const char*, SReg> kVec[] = {
        {"%tid", SReg::Tid}, {"%ntid", SReg::Ntid}, {"%ctaid", SReg::Ctaid}, {"%nctaid", SReg::Nctaid}};
    static const std::pair<const char*, SReg> kScalar[] = {
        {"%laneid", SReg::Laneid}, {"%warpid", SReg::Warpid}, {"%nwarpid", SReg::Nwarpid},
        {"%smid", SReg::Smid}, {"%nsmid", SReg::Nsmid}, {"%gridid", SReg::Gridid},
        {"%clock", SReg::Clock}, {"%clock64", SReg::Clock64}, {"%lanemask_eq", SReg::LanemaskEq},
        {"%lanemask_lt", SReg::LanemaskLt}, {"%lanemask_le", SReg::LanemaskLe},
        {"%lanemask_gt", SReg::LanemaskGt}, {"%lanemask_ge", SReg::LanemaskGe},
        {"WARP_SZ", SReg::WarpSz}};
    o.kind = OperandKind::Special;
    for (const auto& [n, r] : kScalar)
      if (name == n) { o.sreg = r; return true; }
    size_t dot = name.find('.');
    if (dot != std::string::npos && dot + 2 == name.size() && name[dot + 1] >= 'x' && name[dot + 1] <= 'z') {
      for (const auto& [n, r] : kVec)
        if (name.compare(0, dot, n) == 0) {
          o.sreg = r;
          o.comp = static_cast<uint8_t>(name[dot + 1] - 'x');
          return true;
        }
    }
    o.kind = OperandKind::None;
    return false;
  }
  void resolve_labels() {
    for (const auto& p : m_pending_labels) {
      auto it = m_kernel->labels.find(p.tok.text);
      if (it == m_kernel->labels.end()) fail(p.tok, "undefined label '" + p.tok.text + "'");
      m_kernel->code[p.pc].ops[p.index].imm = it->second;
    }
    m_pending_labels.clear();
    if (!m_kernel->code.empty() && !m_kernel->code.back().ends_block())
      throw SourceError(m_file, m_kernel->lines.back(), "kernel '" + m_kernel->name + "' can fall off its end (no final ret/exit)");
    const std::vector<Instruction>& code = m_kernel->code;
    for (size_t pc = 0; pc < code.size(); ++pc)  // fuzz finding: `bra 99;` jumped outside the kernel
      if (code[pc].is_branch() && (code[pc].ops[0].kind != OperandKind::Label || code[pc].ops[0].imm < 0 ||
                                   static_cast<uint64_t>(code[pc].ops[0].imm) >= code.size()))
        throw SourceError(m_file, m_kernel->lines[pc], "a branch target must be a label before the kernel's end", m_kernel->text[pc]);
  }

  struct PendingLabel {
    size_t pc;
    unsigned index;
    Token tok;
  };
  std::vector<Token> m_t;
  size_t m_pos = 0;
  std::string m_file;
  Kernel* m_kernel = nullptr;
  ScopeStack m_scopes;
  std::vector<VarDecl> m_module_shared;
  std::vector<VarDecl> m_dynamic_shared;
  std::vector<PendingLabel> m_pending_labels;
  std::vector<std::pair<size_t, unsigned>> m_dynamic_refs;  // (pc, operand) using extern .shared
  int32_t m_pending_dst2 = -1;
};

}  // namespace

std::unique_ptr<Module> parse_ptx(const std::string& text, const std::string& file) {
  Parser p(lex_ptx(text, file), file);
  return p.module();
}

std::unique_ptr<Module> parse_ptx_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open PTX file");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_ptx(ss.str(), path);
}

}  // namespace gputlm::isa
