#include "exercise.h"

#include <stdexcept>

#include <fmt/format.h>

#include "RecLexer.h"
#include "diag/codes.h"
#include "diag/source.h"
#include "lint/lint.h"
#include "lint/output.h"
#include "syntax/lexer.h"

namespace oprec {

std::optional<std::string> lexer_disagreement(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_length(text, i);
        if ((n <= 1 && static_cast<unsigned char>(text[i]) >= 0x80) || text[i] == '\0') return std::nullopt;
        if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) return std::nullopt;
        i += n == 0 ? 1 : n;
    }
    antlr4::ANTLRInputStream input{std::string(text)};
    oprec_gen::RecLexer theirs(&input);
    theirs.removeErrorListeners();
    Lexer mine(text);
    const auto describe = [&](std::size_t type, std::string_view token_text, std::size_t line, std::size_t col,
                              std::size_t start, std::size_t stop, std::size_t channel) {
        return fmt::format("<{}> '{}' at {}:{} [{}, {}] channel {}", static_cast<long long>(type), token_text, line,
                           col, start, static_cast<long long>(stop), channel);
    };
    for (;;) {
        const Lexeme m = mine.next();
        const std::unique_ptr<antlr4::Token> t = theirs.nextToken();
        const std::string m_text = m.type == antlr4::Token::EOF ? "<EOF>" : std::string(text.substr(m.offset, m.length));
        const std::size_t m_stop = m.stop == 0xFFFFFFFFu ? INVALID_INDEX : m.stop;
        const std::string a = describe(m.type, m_text, m.line, m.col, m.start, m_stop,
                                       m.hidden ? antlr4::Token::HIDDEN_CHANNEL : antlr4::Token::DEFAULT_CHANNEL);
        const std::string b = describe(t->getType(), t->getText(), t->getLine(), t->getCharPositionInLine(),
                                       t->getStartIndex(), t->getStopIndex(), t->getChannel());
        if (a != b) return fmt::format("the lexer gives {}, the grammar's {}", a, b);
        if (m.type == antlr4::Token::EOF) return std::nullopt;
    }
}

}  // namespace oprec

namespace oprec::lint {

namespace {

void check_place(const Span& span, const SourceMap& sources, const std::string& what) {
    if (!span.known()) return;
    if (span.file >= sources.size() || span.line > sources.file(span.file).line_count() + 1 || span.col == 0)
        throw std::logic_error(fmt::format("{} at {}:{}:{} lies outside its file", what, span.file, span.line, span.col));
}

}  // namespace

void exercise_front_end(std::string_view text) {
    // The lexer is hand-written: its tokens must be those the grammar defines.
    if (const auto difference = lexer_disagreement(text)) throw std::logic_error(*difference);
    Options options;
    options.load.search_path.push_back(std::string(OPREC_SOURCE_DIR) + "/stdlib");
    const std::vector<Report> reports{lint_text(std::string(text), "fuzz.rec", options)};
    const Report& r = reports.front();
    for (const Diagnostic& d : r.diagnostics) {
        if (find_code(d.code) == nullptr) throw std::logic_error("undocumented code " + d.code + ": " + d.message);
        check_place(d.span, r.sources, d.code);
        for (const Note& n : d.notes) check_place(n.span, r.sources, d.code + " note");
        if (d.fix) check_place(d.fix->span, r.sources, d.code + " fix");
    }
    (void)text_output(reports, true);
    (void)json_output(reports).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)sarif_output(reports).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace oprec::lint
