#include "lint/expr_text.h"

#include "value/format.h"

namespace oprec::lint {

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
    default: return kAtom;
    }
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
    const int p = prec(e);
    const bool paren = p < need;
    if (paren) out += '(';
    switch (e.kind) {
    case K::Literal: out += repr(e.literal); break;
    case K::Name: out += e.name; break;
    case K::Refused: out += "<" + e.name + ">"; break;
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
            write(out, e.kids[0], p);
            out += std::string(" ") + ast::binary_op_text(e.binary_op) + " ";
            write(out, e.kids[1], p + 1);
        }
        break;
    case K::And: write_list(out, e, " and ", kNot); break;
    case K::Or: write_list(out, e, " or ", kAnd); break;
    case K::Compare:
        for (std::size_t k = 0; k < e.kids.size(); ++k) {
            if (k > 0) out += std::string(" ") + ast::compare_op_text(e.compare_ops[k - 1]) + " ";
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

}  // namespace

std::string expr_text(const ast::Expr& e) {
    std::string out;
    write(out, e, kIf);
    return out;
}

}  // namespace oprec::lint
