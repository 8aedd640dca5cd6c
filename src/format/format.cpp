#include "format/format.h"

#include <algorithm>

#include "RecParser.h"
#include "diag/codes.h"
#include "format/layout.h"
#include "format/print.h"
#include "syntax/lexer.h"
#include "syntax/parse.h"

namespace oprec::format {

namespace {


// Words after which a sign is unary: they end no operand.
bool ends_operand(std::size_t type, const std::string& text) {
    using L = oprec_gen::RecParser;
    if (type == L::NAME || type == L::INT || type == L::FLOAT || type == L::IMAG || type == L::STRING) return true;
    if (text == ")" || text == "]" || text == "True" || text == "False" || text == "None" || text == "...") return true;
    static const char* const keywords[] = {"if", "else", "and", "or", "not", "when", "in"};
    if (std::isalpha(static_cast<unsigned char>(text[0])) == 0) return false;
    return std::none_of(std::begin(keywords), std::end(keywords), [&](const char* k) { return text == k; });
}

// Every token the lexer makes, comments and newlines included (the
// parser's own lexer: src/syntax/lexer.h).
std::vector<Tok> tokens_of(std::string text) {
    // A lone CR ends a line, as the parser has it (parse.cpp).
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) text[i] = '\n';
    Lexer lexer(text);
    std::vector<Tok> out;
    for (Lexeme t = lexer.next(); t.type != antlr4::Token::EOF; t = lexer.next()) {
        Tok tok;
        tok.text = text.substr(t.offset, t.length);
        tok.line = t.line;
        tok.col = t.col;
        if (t.type == oprec_gen::RecParser::NEWLINE) {
            tok.kind = TokKind::Newline;
        } else if (t.type == oprec_gen::RecParser::COMMENT) {
            tok.kind = TokKind::Comment;
            while (!tok.text.empty() && (tok.text.back() == ' ' || tok.text.back() == '\t' || tok.text.back() == '\f'))
                tok.text.pop_back();
        } else {
            tok.operand = ends_operand(t.type, tok.text);
        }
        tok.len = static_cast<std::uint32_t>(column_count(tok.text));
        out.push_back(std::move(tok));
    }
    return out;
}

}  // namespace

Formatted format_source(std::string source, std::string name, const FormatOptions& options) {
    Formatted out;
    const FileId id = out.sources.add(name, std::move(source));
    const ast::Module before = parse_module(out.sources, id, out.diagnostics);
    if (!out.diagnostics.empty()) return out;
    std::string text = lay_out(tokens_of(out.sources.file(id).text()), options.line_width);
    // The layout must not change what the file says: checked, not trusted.
    SourceMap again;
    std::vector<Diagnostic> diags;
    const ast::Module after = parse_module(again, again.add(name, text), diags);
    if (!diags.empty() || module_source(before) != module_source(after)) {
        out.diagnostics.push_back({Severity::Error, code::kFmtWouldChangeMeaning, {id, 1, 1, 0},
                                   "oprec fmt would change what this file says (a bug in the formatter): "
                                   "the file is left as it is", {}, {}});
        return out;
    }
    // The file's own line ending, as its first line has it: a Windows file
    // stays CRLF (an editor would otherwise show every line changed).
    const std::string& original = out.sources.file(id).text();
    if (const auto nl = original.find('\n'); nl != std::string::npos && nl > 0 && original[nl - 1] == '\r') {
        std::string crlf;
        crlf.reserve(text.size() + text.size() / 16);
        for (char c : text) {
            if (c == '\n') crlf += '\r';
            crlf += c;
        }
        text = std::move(crlf);
    }
    out.text = std::move(text);
    return out;
}

}  // namespace oprec::format
