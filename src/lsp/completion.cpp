// Completion from the line before the cursor and the block it is in: the
// text, not the AST, decides the context, because mid-edit the text seldom
// parses. The candidates come from the last analysis.
#include <regex>

#include "lsp/features.h"

namespace oprec::lsp {

namespace {

// LSP CompletionItemKind numbers.
constexpr int kKeyword = 14, kField = 5, kFunction = 3, kEnumMember = 20, kEnum = 13, kMethod = 2, kVariable = 6;

constexpr std::size_t kLongestLine = 2000;

const char* const kTopKeywords[] = {"import", "op", "part", "slot", "fn", "default", "field", "context",
                                    "switches", "layerparts", "opvector", "profile", "run", "model", "term", "beside"};

// The keyword opening the block the cursor is in ("slot", "profile"), or
// empty at the top level. Braces in comments do not count.
std::string enclosing_block(const Text& text, Pos at) {
    int depth = 0;
    std::string opener, pending;
    for (std::uint32_t l = 0; l <= at.line && l < text.line_count(); ++l) {
        std::string_view line = text.line(l);
        if (l == at.line) line = line.substr(0, text.offset(at) - text.offset({l, 0}));
        const auto hash = line.find('#');
        if (hash != std::string_view::npos) line = line.substr(0, hash);
        const auto first = line.find_first_not_of(" \t");
        if (depth == 0 && first != std::string_view::npos) {
            const auto word_end = line.find_first_of(" \t({", first);
            pending = std::string(line.substr(first, word_end == std::string_view::npos ? line.size() - first : word_end - first));
        }
        for (char c : line) {
            if (c == '{' && depth++ == 0) opener = pending;
            if (c == '}' && depth > 0) --depth;
        }
    }
    return depth > 0 ? opener : std::string();
}

json item(const std::string& label, int kind, const std::string& detail = {}) {
    json j = {{"label", label}, {"kind", kind}};
    if (!detail.empty()) j["detail"] = detail;
    return j;
}

void add_names(json& out, const Analysis& a, SymbolKind kind, int lsp_kind) {
    for (const std::string& n : a.names(kind)) out.push_back(item(n, lsp_kind, symbol_kind_name(kind)));
}

void add_expression(json& out, const Analysis& a, bool formula, const std::string& fn_params) {
    add_names(out, a, SymbolKind::Value, kField);
    add_names(out, a, SymbolKind::Fn, kFunction);
    out.push_back(item("max", kFunction, "builtin"));
    out.push_back(item("min", kFunction, "builtin"));
    for (const char* k : {"if", "else", "and", "or", "not", "True", "False"}) out.push_back(item(k, kKeyword));
    if (formula) out.push_back(item("total", kVariable, "the sum of the kept entries' elements"));
    static const std::regex word("[A-Za-z_][A-Za-z_0-9]*");
    for (auto it = std::sregex_iterator(fn_params.begin(), fn_params.end(), word); it != std::sregex_iterator(); ++it)
        out.push_back(item(it->str(), kVariable, "parameter"));
}

}  // namespace

json completion(const Analysis& a, const Text& text, Pos at) {
    const std::string_view whole = text.line(at.line);
    const std::string line(whole.substr(0, text.offset(at) - text.offset({at.line, 0})));
    json out = json::array();
    // In a comment; or a line too long to be a records line (std::regex
    // recurses per character: a pasted megabyte must not take the stack).
    if (line.find('#') != std::string::npos || line.size() > kLongestLine) return out;
    const std::string block = enclosing_block(text, at);
    std::smatch m;
    auto is = [&](const std::regex& pattern) { return std::regex_search(line, m, pattern); };
    // The contexts, compiled once.
    static const std::regex kWordSoFar(R"(^\s*[A-Za-z_0-9]*$)"), kEntry(R"(^\s*(\w+)\s*=)"), kEquals("="),
        kTopWord(R"(^\s*[a-z]*$)"), kFnBody(R"(^\s*fn\s+\w+\s*\(([^)]*)\)\s*=)"), kFormula(R"(=|\bwhen\b)"),
        kSwitch(R"(^\s*(op|part)\b.*\bswitch\s+\w*$)"), kNeeds(R"(^\s*(op|part)\b.*\bneeds\s+[\w\s,]*$)"),
        kPartOf(R"(^\s*part\s+\w+\s+of\s+\w*$)"), kSlotIn(R"(^\s*slot\s+\w+\s+in\s+\w*$)"),
        kOpClauses(R"(^\s*(op|part)\s+\w+\s)"), kSlotClauses(R"(^\s*slot\s+\w+\s+in\s+\w+\s)");

    if (block == "slot") {
        if (is(kWordSoFar)) {
            add_names(out, a, SymbolKind::Op, kMethod);
            out.push_back(item("bytes", kKeyword, "the slot's formula"));
        } else if (is(kEntry)) {
            add_expression(out, a, m[1] == "bytes", "");
        }
        return out;
    }
    if (!block.empty()) {  // a profile: settings and op counts
        if (is(kEquals)) add_expression(out, a, false, "");
        else add_names(out, a, SymbolKind::Op, kMethod);
        return out;
    }
    if (is(kTopWord)) {
        for (const char* k : kTopKeywords) out.push_back(item(k, kKeyword));
    } else if (is(kFnBody)) {
        add_expression(out, a, false, m[1]);
    } else if (is(kFormula)) {
        add_expression(out, a, false, "");
    } else if (is(kSwitch)) {
        add_names(out, a, SymbolKind::Switch, kEnumMember);
    } else if (is(kNeeds) || is(kPartOf)) {
        add_names(out, a, SymbolKind::Op, kMethod);
    } else if (is(kSlotIn)) {
        add_names(out, a, SymbolKind::LayerPart, kEnum);
    } else if (is(kOpClauses)) {
        for (const char* k : {"switch", "needs", "comm", "of"}) out.push_back(item(k, kKeyword));
    } else if (is(kSlotClauses)) {
        out.push_back(item("when", kKeyword));
    }
    return out;
}

}  // namespace oprec::lsp
