#include "yaml/records_yaml.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "diag/codes.h"
#include "diag/suggest.h"
#include "yaml/scalar_text.h"
#include "yaml/yaml_progress.h"

namespace oprec::yaml {

namespace {


// Python's keywords: no formula could read a name spelt like one.
const std::set<std::string_view> kKeywords{
    "False", "None",   "True",    "and",      "as",     "assert", "async",  "await", "break",
    "class", "continue", "def",   "del",      "elif",   "else",   "except", "finally", "for",
    "from",  "global", "if",      "import",   "in",     "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",   "return",   "try",    "while",  "with",   "yield"};

bool is_name(const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return !kKeywords.contains(s);
}

// YAML 1.1's float specials (.nan, .inf, -.Inf, ...), which Python's YAML
// reads as floats and the language's expressions do not have.
bool is_special_float(const std::string& s) {
    std::string_view v = s;
    if (v.starts_with("+") || v.starts_with("-")) v.remove_prefix(1);
    for (std::string_view special : {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF"})
        if (v == special) return true;
    return false;
}

const char* node_kind(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map: return "a mapping";
        case YAML::NodeType::Sequence: return "a list";
        case YAML::NodeType::Scalar: return "a scalar";
        default: return "nothing";
    }
}

class Reader {
public:
    Reader(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags)
        : yaml_(sources.file(file)), file_(file), diags_(diags) {
        module_.file = file;
    }

    ast::Module read() {
        YAML::Node root;
        if (const auto stall = where_parser_stalls(yaml_.text())) {
            const std::size_t pos = static_cast<std::size_t>(std::max(stall->pos, 0));
            const bool comma = pos < yaml_.text().size() && yaml_.text()[pos] == ',';
            error(at(*stall, 1), code::kYamlSyntax,
                  comma ? "not YAML: a `,` outside a flow collection (`[...]` or `{...}`), where a value should start"
                        : "not YAML: the YAML reader makes no progress here");
            return std::move(module_);
        }
        try {
            std::vector<YAML::Node> documents = YAML::LoadAll(yaml_.text());
            if (documents.size() > 1) {  // the second would be ignored, silently
                error(second_document(documents[1]), code::kYamlShape,
                      "a second YAML document: the records are one document (remove this `---` and what follows, "
                      "or merge them)");
                return std::move(module_);
            }
            if (!documents.empty()) root = documents[0];
        } catch (const YAML::Exception& e) {
            error(at(e.mark, 1), code::kYamlSyntax, fmt::format("not YAML: {}", e.msg));
            return std::move(module_);
        }
        Span ops_key{file_, 1, 1, 0};
        if (root.IsMap()) {
            for (const auto& kv : root)
                if (kv.first.IsScalar() && kv.first.Scalar() == "ops") ops_key = at(kv.first);
        }
        // The vocabulary stands where the ops are checked against it.
        module_.decls.emplace_back(ast::ImportDecl{kVocabularyImport, ops_key});
        module_.decls.emplace_back(ast::ImportDecl{kFieldsImport, ops_key});
        if (root.IsNull()) return std::move(module_);  // an empty file: the checker says what is missing
        if (!expect(root, YAML::NodeType::Map, "the records, a mapping of defaults, ops, parts and slots"))
            return std::move(module_);
        each(root, {"defaults", "ops", "parts", "slots"}, [&](const std::string& key, const YAML::Node& value) {
            if (key == "defaults") defaults(value);
            else if (key == "ops") records(value, false);
            else if (key == "parts") records(value, true);
            else slots(value);
        });
        return std::move(module_);
    }

private:
    // ---- positions and diagnostics
    // Where the second document starts: its `---` (an empty document has no
    // mark of its own), else its first node.
    Span second_document(const YAML::Node& doc) const {
        const std::string_view text = yaml_.text();
        int markers = 0;
        const bool leading = text.starts_with("---");
        YAML::Mark mark;
        for (std::size_t at = 0; at < text.size(); ++mark.line) {
            if (text.compare(at, 3, "---") == 0 && ++markers == (leading ? 2 : 1)) return this->at(mark, 3);
            const std::size_t nl = text.find('\n', at);
            if (nl == std::string_view::npos) break;
            at = nl + 1;
        }
        return this->at(doc);
    }

    Span at(const YAML::Mark& m, std::uint32_t len) const {
        if (m.is_null() || m.line < 0) return {file_, 1, 1, len};
        const auto line = std::min<std::uint32_t>(static_cast<std::uint32_t>(m.line) + 1, yaml_.line_count());
        const std::string_view text = yaml_.line(line);
        const std::size_t byte = std::min<std::size_t>(static_cast<std::size_t>(std::max(m.column, 0)), text.size());
        return {file_, line, static_cast<std::uint32_t>(column_count(text.substr(0, byte)) + 1), len};
    }
    Span at(const YAML::Node& n) const {
        const auto len = n.IsScalar() ? std::max<std::size_t>(column_count(n.Scalar()), 1) : 1;
        return at(n.Mark(), static_cast<std::uint32_t>(len));
    }
    std::size_t offset(const YAML::Node& n) const {
        const Span s = at(n.Mark(), 0);
        return yaml_.line_start(s.line) + byte_of_column(yaml_.line(s.line), s.col);
    }
    Diagnostic& error(Span span, const char* code, std::string message) {
        diags_.push_back({Severity::Error, code, span, std::move(message), {}, {}});
        return diags_.back();
    }

    bool expect(const YAML::Node& n, YAML::NodeType::value type, std::string_view what) {
        if (n.Type() == type) return true;
        error(at(n), code::kYamlShape, fmt::format("expected {}, found {}", what, node_kind(n)));
        return false;
    }

    // A mapping's entries in order, each key checked against `allowed` (empty: any name).
    template <class Visit>
    void each(const YAML::Node& map, const std::vector<std::string>& allowed, Visit&& visit) {
        std::map<std::string, Span> seen;
        for (const auto& kv : map) {
            if (!kv.first.IsScalar()) {
                error(at(kv.first), code::kYamlShape, fmt::format("expected a name as a key, found {}", node_kind(kv.first)));
                continue;
            }
            const std::string& key = kv.first.Scalar();
            const Span where = at(kv.first);
            if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                Diagnostic& d = error(where, code::kYamlUnknownKey, fmt::format("unknown key `{}`: expected {}", key,
                                                                       fmt::join(allowed, ", ")));
                if (auto near = closest_name(key, allowed)) d.fix = FixIt{where, *near};
                continue;
            }
            if (auto [it, fresh] = seen.emplace(key, where); !fresh) {
                Diagnostic& d = error(where, code::kDuplicateDeclaration, fmt::format("`{}` is stated twice", key));
                d.notes.push_back({it->second, "first stated here"});
                continue;
            }
            visit(key, kv.second);
        }
    }

    std::optional<ast::Ident> name(const YAML::Node& n, std::string_view what) {
        if (!n.IsScalar() || !is_name(n.Scalar())) {
            error(at(n), code::kYamlShape, fmt::format("expected {}, a name, found {}", what,
                                                n.IsScalar() ? fmt::format("`{}`", n.Scalar()) : node_kind(n)));
            return std::nullopt;
        }
        return ast::Ident{n.Scalar(), at(n)};
    }
    std::optional<ast::Ident> key_name(const std::string& key, const Span& where, std::string_view what) {
        if (is_name(key)) return ast::Ident{key, where};
        error(where, code::kYamlShape, fmt::format("expected {}, a name, found `{}`", what, key));
        return std::nullopt;
    }
    Span key_span(const YAML::Node& map, const std::string& key) {
        for (const auto& kv : map)
            if (kv.first.IsScalar() && kv.first.Scalar() == key) return at(kv.first);
        return at(map);
    }

    std::optional<ast::Expr> expr(const YAML::Node& n, std::string_view what) {
        if (!n.IsScalar()) {
            error(at(n), code::kYamlShape, fmt::format("expected {}, a formula, found {}", what, node_kind(n)));
            return std::nullopt;
        }
        if (n.Tag() == "?" && is_special_float(n.Scalar())) {  // YAML's, not Python's: no formula has them
            error(at(n), code::kYamlShape,
                  fmt::format("`{}` is YAML's {}: {} must be a finite number or a formula", n.Scalar(),
                              n.Scalar().find_first_of("aA") != std::string::npos ? "not-a-number" : "infinity", what));
            return std::nullopt;
        }
        const ScalarPlace place(yaml_, file_, offset(n), n.Scalar());
        return parse_scalar_expr(place, n.Scalar(), diags_);
    }

    // ---- the sections
    void defaults(const YAML::Node& map) {
        if (map.IsNull() || !expect(map, YAML::NodeType::Map, "defaults, a mapping of names to numbers")) return;
        each(map, {}, [&](const std::string& key, const YAML::Node& value) {
            auto id = key_name(key, key_span(map, key), "a default's field");
            // A plain scalar that is a number: YAML has it typed so, and a
            // quoted one is a string, which the reference refuses.
            std::optional<ast::Expr> e;
            if (value.IsScalar() && value.Tag() == "?") {
                e = expr(value, "a default");  // its own errors are the reason it is not a number
                bool number = e && (e->kind == ast::ExprKind::Literal ||
                                    (e->kind == ast::ExprKind::Unary && e->kids[0].kind == ast::ExprKind::Literal));
                if (number && e->kind == ast::ExprKind::Literal && e->literal.is_bool()) number = false;
                if (!number) e.reset();
                // 1.0e+400: Python's float reads it as inf, which export cannot write back.
                const ast::Expr* literal = e ? (e->kind == ast::ExprKind::Literal ? &*e : &e->kids[0]) : nullptr;
                if (literal && literal->literal.is_float() && !std::isfinite(literal->literal.f)) {
                    error(at(value), code::kYamlShape,
                          fmt::format("`{}` is beyond a float's range: a default must be a finite number", value.Scalar()));
                    return;
                }
            }
            if (!e) {
                error(at(value), code::kDefaultNotConstant, fmt::format("the default of `{}` is not a number", key));
                return;
            }
            if (id) module_.decls.emplace_back(ast::DefaultDecl{*id, std::move(*e)});
        });
    }

    void records(const YAML::Node& map, bool parts) {
        const char* what = parts ? "parts, a mapping of part names to their records"
                                 : "ops, a mapping of op names to their records";
        if (map.IsNull() || !expect(map, YAML::NodeType::Map, what)) return;
        const std::vector<std::string> keys = parts ? std::vector<std::string>{"part_of", "switch", "needs"}
                                                    : std::vector<std::string>{"switch", "needs", "comm"};
        for (const auto& kv : map) {
            if (!kv.first.IsScalar()) {
                error(at(kv.first), code::kYamlShape, "expected an op's name as a key");
                continue;
            }
            auto id = key_name(kv.first.Scalar(), at(kv.first), parts ? "a part" : "an op");
            const YAML::Node& body = kv.second;
            if (!id || !expect(body, YAML::NodeType::Map, parts ? "a part's record, a mapping" : "an op's record, a mapping"))
                continue;
            ast::OpDecl op;
            op.name = *id;
            op.span = id->span;
            each(body, keys, [&](const std::string& key, const YAML::Node& value) {
                if (key == "switch") {
                    if (!value.IsNull()) op.switch_name = name(value, "a switch");
                } else if (key == "part_of") {
                    op.part_of = name(value, "the op it is part of");
                } else if (key == "comm") {
                    bool comm = false;
                    if (!value.IsScalar() || !YAML::convert<bool>::decode(value, comm))
                        error(at(value), code::kYamlShape, "expected comm, true or false");
                    op.comm = comm;
                } else if (!value.IsNull() && expect(value, YAML::NodeType::Sequence, "needs, a list of ops")) {
                    for (const YAML::Node& n : value)
                        if (auto need = name(n, "an op it needs")) op.needs.push_back(*need);
                }
            });
            if (parts && !op.part_of) {
                if (!body.IsMap()) continue;
                error(id->span, code::kYamlShape, fmt::format("part `{}` states no part_of: the op it is part of", id->text));
                continue;
            }
            module_.decls.emplace_back(std::move(op));
        }
    }

    void slots(const YAML::Node& map) {
        if (map.IsNull() || !expect(map, YAML::NodeType::Map, "slots, a mapping of slot names to slots")) return;
        for (const auto& kv : map) {
            if (!kv.first.IsScalar()) {
                error(at(kv.first), code::kYamlShape, "expected a slot's name as a key");
                continue;
            }
            auto id = key_name(kv.first.Scalar(), at(kv.first), "a slot");
            if (!id || !expect(kv.second, YAML::NodeType::Map, "a slot, a mapping of part, when, formula and ops"))
                continue;
            slot(*id, kv.second);
        }
    }

    void slot(const ast::Ident& id, const YAML::Node& body) {
        ast::SlotDecl s;
        s.name = id;
        s.span = id.span;
        bool has_part = false, has_formula = false, has_ops = false;
        std::optional<ast::SlotEntry> formula;
        each(body, {"part", "when", "formula", "ops"}, [&](const std::string& key, const YAML::Node& value) {
            if (key == "part") {
                has_part = true;
                if (auto part = name(value, "the slot's layer part")) s.layer_part = *part;
            } else if (key == "when") {
                if (!value.IsNull()) s.when = expr(value, "when");
            } else if (key == "formula") {
                has_formula = true;
                if (auto e = expr(value, "the slot's formula"))
                    formula = ast::SlotEntry{ast::Ident{"bytes", key_span(body, key)}, std::move(*e)};
            } else {
                has_ops = true;
                if (value.IsNull() || !expect(value, YAML::NodeType::Map, "ops, a mapping of ops to element formulas"))
                    return;
                each(value, {}, [&](const std::string& op, const YAML::Node& e) {
                    auto target = key_name(op, key_span(value, op), "an op or part");
                    auto elements = expr(e, "the op's elements");
                    if (target && elements) s.entries.push_back({*target, std::move(*elements)});
                });
            }
        });
        for (auto [present, key] : {std::pair{has_part, "part"}, {has_formula, "formula"}, {has_ops, "ops"}})
            if (!present) error(id.span, code::kYamlShape, fmt::format("slot `{}` states no {}", id.text, key));
        if (!has_part || !has_formula || !has_ops) return;
        // The formula is the `bytes` entry, first, as a .rec slot writes it.
        if (formula) s.entries.insert(s.entries.begin(), std::move(*formula));
        module_.decls.emplace_back(std::move(s));
    }

    const SourceFile& yaml_;
    FileId file_;
    std::vector<Diagnostic>& diags_;
    ast::Module module_;
};

}  // namespace

bool is_yaml_path(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".yaml" || ext == ".yml";
}

ast::Module read_records(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags) {
    return Reader(sources, file, diags).read();
}

void point_into_yaml(const ast::Module& module, std::vector<Diagnostic>& diags) {
    const ast::ImportDecl* vocabulary = nullptr;
    for (const ast::Decl& d : module.decls)
        if (const auto* imp = std::get_if<ast::ImportDecl>(&d); imp && imp->path == kVocabularyImport) vocabulary = imp;
    if (vocabulary == nullptr) return;
    for (Diagnostic& d : diags) {
        if (d.code != code::kMissingOp || d.span.file == module.file) continue;
        d.notes.insert(d.notes.begin(), Note{d.span, "the op vector states it here"});
        d.span = vocabulary->span;
    }
}

}  // namespace oprec::yaml
