// What the linter looks at: the modules a load parsed, with each
// declaration found by name and every expression listed with its context.
// Built from the AST alone, so warnings come also when a check failed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "check/loader.h"
#include "syntax/ast.h"

namespace oprec::lint {

template <class T>
struct Decl {
    FileId file = 0;
    const T* decl = nullptr;
};

// Where an expression sits, which decides what it may read.
enum class SiteKind { When, Entry, Formula, FnBody, Default, Term };

struct Site {
    SiteKind kind;
    FileId file = 0;
    const ast::Expr* expr = nullptr;
    const ast::SlotDecl* slot = nullptr;  // When, Entry, Formula
    const ast::FnDecl* fn = nullptr;      // FnBody
};

class Index {
public:
    explicit Index(const LoadResult& load);

    const LoadResult& load() const { return load_; }
    const SourceMap& sources() const { return load_.sources; }
    FileId root() const { return root_; }

    // A library file: found through the search path (the standard library,
    // OPREC_PATH), or imported by one. Its warnings are the library's, not
    // the linted records': they are not reported.
    bool library(FileId file) const { return file < library_.size() && library_[file]; }
    // The import in a file of the records (not the library) that brought a
    // library file in, for a warning about the library's vocabulary.
    std::optional<Span> user_import(FileId file) const;
    // The import declaration that first brought a file in, if any.
    std::optional<Span> imported_at(FileId file) const;

    // The first declaration of each name (a second is the checker's error).
    std::map<std::string, Decl<ast::FieldDecl>> fields;  // fields and context values
    std::map<std::string, Decl<ast::DefaultDecl>> defaults;
    std::map<std::string, Decl<ast::FnDecl>> fns;
    std::map<std::string, Decl<ast::OpDecl>> records;  // ops and parts
    std::vector<Decl<ast::OpDecl>> record_list;        // in declaration order
    std::vector<Decl<ast::SlotDecl>> slots;
    std::vector<Decl<ast::FnDecl>> fn_list;
    std::vector<Decl<ast::DefaultDecl>> default_list;
    std::vector<Decl<ast::TermDecl>> terms;  // the whole-rank model's terms
    std::optional<Decl<ast::VocabDecl>> switches, layer_parts, op_vector;
    bool has_schema = false;

    // Every expression, in load order.
    std::vector<Site> sites;

    const ast::FieldDecl* field(const std::string& name) const;

private:
    const LoadResult& load_;
    FileId root_ = 0;
    std::vector<bool> library_;                    // by FileId
    std::vector<std::optional<Span>> imported_at_;  // by FileId
};

// Calls `f(expr)` for `e` and every expression below it, parents first.
// The front end bounds the depth of an expression, so recursion is safe.
template <class F>
void each_expr(const ast::Expr& e, F&& f) {
    f(e);
    for (const ast::Expr& k : e.kids) each_expr(k, f);
}

}  // namespace oprec::lint
