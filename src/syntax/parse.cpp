#include "syntax/parse.h"

#include <charconv>
#include <functional>
#include <memory>
#include <thread>

#include <fmt/format.h>
#include <pthread.h>

#include "RecLexer.h"
#include "RecParser.h"
#include "syntax/ast_build.h"
#include "syntax/token_filter.h"

namespace oprec {

namespace {

using oprec_gen::RecLexer;
using oprec_gen::RecParser;

// Invalid UTF-8 would make ANTLR's input stream throw: report the first bad
// byte and lex a copy with every bad byte replaced, so nothing else is lost.
std::string checked_utf8(const SourceFile& file, FileId id, std::vector<Diagnostic>& diags) {
    const std::string& text = file.text();
    std::string out;
    out.reserve(text.size());
    bool reported = false;
    std::uint32_t line = 1, col = 1;
    for (std::size_t i = 0; i < text.size();) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        // Strict UTF-8 (diag/source.h): an overlong form or a surrogate would
        // make ANTLR's decoder throw.
        const std::size_t n = utf8_length(text, i);
        bool ok = n > 1 || c < 0x80;
        if (ok && c == 0) ok = false;  // a NUL byte: binary, not text
        if (!ok) {
            if (!reported) {
                diags.push_back({Severity::Error, "E0002", {id, line, col, 1},
                                 fmt::format("the file is not valid UTF-8 text (byte 0x{:02x})", c), {}, {}});
                reported = true;
            }
            out += '?';
            ++i;
            ++col;
            continue;
        }
        // A lone CR ends a line (old Mac files), as SourceFile counts lines;
        // ANTLR counts only LF, so the lexer sees an LF there.
        const bool lone_cr = c == '\r' && (i + 1 == text.size() || text[i + 1] != '\n');
        if (lone_cr) out += '\n'; else out.append(text, i, n);
        if (c == '\n' || lone_cr) { ++line; col = 1; } else { ++col; }
        i += n;
    }
    return out;
}

std::string describe(const antlr4::Token* token, std::size_t newline_type) {
    if (token == nullptr) return "input";
    if (token->getType() == antlr4::Token::EOF) return "end of file";
    if (token->getType() == newline_type) return "end of line";
    std::string text = token->getText();
    if (text.size() > 40) text = text.substr(0, 40) + "...";
    return fmt::format("`{}`", text);
}

// Collects ANTLR's syntax errors as diagnostics, in our words.
class SyntaxErrors : public antlr4::BaseErrorListener {
public:
    SyntaxErrors(FileId file, std::vector<Diagnostic>& out, std::size_t newline_type)
        : file_(file), out_(out), newline_type_(newline_type) {}

    void syntaxError(antlr4::Recognizer*, antlr4::Token* token, std::size_t line, std::size_t col,
                     const std::string& msg, std::exception_ptr) override {
        ++count;
        if (out_.size() > 100) return;  // a binary file would give thousands
        std::uint32_t len = 1;
        if (token != nullptr && token->getType() != antlr4::Token::EOF && token->getType() != newline_type_) {
            std::size_t n = token->getStopIndex() >= token->getStartIndex()
                                ? token->getStopIndex() - token->getStartIndex() + 1 : 1;
            len = static_cast<std::uint32_t>(n);
        }
        std::string message;
        if (token == nullptr)
            message = fmt::format("syntax error: {}", msg);  // a lexer error
        else
            message = fmt::format("syntax error: unexpected {}", describe(token, newline_type_));
        Diagnostic d{Severity::Error, "E0001",
                     {file_, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(col + 1), len},
                     std::move(message), {}, {}};
        if (token != nullptr && token->getType() == newline_type_)
            d.notes.push_back({{}, "a formula continues on the next line only inside parentheses"});
        out_.push_back(std::move(d));
    }

