#include "models/isa/ptx_parser.h"

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <utility>

#include "models/common/error.h"
#include "models/common/limits.h"
#include "models/common/text_file.h"
#include "models/isa/immediate_types.h"
#include "models/isa/instruction_checks.h"
#include "models/isa/modifiers.h"
#include "models/isa/ptx_cursor.h"
#include "models/isa/ptx_declarations.h"
#include "models/isa/ptx_initializer.h"
#include "models/isa/ptx_lexer.h"
#include "models/isa/ptx_link.h"
#include "models/isa/ptx_scope.h"
#include "models/isa/special_registers.h"
#include "models/isa/video_form.h"

namespace gputlm::isa {
namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

// Recursive-descent parser over the token stream of one PTX file. Kernels and device functions
// are parsed into units of their own (a kernel or function that fails is recorded and skipped),
// then each kernel is linked with the functions it calls (ptx_link.h).
class Parser : TokenCursor {
 public:
  Parser(std::vector<Token> toks, std::string file)
      : TokenCursor(std::move(toks), std::move(file)) {}

  std::unique_ptr<Module> module() {
    auto mod = std::make_unique<Module>();
    mod->file = m_file;
    m_module = mod.get();
    std::vector<ParsedUnit> kernels;
    while (peek().kind != Token::End) {
      const Token& t = peek();
      if (t.text == ".version") {
        next();
        mod->version = next().text;
      } else if (t.text == ".target")
        target(*mod);
      else if (t.text == ".address_size")
        address_size(*mod);
      else if (t.text == ".visible" || t.text == ".weak" || t.text == ".common")
        next();
      else if (t.text == ".extern") {
        next();
        m_extern = true;
        continue;
      } else if (t.text == ".entry")
        unit(false, kernels);
      else if (t.text == ".func")
        unit(true, kernels);
      else if (t.text == ".shared")
        module_shared();
      else if (t.text == ".global" || t.text == ".const")
        module_variable();
      else if (t.text == ".file")
        skip_statement_line();
      else if (t.text == ".section")
        skip_braces();
      else
        fail(
            t,
            "unsupported module-level syntax (expected .entry, .func, .global, .const or .shared)");
      m_extern = false;
    }
    std::set<std::string> address_taken;  // what calls through pointers may reach
    mod->entries.assign(m_entries.begin(), m_entries.end());
    for (const auto& [name, u] : m_functions) {
      mod->functions.push_back(name);
      for (const SymbolRef& r : u.function_refs) address_taken.insert(r.name);
    }
    for (const ParsedUnit& u : kernels)
      for (const SymbolRef& r : u.function_refs) address_taken.insert(r.name);
    for (const ModuleVar& v : mod->variables)
      for (const ModuleVar::Reloc& r : v.relocs) address_taken.insert(r.name);
    for (ParsedUnit& u : kernels) {
      const std::string name = u.body->name;
      try {
        mod->kernels.push_back(link_kernel(u, m_functions, address_taken, mod->entries));
      } catch (const SourceError& e) {
        mod->kernel_errors.emplace(name, e);
      }
    }
    return mod;
  }

 private:
  const std::string& m_file = file();

  void target(Module& mod) {
    next();
    mod.target = next().text;
    while (accept(",")) mod.target += ", " + next().text;
  }
  // A kernel or function (its declaration, maybe with a body). A body the front end cannot take
  // is recorded with its error; the parser goes on after its closing brace.
  void unit(bool function, std::vector<ParsedUnit>& kernels) {
    const size_t start = position();
    const Token& at = peek();
    ParsedUnit u;
    u.line = at.line;
    try {
      parse_unit(function, u);
    } catch (const SourceError& e) {
      if (m_in_body_of.empty()) throw;  // the declaration itself: the module cannot be read
      seek(start);
      skip_braces();
      u.error = e.what();
      if (!function) {
        m_module->kernel_errors.emplace(m_in_body_of, e);
        m_in_body_of.clear();
        return;
      }
    }
    const std::string name = m_in_body_of.empty() ? m_unit_name : m_in_body_of;
    m_in_body_of.clear();
    if (!function) {
      if (u.defined || !u.error.empty())
        kernels.push_back(std::move(u));  // else a declaration (a kernel of another module)
      return;
    }
    ParsedUnit& slot = m_functions[name];
    if (slot.defined && u.defined) fail(at, "function '" + name + "' defined twice");
    if (u.defined || !u.error.empty() || !slot.defined) slot = std::move(u);
  }
  void address_size(Module& mod) {
    next();
    const Token& t = next();
    mod.address_size = number(t);
    if (mod.address_size != 32 && mod.address_size != 64) fail(t, ".address_size must be 32 or 64");
  }
  uint32_t grow(const Token& t, uint64_t used, uint64_t more, const char* what) const {
    return grow_space(*this, t, used, more, what);
  }
  VarSyntax var_syntax(bool init = false) { return parse_var_syntax(*this, init); }

