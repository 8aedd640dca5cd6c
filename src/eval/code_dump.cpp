// dump_registers, dump_expression, dump_layer_code: what each instruction does, from the
// opcode tables (rop_info, lop_info), so a new op is listed without a line here.
#include "eval/code_dump.h"

#include <fmt/format.h>

#include "syntax/ast.h"
#include "value/format.h"

namespace oprec {

namespace {

const char* arith_text(ROp op) {
    switch (op) {
    case ROp::Add: return "+";
    case ROp::Sub: return "-";
    case ROp::Mul: return "*";
    case ROp::Div: return "/";
    case ROp::FloorDiv: return "//";
    case ROp::Mod: return "%";
    case ROp::Pow: return "**";
    default: return "?";
    }
}

struct Cells {
    const RegisterCode& code;
    const Program& program;
    std::string operator()(std::uint16_t c) const {
        if (c < code.names && c < program.names.size()) return program.names[c];
        if (c >= code.names && c - code.names < code.consts.size()) return repr(code.consts[c - code.names]);
        return fmt::format("c[{}]", c);
    }
    std::string keep(std::uint32_t r) const {
        return fmt::format("keep[{}]", r < program.records.size() ? program.records[r].name : std::to_string(r));
    }
    std::string slot(const char* what, std::uint32_t s) const {
        return fmt::format("{}[{}]", what, s < program.slots.size() ? program.slots[s].name : std::to_string(s));
    }
};

// What one register instruction does, from its op's row in the table.
std::string describe(const RInstr& in, const Cells& cell) {
    if (in.op == ROp::Need) return fmt::format("give up unless {} has a value", cell(in.x));
    const ROpInfo& info = rop_info(in.op);
    const ROp base = info.base;
    std::string dst;
    switch (info.writes) {
    case RWrites::Dst: case RWrites::Sum: dst = cell(in.dst); break;
    case RWrites::CellY: dst = cell(in.y); break;
    case RWrites::HeldX: dst = cell.slot("held", in.x); break;
    case RWrites::HeldDst: dst = cell.slot("held", in.dst); break;
    case RWrites::StoreX: dst = cell.slot("slot", in.x); break;
    case RWrites::StoreDst: dst = cell.slot("slot", in.dst); break;
    case RWrites::Memo: dst = fmt::format("memo[{}]", in.x); break;
    case RWrites::None: break;
    }
    const unsigned reads = info.reads;
    const bool last_first = reads == (kReadsLast | kReadsY);  // an X op: the value before, then c[y]
    // The operands in the order the operation takes them.
    const std::string x = cell(in.x), y = cell(in.y), z = cell(in.z);
    std::string value;
    if (info.kind == RKind::Pair) {
        const std::string inner = fmt::format("({} {} {})", x, arith_text(info.first), y);
        value = info.pair_y ? fmt::format("{} {} {}", z, arith_text(info.does), inner)
                            : fmt::format("{} {} {}", inner, arith_text(info.does), z);
    } else if (info.first != ROp::Count_) {  // a chain
        value = fmt::format("r {} {} {} {}", arith_text(info.first), x, arith_text(info.does), y);
    } else if (info.does != ROp::Count_) {
        const std::string a = last_first ? "r" : x;
        const std::string b = reads == (kReadsX | kReadsLast) ? "r" : y;
        value = fmt::format("{} {} {}", a, arith_text(info.does), b);
    } else {
        switch (base) {
        case ROp::Move: value = x; break;
        case ROp::Neg: value = "-" + x; break;
        case ROp::Pos: value = "+" + x; break;
        case ROp::Not: value = "not " + x; break;
        case ROp::Cmp: case ROp::JumpUnlessCmp: case ROp::HeldCmp:
            value = fmt::format("{} {} {}", x, ast::compare_op_text(in.cmp), y);
            break;
        case ROp::Max2: value = fmt::format("max({}, {})", x, y); break;
        case ROp::Min2: value = fmt::format("min({}, {})", x, y); break;
        case ROp::Select: value = fmt::format("{} if {} else {}", y, x, z); break;
        case ROp::Held: case ROp::Store: value = y; break;
        case ROp::KeptZero: value = "0"; break;
        case ROp::SetMemo: value = "1"; break;
        default: break;
        }
    }
    std::string out;
    if (!dst.empty()) {
        if (reads & kReadsDst) out = fmt::format("{} += {}", dst, value);
        else out = fmt::format("{} = {}", dst, value);
        if (base == ROp::SumMulIf || base == ROp::FirstMulIf)
            out += fmt::format(" if {}{}", cell.keep(in.z), base == ROp::FirstMulIf ? " else 0" : "");
    }
    if (info.jumps == RJumps::May || info.jumps == RJumps::Always) {
        std::string test;
        switch (base) {
        case ROp::JumpIfFalse: test = "unless " + x; break;
        case ROp::JumpIfTrue: test = "if " + x; break;
        case ROp::JumpUnlessCmp: test = "unless " + value; break;
        case ROp::Kept: case ROp::KeptZero: test = "unless " + cell.keep(in.x); break;
        case ROp::SkipUnlessHeld: test = "unless " + cell.slot("held", in.x); break;
        case ROp::Memo: test = fmt::format("if memo[{}] ({})", in.x, y); break;
        default: break;
        }
        const std::string jump = test.empty() ? fmt::format("-> {:04}", in.dst) : fmt::format("{} -> {:04}", test, in.dst);
        out = out.empty() ? jump : out + "; " + jump;
    }
    return out;
}

std::string linear_operands(const Instr& in, const Code& code, const std::vector<std::string>& names) {
    const auto name = [&](std::uint32_t n) { return n < names.size() ? names[n] : fmt::format("name[{}]", n); };
    const auto constant = [&](std::uint32_t c) { return c < code.consts.size() ? repr(code.consts[c]) : fmt::format("const[{}]", c); };
    const auto fn = [&](std::uint32_t f) { return f < code.fns.size() ? code.fns[f].name : fmt::format("fn[{}]", f); };
    switch (lop_info(in.op).args) {
    case LArgs::None: return in.n != 0 ? fmt::format("n={}", in.n) : "";
    case LArgs::C: return constant(in.a);
    case LArgs::N: return name(in.a);
    case LArgs::P: return fmt::format("param {}", in.a);
    case LArgs::J: return fmt::format("-> {:04}", in.a);
    case LArgs::F: return fmt::format("{} n={}", fn(in.a), in.n);
    }
    return "";
}

// A line without its trailing spaces, and its newline.
std::string trimmed(std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + '\n';
}

}  // namespace

std::string dump_registers(const RegisterCode& code, const Program& program) {
    const Cells cell{code, program};
    std::string out = fmt::format("; {} instructions, {} cells ({} names, {} constants), {} memo bits\n",
                                  code.instrs.size(), code.cells, code.names, code.consts.size(), code.memos);
    for (const RegisterPin& pin : code.pins)
        out += fmt::format("; pinned: {} = {}\n", pin.name < program.names.size() ? program.names[pin.name] : "?",
                           repr(pin.value));
    for (std::size_t i = 0; i < code.instrs.size(); ++i) {
        const RInstr& in = code.instrs[i];
        out += trimmed(fmt::format("{:04}  {:<16}{}", i, rop_name(in.op), describe(in, cell)));
    }
    return out;
}

std::string dump_expression(const CompiledExpr& expr) {
    const std::uint32_t entry = expr.code.entry_of(expr.root);
    if (entry == kNoEntry) return "straight-line code: none (the tree is walked)\n";
    std::string out = "straight-line code:\n";
    for (std::size_t i = entry; i < expr.code.instrs.size(); ++i) {
        const Instr& in = expr.code.instrs[i];
        out += trimmed(fmt::format("{:04}  {:<16}{}", i, lop_name(in.op), linear_operands(in, expr.code, expr.names)));
        if (in.op == LOp::Return) break;
    }
    return out;
}

std::string dump_layer_code(const LayerCode& layer, const Program& program, const RegisterCode* typed) {
    std::string out;
    if (layer.registers) out += "register code:\n" + dump_registers(*layer.registers, program);
    else out += "register code: none (beyond its limits: each expression's own code prices the layer)\n";
    if (typed != nullptr) out += "\nregister code typed for this layer:\n" + dump_registers(*typed, program);
    return out;
}

}  // namespace oprec
