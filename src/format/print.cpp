#include "format/print.h"

#include <cmath>

#include <fmt/format.h>

#include "value/format.h"

namespace oprec::format {

namespace {

// Python's precedence, loosest first.
enum Prec : int { kIf = 1, kOr, kAnd, kNot, kCompare, kAdd, kMul, kUnary, kPow, kAtom };

int prec(const ast::Expr& e) {
    using K = ast::ExprKind;
    switch (e.kind) {
    case K::IfElse: return kIf;
    case K::Or: return kOr;
    case K::And: return kAnd;
    case K::Not: return kNot;
    case K::Compare: return kCompare;
    case K::Unary: return kUnary;
    case K::Binary:
        switch (e.binary_op) {
        case ast::BinaryOp::Add: case ast::BinaryOp::Sub: return kAdd;
        case ast::BinaryOp::Pow: return kPow;
        default: return kMul;
        }
    case K::Literal: {
        // A negative number binds as a unary minus would.
        const Value& v = e.literal;
        return (v.is_int() && v.i < 0) || (v.is_float() && std::signbit(v.f)) ? kUnary : kAtom;
    }
    default: return kAtom;
    }
}

std::string literal(const Value& v) {
    if (v.is_float() && std::isinf(v.f)) return v.f > 0 ? "1e999" : "-1e999";  // `inf` would be a name
    return repr(v);
}

void write(std::string& out, const ast::Expr& e, int need);

void write_list(std::string& out, const ast::Expr& e, const char* sep, int need) {
    for (std::size_t k = 0; k < e.kids.size(); ++k) {
        if (k > 0) out += sep;
        write(out, e.kids[k], need);
    }
}

void write(std::string& out, const ast::Expr& e, int need) {
    using K = ast::ExprKind;
    const bool paren = prec(e) < need;
    if (paren) out += '(';
    switch (e.kind) {
    case K::Literal: out += literal(e.literal); break;
    case K::Name: out += e.name; break;
    case K::Refused: out += "<" + e.name + ">"; break;  // never loads; printed to compare only
    case K::Unary:
        out += e.unary_op == ast::UnaryOp::Neg ? "-" : "+";
        write(out, e.kids[0], kUnary);
        break;
    case K::Not:
        out += "not ";
        write(out, e.kids[0], kNot);
        break;
    case K::Binary:
        if (e.binary_op == ast::BinaryOp::Pow) {
            write(out, e.kids[0], kAtom);
            out += " ** ";
            write(out, e.kids[1], kUnary);
        } else {
            write(out, e.kids[0], prec(e));
            out += fmt::format(" {} ", ast::binary_op_text(e.binary_op));
            write(out, e.kids[1], prec(e) + 1);
        }
        break;
    case K::And: write_list(out, e, " and ", kNot); break;
    case K::Or: write_list(out, e, " or ", kAnd); break;
    case K::Compare:
        for (std::size_t k = 0; k < e.kids.size(); ++k) {
            if (k > 0) out += fmt::format(" {} ", ast::compare_op_text(e.compare_ops[k - 1]));
            write(out, e.kids[k], kAdd);
        }
        break;
    case K::IfElse:
        write(out, e.kids[0], kOr);
        out += " if ";
        write(out, e.kids[1], kOr);
        out += " else ";
        write(out, e.kids[2], kIf);
        break;
    case K::Call:
        out += e.name + "(";
        write_list(out, e, ", ", kIf);
        out += ')';
        break;
    }
    if (paren) out += ')';
}

std::string quoted(const std::string& s) {
    return s.find('"') == std::string::npos ? "\"" + s + "\"" : "'" + s + "'";
}

std::string names(const std::vector<ast::Ident>& ids) {
    std::string out;
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i > 0 ? ", " : "") + ids[i].text;
    return out;
}

std::string setting(const ast::SettingDecl& s) {
    return fmt::format("{} {} = {}", s.model ? "model" : "run", s.name.text, expr_source(s.value));
}

struct DeclWriter {
    std::string operator()(const ast::ImportDecl& d) const { return "import " + quoted(d.path); }
    std::string operator()(const ast::VocabDecl& d) const {
        return fmt::format("{} {}", ast::vocab_keyword(d.kind), names(d.names));
    }
    std::string operator()(const ast::DefaultDecl& d) const {
        return fmt::format("default {} = {}", d.name.text, expr_source(d.value));
    }
    std::string operator()(const ast::OpDecl& d) const {
        std::string out = d.part_of ? fmt::format("part {} of {}", d.name.text, d.part_of->text) : "op " + d.name.text;
        if (d.switch_name) out += " switch " + d.switch_name->text;
        if (!d.needs.empty()) out += " needs " + names(d.needs);
        if (d.comm) out += " comm";
        return out;
    }
    std::string operator()(const ast::SlotDecl& d) const {
        std::string out = fmt::format("slot {} in {}", d.name.text, d.layer_part.text);
        if (d.when) out += " when " + expr_source(*d.when);
        out += " {\n";
        for (const ast::SlotEntry& e : d.entries) out += fmt::format("    {} = {}\n", e.target.text, expr_source(e.expr));
        return out + "}";
    }
    std::string operator()(const ast::FnDecl& d) const {
        return fmt::format("fn {}({}) = {}", d.name.text, names(d.params), expr_source(d.body));
    }
    std::string operator()(const ast::FieldDecl& d) const {
        std::string out = fmt::format("{} {} : ", d.context ? "context" : "field", d.name.text);
        for (std::size_t i = 0; i < d.types.size(); ++i) out += (i > 0 ? " | " : "") + d.types[i].text;
        if (d.optional) out += "?";
        if (!d.unit.empty() || !d.doc.empty()) out += ", " + quoted(d.unit);
        if (!d.doc.empty()) out += ", " + quoted(d.doc);
        return out;
    }
    std::string operator()(const ast::SettingDecl& d) const { return setting(d); }
    std::string operator()(const ast::TermDecl& d) const {
        return fmt::format("{} {} = {}", d.beside ? "beside" : "term", d.name.text, expr_source(d.value));
    }
    std::string operator()(const ast::ProfileDecl& d) const {
        std::string out = "profile " + d.name.text;
        for (std::size_t i = 0; i < d.matches.size(); ++i) out += (i > 0 ? ", " : " matches ") + quoted(d.matches[i].text);
        out += " {\n";
        for (const ast::ProfileKind& k : d.kinds) {
            out += "    kind " + k.name.text;
            for (const auto& [what, value] : k.flavours) out += " " + what.text + " " + value.text;
            out += " =";
            for (std::size_t i = 0; i < k.counts.size(); ++i) {
                const ast::OpCount& c = k.counts[i];
                out += c.op ? fmt::format("{} {} {}", i > 0 ? "," : "", c.op->text, c.count) : fmt::format(" {}", c.count);
            }
            out += "\n";
        }
        for (const ast::Ident& k : d.default_kinds) out += "    default kind " + k.text + "\n";
        for (const ast::SettingDecl& s : d.settings) out += "    " + setting(s) + "\n";
        return out + "}";
    }
};

}  // namespace

std::string expr_source(const ast::Expr& e) {
    std::string out;
    write(out, e, kIf);
    return out;
}

std::string decl_source(const ast::Decl& d) { return std::visit(DeclWriter{}, d); }

std::string module_source(const ast::Module& m) {
    std::string out;
    for (const ast::Decl& d : m.decls) out += decl_source(d) + "\n";
    return out;
}

}  // namespace oprec::format