  void module_shared() {
    next();
    VarSyntax v = var_syntax();
    expect(";");
    (v.unsized || m_extern ? m_dynamic_shared : m_module_shared)
        .push_back(to_decl(v, Space::Shared));
  }
  // .global / .const variable of module scope, maybe initialised.
  void module_variable() {
    const Token& at = next();
    ModuleVar var;
    var.space = at.text == ".const" ? Space::Const : Space::Global;
    var.line = at.line;
    var.external = m_extern;
    const VarSyntax v = var_syntax(true);
    var.name = v.name;
    var.align = v.align;
    var.size = v.unsized ? 0 : std::max(1u, dtype_bytes(v.type)) * v.count;
    if (accept("=")) parse_initializer(*this, v.type, var);
    expect(";");
    if (m_module->variable(var.name)) fail(at, "module variable '" + var.name + "' declared twice");
    m_module->variables.push_back(std::move(var));
  }

  // ---- kernels and functions ----
  // `.entry name (params) {body}` or `.func [(rets)] name [(params)] [;|{body}]`.
  void parse_unit(bool function, ParsedUnit& u) {
    auto k = std::make_unique<Kernel>();
    k->line = next().line;  // .entry / .func
    k->file = m_file;
    m_kernel = k.get();
    m_function = function;
    m_calls = &u.calls;
    m_function_refs = &u.function_refs;
    m_unit = &u;
    m_scopes = ScopeStack();
    m_scopes.push();
    add_module_variables();
    m_pending_labels.clear();
    m_pending_targets.clear();
    m_target_lists.clear();
    m_dynamic_refs.clear();
    if (function) {
      k->frame_bytes = FunctionInfo::kHeaderBytes;
      if (peek().text == "(") u.rets = frame_params();
    }
    const Token& nt = next();
    if (nt.kind != Token::Ident || nt.text[0] == '.')
      fail(nt, "expected a kernel or function name");
    k->name = m_unit_name = nt.text;
    if (!function) m_entries.insert(nt.text);
    if (function) {
      if (peek().text == "(") u.params = frame_params();
    } else if (accept("(")) {
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
    while (peek().text != "{" && peek().text != ";") performance_directive();
    if (accept(";")) {
      u.body = std::move(k);
      return;
    }
    m_in_body_of = k->name;
    u.defined = true;
    layout_module_shared(*k);
    expect("{");
    body();
    // Dynamic shared memory starts after all static shared variables, the linked functions'
    // included: the linker adds its offset (ptx_link.h).
    u.dynamic_refs = std::move(m_dynamic_refs);
    m_dynamic_refs.clear();
    resolve_labels();
    m_kernel = nullptr;
    u.body = std::move(k);
  }
  // "(.param .b32 a, .param .align 8 .b8 b[16])" of a function: variables of its frame.
  std::vector<VarDecl> frame_params() {
    expect("(");
    std::vector<VarDecl> out;
    while (!accept(")")) {
      const Token& t = next();
      if (t.text != ".param" && t.text != ".reg") fail(t, "expected .param in function signature");
      if (t.text == ".reg") fail(t, ".reg parameters of functions are not supported");
      out.push_back(add_frame_var(to_decl(var_syntax(), Space::Local), t));
      accept(",");
    }
    return out;
  }
  // A variable of the current frame (.local, or .param of a function or call sequence).
  VarDecl add_frame_var(VarDecl d, const Token& at) {
    d.offset = align_up(m_kernel->frame_bytes, d.align);
    m_kernel->frame_bytes = grow(at, d.offset, d.size, "the local memory");
    m_scopes.add_symbol(d.name, Space::Local, d.offset, false, true, d.size);
    return d;
  }
  void add_module_variables() {
    for (const ModuleVar& v : m_module->variables)
      m_scopes.add_symbol(v.name, v.space, 0, false, false, v.size, true);
  }
  void performance_directive() {
    const Token& t = next();
    if (t.text == ".reqnctapercluster" || t.text == ".maxclusterrank") {
      std::vector<uint32_t> v{number(next(), 16)};
      while (accept(",")) v.push_back(number(next(), 16));
      if (t.text == ".maxclusterrank") {
        if (v.size() != 1) fail(t, ".maxclusterrank takes one number");
        m_kernel->max_cluster_rank = v[0];
      } else {
        if (v.size() > 3) fail(t, ".reqnctapercluster takes up to three numbers");
        for (size_t i = 0; i < 3; ++i) m_kernel->cluster_dims[i] = i < v.size() ? v[i] : 1;
      }
    } else if (t.text == ".explicitcluster") {
      m_kernel->explicit_cluster = true;
    } else if (t.text == ".maxntid" || t.text == ".reqntid" || t.text == ".minnctapersm" ||
               t.text == ".maxnreg") {
      next();
      while (accept(",")) next();
    } else if (t.text == ".attribute") {
      expect("(");
      while (!accept(")")) next();
    } else if (t.text != ".noreturn") {
      fail(t, "unexpected '" + t.text + "' before the body");
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
      } else if (t.text == ".reg" ||
                 t.text.rfind(".reg.", 0) == 0) {  // nvcc's inline asm writes ".reg.b16"
        reg_decl();
      } else if (t.text == ".shared" || t.text == ".local" || t.text == ".param") {
        local_or_shared_decl();
      } else if (t.text == ".loc" || t.text == ".pragma") {
        skip_statement_line();
      } else if (t.text == ".callprototype") {
        while (next().text != ";") {}
      } else if (t.kind == Token::Ident && peek(1).text == ":" &&
                 peek(2).text == ".branchtargets") {
        branch_targets();
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
  // `name: .branchtargets L1, L2, ...;` (PTX ISA 9.7.12.4): the list a later brx.idx indexes; its
  // labels are resolved with the branches' (resolve_labels).
  void branch_targets() {
    const Token& name = next();
    expect(":");
    next();  // .branchtargets
    const auto list = static_cast<uint32_t>(m_kernel->branch_targets.size());
    if (!m_target_lists.emplace(name.text, list).second)
      fail(name, "branch target list '" + name.text + "' defined twice");
    std::vector<uint32_t>& targets = m_kernel->branch_targets.emplace_back();
    do {
      const Token& l = next();
      if (l.kind != Token::Ident || l.text[0] == '.') fail(l, "expected a label in .branchtargets");
      m_pending_targets.push_back({list, static_cast<unsigned>(targets.size()), l});
      targets.push_back(0);
    } while (accept(","));
    expect(";");
  }
  void reg_decl() {
    const Token& rt = next();  // .reg, or ".reg.b16" without a space
    const bool fused = rt.text.size() > 4;
    const Token& tt = fused ? rt : next();
    const std::string_view tname =
        fused ? std::string_view(rt.text).substr(4) : std::string_view(tt.text);
    DType type = tname.size() > 1 ? parse_dtype(tname.substr(1)) : DType::None;
    if (type == DType::None) fail(tt, "unknown register type '" + tt.text + "'");
    do {
      const Token& nt = next();
      if (nt.kind != Token::Ident) fail(nt, "expected a register name");
      if (accept("<")) {
        const Token& ct = next();
        const uint32_t count =
            number(ct, limits::kMaxRegistersPerKernel, "max_registers_per_kernel");
        if (count > limits::kMaxRegistersPerKernel - m_kernel->regs.size())
          fail(ct, "the kernel would have more than " +
                       std::to_string(limits::kMaxRegistersPerKernel) + " registers" +
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
      fail(peek(), "more than " + std::to_string(limits::kMaxRegistersPerKernel) + " registers" +
                       limits::named("max_registers_per_kernel"));
    m_scopes.add_reg(name, static_cast<int32_t>(m_kernel->regs.size()));
    m_kernel->regs.push_back({name, type});
  }
  void local_or_shared_decl() {
    const Token& at = peek();
    const std::string space = next().text;
    VarDecl d = to_decl(var_syntax(), space == ".shared" ? Space::Shared : Space::Local);
    expect(";");
    if (space == ".shared") {
      if (m_function) {  // static: one per CTA, placed in each kernel that links the function
        d.offset = align_up(m_unit->shared_bytes, d.align);
        m_unit->shared_bytes = grow(at, d.offset, d.size, "the function's shared memory");
        m_scopes.add_symbol(d.name, Space::Shared, d.offset, false, false, 0, false, true);
        m_unit->shared.push_back(d);
      } else {
        add_shared(*m_kernel, d, at);
      }
    } else {
      d = add_frame_var(d, at);
      if (space == ".local") m_kernel->locals.push_back(d);
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
    if (in.op == Opcode::Ret && m_function) in.flags |= kFuncRet;
    if (in.op == Opcode::Call) {
      call_operands(in, line);
    } else if (!accept(";")) {
      bool selector = false;
      do {
        if (in.op == Opcode::Mma && in.tensor.sparse && in.nops == 5 &&
            !selector) {  // mma.sp's f: a constant 0..3 (PTX ISA 9.7.14.6.3)
          const Operand f = operand(in, in.nops);
          if (f.kind != OperandKind::Imm || f.imm < 0 || f.imm > 3)
            fail(ot, "mma.sp's sparsity selector must be a constant 0..3");
          in.tensor.selector = static_cast<uint8_t>(f.imm);
          selector = true;
          continue;
        }
        if (in.nops >= Instruction::kMaxOperands) fail(ot, "too many operands");
        in.ops[in.nops] = operand(in, in.nops);
        ++in.nops;
      } while (accept(","));
      expect(";");
      if (in.op == Opcode::Mma && in.tensor.sparse && !selector)
        fail(ot, "mma.sp needs its metadata and sparsity selector (d, a, b, c, e, f)");
    }
    if (in.nops < opcode_min_operands(in.op) || in.nops > opcode_max_operands(in.op))
      fail(ot, "wrong number of operands for " + std::string(opcode_name(in.op)));
    in.dst2 = std::exchange(m_pending_dst2, -1);
    // .param variables of a function or of a call sequence live in the thread's frame.
    if ((in.is_load() || in.is_store()) && in.space == Space::Param) {
      const Operand& a = in.ops[in.is_store() ? 0 : 1];
      if (m_function || a.frame) in.space = Space::Local;
    }
    // cp.async [d], [s], cp-size, ignore-src: a predicate register in the fourth place (PTX
    // ISA 9.7.9.25).
    if (in.op == Opcode::CpAsync && in.nops >= 4 && in.ops[3].kind == OperandKind::Reg &&
        m_kernel->regs[static_cast<size_t>(in.ops[3].reg)].type == DType::Pred)
      in.async.ignore_src = true;
    check_instruction_types(*this, in, ot, *m_kernel);
    if (const std::string bad = immediate_type_error(in); !bad.empty()) fail(ot, bad);
    convert_float_immediates(in);
    m_kernel->code.push_back(in);
    m_kernel->text.push_back(statement_text(line));
    m_kernel->lines.push_back(line);
  }
  // The error for an opcode gputlm does not know: the PTX ISA's instructions beyond what it models
  // say why (the targets they need), the rest are unknown.
  void decode_opcode(Instruction& in, const Token& t) {
    std::string_view s = t.text;
    size_t dot = s.find('.');
    in.op = parse_opcode(s.substr(0, dot));
    if (in.op == Opcode::Count &&
        dot != std::string_view::npos) {  // a two-word opcode: cond.acc, tree.traverse
      const size_t second = s.find('.', dot + 1);
      if ((in.op = parse_opcode(s.substr(0, second))) != Opcode::Count) dot = second;
    }
    if (in.op == Opcode::Count) fail(t, unknown_opcode_message(s.substr(0, s.find('.'))));
    while (dot != std::string_view::npos) {
      size_t nd = s.find('.', dot + 1);
      std::string_view w = s.substr(dot + 1, nd == std::string_view::npos ? nd : nd - dot - 1);
      if (in.op == Opcode::Tensormap && w == "replace")
        fail(t, "tensormap.replace needs sm_90a, which gputlm does not model");
      if (!apply_modifier(in, w))
        fail(t,
             "unknown modifier '." + std::string(w) + "' for " + std::string(opcode_name(in.op)));
      dot = nd;
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
      std::array<int64_t, kMaxVector> imms{};
      do {
        const Token& rt = next();
        if (o.vec_n >= kMaxVector) fail(rt, "vector operand with more than 8 elements");
        if (rt.kind == Token::Number && in.op == Opcode::Mov &&
            index == 1) {  // mov.b32 d, {0, %h} (nvcc inline asm)
          imms[o.vec_n] = parse_number(rt, false);
          o.vec[o.vec_n++] = kVecImmediate;
        } else {
          o.vec[o.vec_n++] = rt.text == "_" ? -1 : reg_ref(rt);
        }
      } while (accept(","));
      expect("}");
      // Immediate elements are packed into imm at their element's bit position.
      const unsigned bits = dtype_bits(in.type) / o.vec_n;
      for (unsigned i = 0; i < o.vec_n; ++i)
        if (o.vec[i] == kVecImmediate)
          o.imm |= static_cast<int64_t>(
              (static_cast<uint64_t>(imms[i]) & (bits >= 64 ? ~0ull : (1ull << bits) - 1))
              << (i * bits));
      return o;
    }
    if (accept("!")) {
      o = operand(in, index);
      if (o.kind != OperandKind::Reg) fail(t, "'!' applies to a predicate register");
      o.negate = true;
      return o;
    }
    if (t.text == "-" && is_video(in.op) &&
        peek(1).kind == Token::Ident) {  // vmad's -a, -b, -c (PTX ISA 9.7.18.1.3)
      next();
      o = operand(in, index);
      if (o.kind != OperandKind::Reg) fail(t, "'-' applies to a register here");
      o.minus = true;
      return o;
    }
    if (t.kind == Token::Number || t.text == "-") return immediate();
    if (t.kind != Token::Ident) fail(t, "unexpected '" + t.text + "' in operand");
    next();
    if (t.text == "_" && index == 0 &&
        in.op == Opcode::Elect) {  // elect.sync _|p: the sink (PTX ISA: elect.sync)
      if (accept("|")) m_pending_dst2 = reg_ref(next());
      return o;
    }
    if (t.text == "_" && index == 0 && in.op == Opcode::Mbarrier)
      return o;  // mbarrier.arrive _, [a]: no state (a peer's object)
    if (in.op == Opcode::BrxIdx &&
        index == 1) {  // the list: declared before (PTX ISA 9.7.12.4), as ptxas requires
      const auto it = m_target_lists.find(t.text);
      if (it == m_target_lists.end())
        fail(t, "'" + t.text + "' is not a .branchtargets list declared before this brx.idx");
      o.kind = OperandKind::Imm;
      o.imm = it->second;
      return o;
    }
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
    if (const size_t dot = t.text.find('.');
        dot != std::string::npos && is_video(in.op)) {  // %r1.b0: a video selector
      const int32_t r = m_scopes.find_reg(t.text.substr(0, dot));
      if (r >= 0 && parse_video_selector(std::string_view(t.text).substr(dot + 1), o.vsel)) {
        o.kind = OperandKind::Reg;
        o.reg = r;
        return o;
      }
      fail(t, "'" + t.text +
                  "' is not a register with a video selector (.b0-.b3, .h0, .h1, .hxy, .bxyzw)");
    }
    if (const ScopeStack::Symbol* s = m_scopes.find_symbol(t.text)) {
      o.kind = OperandKind::Imm;
      symbol_operand(*s, t.text, index, o);
      return o;
    }
    if (t.text[0] == '%') fail(t, "undeclared register '" + t.text + "'");
    if (m_functions.count(t.text) || m_entries.count(t.text) ||
        t.text == m_unit_name) {  // a function's or kernel's address, set when linked
      o.kind = OperandKind::Imm;
      m_function_refs->push_back({static_cast<uint32_t>(m_kernel->code.size()), index, t.text});
      return o;
    }
    fail(t, "unknown identifier '" + t.text + "'");
  }
  Operand immediate() {
    bool neg = accept("-");
    const Token& t = next();
    Operand o;
    o.kind = OperandKind::Imm;
    o.imm = parse_number(t, neg);
    const std::string& s = t.text;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F'))
      o.imm_format = ImmFormat::F32;
    else if ((s.size() > 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D')) ||
             (s.find_first_of(".eE") != std::string::npos &&
              !(s.size() > 1 && (s[1] == 'x' || s[1] == 'X'))))
      o.imm_format = ImmFormat::F64;
    return o;
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
      symbol_operand(*s, t.text, index, o);
    } else {
      fail(t, "unknown address base '" + t.text + "'");
    }
    if (accept("+")) {
      bool neg = accept("-");
      o.imm += parse_number(next(), neg);
    } else if (accept("-")) {
      o.imm -= parse_number(next(), false);
    } else if (accept(",")) {  // [handle, {coordinates}] of tex, tld4, suld, sust (PTX
                               // ISA 9.7.10, 9.7.11)
      if (o.reg < 0)
        fail(
            t,
            "a texture or surface operand names its object by a register: [handle, {coordinates}]");
      expect("{");
      do {
        const Token& rt = next();
        if (o.vec_n >= kMaxVector) fail(rt, "coordinate vector with more than 8 elements");
        o.vec[o.vec_n++] = reg_ref(rt);
      } while (accept(","));
      expect("}");
    }
    expect("]");
    return o;
  }
  void symbol_operand(const ScopeStack::Symbol& s, const std::string& name, unsigned index,
                      Operand& o) {
    o.imm = s.offset;
    o.sym_space = s.space;
    o.frame = s.frame;
    if (s.dynamic) m_dynamic_refs.emplace_back(static_cast<uint32_t>(m_kernel->code.size()), index);
    if (s.function_shared)
      m_unit->shared_refs.emplace_back(static_cast<uint32_t>(m_kernel->code.size()), index);
    if (s.module)
      m_kernel->symbol_refs.push_back({static_cast<uint32_t>(m_kernel->code.size()), index, name});
  }
  // call[.uni] [(ret, ...),] func [, (arg, ...)] [, prototype];
  void call_operands(Instruction& in, int line) {
    PendingCall c;
    c.pc = static_cast<uint32_t>(m_kernel->code.size());
    c.line = line;
    if (accept("(")) {
      c.rets = call_vars();
      expect(",");
    }
    const Token& ft = next();
    if (ft.kind != Token::Ident) fail(ft, "expected the called function");
    const int32_t target = m_scopes.find_reg(ft.text);  // an indirect call: the function's address
    if (target < 0) c.callee = ft.text;
    if (accept(",")) {
      if (accept("(")) c.args = call_vars();
      if (accept(",")) {
        const Token& pt =
            next();  // the .callprototype label of an indirect call: its layout is the callee's
        if (target < 0 || pt.kind != Token::Ident)
          fail(pt, "a prototype follows only a call through a register");
      }
    }
    expect(";");
    in.nops = target < 0 ? 1 : 2;
    in.ops[0].kind = OperandKind::Imm;
    in.ops[0].imm = static_cast<int64_t>(m_calls->size());
    if (target >= 0) {
      in.ops[1].kind = OperandKind::Reg;
      in.ops[1].reg = target;
    }
    m_calls->push_back(std::move(c));
  }
  // The .param variables of a call sequence, up to ")".
  std::vector<VarDecl> call_vars() {
    std::vector<VarDecl> out;
    if (accept(")")) return out;
    do {
      const Token& t = next();
      const ScopeStack::Symbol* s = m_scopes.find_symbol(t.text);
      if (!s || !s->frame)
        fail(t, "a call passes '" + t.text +
                    "', which is not a .param variable of the calling function");
      VarDecl d;
      d.name = t.text;
      d.offset = s->offset;
      d.size = s->size;
      out.push_back(d);
    } while (accept(","));
    expect(")");
    return out;
  }
  bool special(const std::string& name, Operand& o) const {
    return parse_special_register(name, o);
  }
  void resolve_labels() {
    for (const auto& p : m_pending_labels) {
      auto it = m_kernel->labels.find(p.tok.text);
      if (it == m_kernel->labels.end()) fail(p.tok, "undefined label '" + p.tok.text + "'");
      m_kernel->code[p.pc].ops[p.index].imm = it->second;
    }
    m_pending_labels.clear();
    for (const auto& p : m_pending_targets) {
      auto it = m_kernel->labels.find(p.tok.text);
      if (it == m_kernel->labels.end())
        fail(p.tok, "undefined label '" + p.tok.text + "' in .branchtargets");
      if (it->second >= m_kernel->code.size())
        fail(p.tok, "branch target '" + p.tok.text + "' is at the kernel's end");
      m_kernel->branch_targets[p.pc][p.index] = it->second;
    }
    m_pending_targets.clear();
    m_target_lists.clear();
    if (!m_kernel->code.empty() && !m_kernel->code.back().ends_block())
      throw SourceError(m_file, m_kernel->lines.back(),
                        "kernel '" + m_kernel->name + "' can fall off its end (no final ret/exit)");
    const std::vector<Instruction>& code = m_kernel->code;
    for (size_t pc = 0; pc < code.size();
         ++pc)  // fuzz finding: `bra 99;` jumped outside the kernel
      if (code[pc].is_branch() &&
          (code[pc].ops[0].kind != OperandKind::Label || code[pc].ops[0].imm < 0 ||
           static_cast<uint64_t>(code[pc].ops[0].imm) >= code.size()))
        throw SourceError(m_file, m_kernel->lines[pc],
                          "a branch target must be a label before the kernel's end",
                          m_kernel->text[pc]);
  }

  struct PendingLabel {
    size_t pc;
    unsigned index;
    Token tok;
  };
  Module* m_module = nullptr;
  Kernel* m_kernel = nullptr;
  bool m_function = false;   // parsing a .func
  bool m_extern = false;     // the declaration being parsed follows .extern
  std::string m_unit_name;   // name of the kernel or function being parsed
  std::string m_in_body_of;  // set while a body is parsed: its errors are the unit's alone
  std::vector<PendingCall>* m_calls = nullptr;
  std::vector<SymbolRef>* m_function_refs = nullptr;
  ParsedUnit* m_unit = nullptr;  // the kernel or function being parsed
  std::map<std::string, ParsedUnit> m_functions;
  std::set<std::string> m_entries;  // kernels declared so far (.entry, .extern .entry)
  ScopeStack m_scopes;
  std::vector<VarDecl> m_module_shared;
  std::vector<VarDecl> m_dynamic_shared;
  std::vector<PendingLabel> m_pending_labels;
  std::vector<PendingLabel>
      m_pending_targets;  // .branchtargets labels: pc = the list, index = the place in it
  std::map<std::string, uint32_t>
      m_target_lists;  // .branchtargets names of the unit -> Kernel::branch_targets
  std::vector<std::pair<uint32_t, unsigned>> m_dynamic_refs;  // (pc, operand) using extern .shared
  int32_t m_pending_dst2 = -1;
};

}  // namespace

std::unique_ptr<Module> parse_ptx(const std::string& text, const std::string& file) {
  Parser p(lex_ptx(text, file), file);
  return p.module();
}

std::unique_ptr<Module> parse_ptx_file(const std::string& path) {
  std::string text;
  if (!read_text_file(path, text)) throw InputError(path + ": cannot open PTX file");
  return parse_ptx(text, path);
}

}  // namespace gputlm::isa