    int count = 0;

private:
    FileId file_;
    std::vector<Diagnostic>& out_;
    std::size_t newline_type_;
};

// Runs `work` on a thread with a large stack: ANTLR's parser recurses once per
// level of nesting, and a hostile file must not overflow the caller's stack.
void on_large_stack(const std::function<void()>& work) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, std::size_t(256) << 20);
    struct Job {
        const std::function<void()>* work;
        std::exception_ptr error;
    } job{&work, nullptr};
    pthread_t thread;
    auto run = [](void* arg) -> void* {
        auto* j = static_cast<Job*>(arg);
        try {
            (*j->work)();
        } catch (...) {
            j->error = std::current_exception();
        }
        return nullptr;
    };
    if (pthread_create(&thread, &attr, run, &job) != 0) {
        pthread_attr_destroy(&attr);
        work();  // no thread to be had: parse here
        return;
    }
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    if (job.error) std::rethrow_exception(job.error);
}

// One parse: lexer, filter, parser (SLL first, LL on a syntax error), then
// `build` turns the tree into ours while the tokens are alive.
template <class Rule, class Build>
void parse_with(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags, Rule rule,
                Build build) {
    std::string text = checked_utf8(sources.file(file), file, diags);
    antlr4::ANTLRInputStream input(text);
    input.name = sources.file(file).path();
    RecLexer lexer(&input);
    lexer.removeErrorListeners();
    TokenFilter filter(lexer, RecLexer::NEWLINE, kMaxNesting);
    antlr4::CommonTokenStream tokens(&filter);
    RecParser parser(&tokens);
    parser.removeErrorListeners();

    // SLL with bail-out is the fast path; a file it rejects is parsed again
    // with full LL and error recovery, which also finds every syntax error.
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
    parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
    auto* tree = [&]() -> decltype((parser.*rule)()) {
        try {
            return (parser.*rule)();
        } catch (const antlr4::ParseCancellationException&) {
            return nullptr;
        }
    }();
    std::vector<Diagnostic> syntax;
    SyntaxErrors listener(file, syntax, RecLexer::NEWLINE);
    if (tree == nullptr) {
        tokens.seek(0);
        parser.reset();
        parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
        parser.setErrorHandler(std::make_shared<antlr4::DefaultErrorStrategy>());
        parser.addErrorListener(&listener);
        tree = (parser.*rule)();
    }
    auto span_of = [&](const TokenFilter::Open& o) {
        return Span{file, static_cast<std::uint32_t>(o.line), static_cast<std::uint32_t>(o.col + 1), 1};
    };
    if (filter.too_deep()) {
        diags.push_back({Severity::Error, "E0003", span_of(*filter.too_deep()),
                         fmt::format("brackets nested deeper than {} levels", kMaxNesting), {}, {}});
        return;
    }
    if (!filter.unclosed().empty()) {
        const auto& open = filter.unclosed().back();
        diags.push_back({Severity::Error, "E0001", span_of(open),
                         fmt::format("syntax error: `{}` was never closed", open.bracket), {}, {}});
        return;
    }
    if (listener.count > 0 || tree == nullptr) {
        diags.insert(diags.end(), syntax.begin(), syntax.end());
        return;
    }
    build(tree);
}

}  // namespace

ast::Module parse_module(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags) {
    ast::Module module;
    module.file = file;
    on_large_stack([&] {
        parse_with(sources, file, diags, &RecParser::recFile, [&](RecParser::RecFileContext* tree) {
            AstBuilder builder(file, diags);
            module = builder.module(tree);
        });
    });
    return module;
}

std::optional<ast::Expr> parse_expression(const SourceMap& sources, FileId file,
                                          std::vector<Diagnostic>& diags) {
    std::optional<ast::Expr> result;
    on_large_stack([&] {
        parse_with(sources, file, diags, &RecParser::exprInput, [&](RecParser::ExprInputContext* tree) {
            AstBuilder builder(file, diags);
            result = builder.expression(tree->expr());
        });
    });
    return result;
}

}  // namespace oprec
