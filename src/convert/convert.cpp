#include "convert/convert.h"

#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "format/print.h"
#include "value/format.h"

namespace oprec::yaml {

namespace {

// The line a declaration stands at in its file.
std::uint32_t line_of(const ast::Decl& d) {
    return std::visit([](const auto& x) -> std::uint32_t {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, ast::DefaultDecl> || std::is_same_v<T, ast::FnDecl>) return x.name.span.line;
        else return x.span.line;
    }, d);
}

// The YAML's comment lines, by line.
std::vector<std::pair<std::uint32_t, std::string>> comments_of(const SourceFile& yaml) {
    std::vector<std::pair<std::uint32_t, std::string>> out;
    for (std::uint32_t l = 1; l <= yaml.line_count(); ++l) {
        std::string_view text = yaml.line(l);
        const auto first = text.find_first_not_of(" \t");
        if (first == std::string_view::npos || text[first] != '#') continue;
        text.remove_prefix(first);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
        out.emplace_back(l, std::string(text));
    }
    return out;
}

// ---- writing YAML

// Words YAML 1.1 reads as a bool or null (PyYAML, the reference's loader,
// reads most of them so; y, n and None are here for other YAML 1.1 readers).
bool yaml11_word(const std::string& text) {
    static const std::set<std::string> words{
        "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "~", "None"};
    return words.contains(text);
}

// A formula, or a name, as a YAML scalar the reference reads as a string:
// plain where YAML would not read it as anything else, else double-quoted.
std::string scalar(const std::string& text) {
    static const std::string indicators = "-?:,[]{}#&*!|>'\"%@`";
    bool plain = !text.empty() && indicators.find(text[0]) == std::string::npos &&
                 text.find(": ") == std::string::npos && text.find(" #") == std::string::npos;
    // A number, bool or null read as such, not as a formula's text.
    const bool typed = text.find_first_not_of("0123456789._+-eE") == std::string::npos || yaml11_word(text);
    if (plain && !typed) return text;
    std::string q = "\"";
    for (char c : text) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return q + "\"";
}

// A default's number as PyYAML reads one (YAML 1.1: a float has a dot).
std::string number(const Value& v) {
    if (v.is_bool()) return v.b ? "true" : "false";
    if (v.is_int()) return std::to_string(v.i);
    if (std::isnan(v.f)) return ".nan";
    if (std::isinf(v.f)) return v.f > 0 ? ".inf" : "-.inf";
    std::string r = repr(v);
    if (r.find('.') == std::string::npos) {
        const auto e = r.find('e');
        r.insert(e == std::string::npos ? r.size() : e, ".0");
    }
    return r;
}

std::string flow_names(const std::vector<ast::Ident>& ids) {
    std::string out = "[";
    for (std::size_t i = 0; i < ids.size(); ++i) out += (i > 0 ? ", " : "") + scalar(ids[i].text);
    return out + "]";
}

// Where the records came from, on the header's one comment line: a file
// name's line breaks (and other control bytes) would start YAML of its own.
std::string one_line(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return text;
}

// Calls of the records' fns written out: the body, its parameters replaced
// by the arguments (themselves written out).
class Inliner {
public:
    explicit Inliner(const std::vector<const ast::FnDecl*>& fns) {
        for (const ast::FnDecl* f : fns) fns_[f->name.text] = f;
    }
    ast::Expr operator()(const ast::Expr& e) const {
        ast::Expr out = e;
        for (ast::Expr& kid : out.kids) kid = (*this)(kid);
        if (out.kind != ast::ExprKind::Call) return out;
        auto it = fns_.find(out.name);
        if (it == fns_.end()) return out;  // max, min
        std::map<std::string, const ast::Expr*> args;
        for (std::size_t i = 0; i < it->second->params.size() && i < out.kids.size(); ++i)
            args[it->second->params[i].text] = &out.kids[i];
        // The parameters first, then the calls in the body: expanding a
        // call first would let a parameter capture a name of the callee's
        // body (fn inner(x) = x + h; fn outer(h) = inner(1)).
        return (*this)(substitute(it->second->body, args));
    }

private:
    static ast::Expr substitute(const ast::Expr& e, const std::map<std::string, const ast::Expr*>& args) {
        if (e.kind == ast::ExprKind::Name)
            if (auto it = args.find(e.name); it != args.end()) return *it->second;
        ast::Expr out = e;
        for (ast::Expr& kid : out.kids) kid = substitute(kid, args);
        return out;
    }
    std::map<std::string, const ast::FnDecl*> fns_;
};

}  // namespace

std::string rec_from_yaml(const ast::Module& module, const SourceFile& yaml) {
    const auto comments = comments_of(yaml);
    std::size_t next = 0;  // the next comment to write
    auto comments_before = [&](std::uint32_t line) {
        std::string out;
        for (; next < comments.size() && comments[next].first < line; ++next) out += comments[next].second + "\n";
        return out;
    };
    std::uint32_t first_line = 0;
    for (const ast::Decl& d : module.decls)
        if (!std::holds_alternative<ast::ImportDecl>(d) && first_line == 0) first_line = line_of(d);
    std::string out = comments_before(first_line == 0 ? yaml.line_count() + 1 : first_line);
    if (!out.empty()) out += "\n";
    for (const ast::Decl& d : module.decls)
        if (std::holds_alternative<ast::ImportDecl>(d)) out += format::decl_source(d) + "\n";
    const ast::Decl* prev = nullptr;
    for (const ast::Decl& d : module.decls) {
        if (std::holds_alternative<ast::ImportDecl>(d)) continue;
        const std::string before = comments_before(line_of(d));
        // A blank line between kinds of declaration, and before each slot and comment.
        const bool apart = prev == nullptr || prev->index() != d.index() || std::holds_alternative<ast::SlotDecl>(d) ||
                           !before.empty() || (std::get_if<ast::OpDecl>(prev) && std::get<ast::OpDecl>(*prev).is_part() !=
                                                                                    std::get<ast::OpDecl>(d).is_part());
        if (apart) out += "\n";
        out += before + format::decl_source(d) + "\n";
        prev = &d;
    }
    const std::string rest = comments_before(yaml.line_count() + 1);
    return rest.empty() ? out : out + "\n" + rest;
}

std::string yaml_from_rec(const std::vector<ast::Module>& modules, const Program& program, const std::string& origin) {
    std::vector<const ast::DefaultDecl*> defaults;
    std::vector<const ast::OpDecl*> ops, parts;
    std::vector<const ast::SlotDecl*> slots;
    std::vector<const ast::FnDecl*> fns;
    for (const ast::Module& m : modules)
        for (const ast::Decl& d : m.decls) {
            if (const auto* x = std::get_if<ast::DefaultDecl>(&d)) defaults.push_back(x);
            if (const auto* x = std::get_if<ast::OpDecl>(&d)) (x->is_part() ? parts : ops).push_back(x);
            if (const auto* x = std::get_if<ast::SlotDecl>(&d)) slots.push_back(x);
            if (const auto* x = std::get_if<ast::FnDecl>(&d)) fns.push_back(x);
        }
    const Inliner inline_fns(fns);
    auto formula = [&](const ast::Expr& e) { return scalar(format::expr_source(inline_fns(e))); };

    std::string out = fmt::format("# Op records, written by `oprec export` from {}.\n", one_line(origin));
    if (!defaults.empty()) out += "defaults:\n";
    for (const ast::DefaultDecl* d : defaults) {
        auto name = program.find_name(d->name.text);
        const std::optional<Value> v = name ? program.defaults[*name] : std::nullopt;
        out += fmt::format("  {}: {}\n", scalar(d->name.text), v ? number(*v) : format::expr_source(d->value));
    }
    auto record = [&](const ast::OpDecl* r) {
        out += fmt::format("  {}:\n", scalar(r->name.text));
        if (r->part_of) out += fmt::format("    part_of: {}\n", scalar(r->part_of->text));
        if (r->switch_name) out += fmt::format("    switch: {}\n", scalar(r->switch_name->text));
        out += fmt::format("    needs: {}\n", flow_names(r->needs));
        if (r->comm) out += "    comm: true\n";
    };
    out += "ops:\n";
    for (const ast::OpDecl* r : ops) record(r);
    if (!parts.empty()) out += "parts:\n";
    for (const ast::OpDecl* r : parts) record(r);
    out += "slots:\n";
    for (const ast::SlotDecl* s : slots) {
        out += fmt::format("  {}:\n    part: {}\n", scalar(s->name.text), scalar(s->layer_part.text));
        if (s->when) out += fmt::format("    when: {}\n", formula(*s->when));
        for (const ast::SlotEntry& e : s->entries)
            if (e.target.text == "bytes") out += fmt::format("    formula: {}\n", formula(e.expr));
        out += "    ops:\n";
        bool any = false;
        for (const ast::SlotEntry& e : s->entries)
            if (e.target.text != "bytes") out += fmt::format("      {}: {}\n", scalar(e.target.text), formula(e.expr)), any = true;
        if (!any) out.replace(out.size() - 2, 2, ": {}\n");
    }
    return out;
}

}  // namespace oprec::yaml
