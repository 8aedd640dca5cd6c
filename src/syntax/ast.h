// The AST of a .rec file: our own tree, built from ANTLR's parse tree and
// independent of it. Every node keeps its Span.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "diag/source.h"
#include "value/arith.h"
#include "value/value.h"

namespace oprec::ast {

enum class ExprKind : std::uint8_t {
    Literal,   // literal: a number or True/False
    Name,      // name
    Unary,     // unary_op kids[0]; `not` is Not
    Not,       // kids[0]
    Binary,    // kids[0] binary_op kids[1]
    And,       // kids[0] and kids[1] and ...
    Or,        // kids[0] or kids[1] or ...
    Compare,   // kids[0] compare_ops[0] kids[1] compare_ops[1] kids[2] ...
    IfElse,    // kids[0] if kids[1] else kids[2]
    Call,      // name(kids...)
    Refused,   // something the language does not accept (a string, None, ...): name says what
};

enum class UnaryOp : std::uint8_t { Neg, Pos };
enum class BinaryOp : std::uint8_t { Add, Sub, Mul, Div, FloorDiv, Mod, Pow };

const char* binary_op_text(BinaryOp op);
const char* compare_op_text(py::CmpOp op);

// One flat node type: the kinds are few and small, and a plain struct keeps
// the tree a value that copies and compares without ceremony.
struct Expr {
    ExprKind kind = ExprKind::Literal;
    Span span;
    Value literal;                       // Literal
    std::string name;                    // Name, Call (the callee), Refused (what it is)
    UnaryOp unary_op = UnaryOp::Neg;     // Unary
    BinaryOp binary_op = BinaryOp::Add;  // Binary
    std::vector<py::CmpOp> compare_ops;  // Compare
    std::vector<Expr> kids;
};

struct Ident {
    std::string text;
    Span span;
};

struct ImportDecl {
    std::string path;  // as written, quotes removed
    Span span;
};

enum class VocabKind : std::uint8_t { Switches, LayerParts, OpVector };
const char* vocab_keyword(VocabKind kind);

struct VocabDecl {
    VocabKind kind;
    std::vector<Ident> names;
    Span span;  // the keyword
};

struct DefaultDecl {
    Ident name;
    Expr value;
};

// `op NAME ...` or `part NAME of OP ...`.
struct OpDecl {
    Ident name;
    std::optional<Ident> part_of;  // set for a part
    std::optional<Ident> switch_name;
    std::vector<Ident> needs;
    bool comm = false;
    Span span;  // the keyword
    std::vector<Span> duplicate_clauses;  // a clause stated twice: the checker reports it
    bool is_part() const { return part_of.has_value(); }
};

struct SlotEntry {
    Ident target;  // an op, a part, or `bytes` for the formula
    Expr expr;
};

struct SlotDecl {
    Ident name;
    Ident layer_part;
    std::optional<Expr> when;
    std::vector<SlotEntry> entries;
    Span span;  // the keyword
};

struct FnDecl {
    Ident name;
    std::vector<Ident> params;
    Expr body;
};

// `field NAME : int | float ?, "unit", "meaning"` (or `context NAME ...`).
struct FieldDecl {
    bool context = false;          // a value of the evaluation, not of the layer config
    Ident name;
    std::vector<Ident> types;      // int, float, bool, str
    bool optional = false;         // may be absent or stated as none
    std::string unit;
    std::string doc;
    Span span;  // the keyword
};

// `run NAME = VALUE` at the top level: a run default of every family.
// `run`/`model NAME = VALUE` in a profile: that family's own.
struct SettingDecl {
    bool model = false;  // a model default (`model v_head_dim = 128`), else a run setting
    Ident name;
    Expr value;
    Span span;  // the keyword
    std::vector<Ident> matches;  // a model default's own name prefixes; none: every model of the family
};

// One op count, where the kind names it (`attMM 4`); a count vector's
// entries have no name and take the op vector's order.
struct OpCount {
    std::optional<Ident> op;
    std::int64_t count = 0;
    Span span;
};

// `kind NAME FLAVOUR VALUE ... = COUNTS`: one layer kind of a profile.
struct ProfileKind {
    Ident name;
    std::vector<std::pair<Ident, Ident>> flavours;  // (ffn, dense), (attention, linear)
    std::vector<OpCount> counts;
    bool named = false;  // counts by op name, else in the op vector's order
    Span span;           // the keyword
};

// `profile NAME matches "PREFIX", ... { kinds, default kind, settings }`.
struct ProfileDecl {
    Ident name;
    std::vector<Ident> matches;  // the model-name prefixes, quotes removed
    std::vector<ProfileKind> kinds;
    std::vector<Ident> default_kinds;  // more than one is an error the checker reports
    std::vector<SettingDecl> settings;
    Span span;  // the keyword
};

// `term NAME = EXPR`: bytes a rank holds, summed into its stage's total;
// `beside NAME = EXPR`: reported beside the total, not in it.
struct TermDecl {
    bool beside = false;
    Ident name;
    Expr value;
    Span span;  // the keyword
};

using Decl = std::variant<ImportDecl, VocabDecl, DefaultDecl, OpDecl, SlotDecl, FnDecl, FieldDecl, SettingDecl,
                          ProfileDecl, TermDecl>;

struct Module {
    FileId file = 0;
    std::vector<Decl> decls;  // in source order
};

}  // namespace oprec::ast
