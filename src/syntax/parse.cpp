#include "syntax/parse.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <memory>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <pthread.h>

#include "RecParser.h"
#include "diag/codes.h"
#include "syntax/ast_build.h"
#include "syntax/scanned_stream.h"
#include "syntax/token_filter.h"

namespace oprec {

namespace {

using oprec_gen::RecParser;

// Invalid UTF-8 would make ANTLR's input stream throw: report the first bad
// byte and lex a copy with every bad byte replaced, so nothing else is lost.
std::string checked_utf8(const SourceFile& file, FileId id, std::vector<Diagnostic>& diags) {
    const std::string& text = file.text();
    // ASCII other than NUL and a lone CR goes as it is, a run at a time.
    const auto plain = [&](std::size_t i) {
        const auto c = static_cast<unsigned char>(text[i]);
        return c != 0 && c < 0x80 && (c != '\r' || (i + 1 < text.size() && text[i + 1] == '\n'));
    };
    std::string out;
    out.reserve(text.size());
    bool reported = false;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t run = i;
        while (run < text.size() && plain(run)) ++run;
        out.append(text, i, run - i);
        if ((i = run) == text.size()) break;
        const auto c = static_cast<unsigned char>(text[i]);
        // A lone CR ends a line (old Mac files), as SourceFile counts lines;
        // ANTLR counts only LF, so the lexer sees an LF there.
        if (c == '\r') {
            out += '\n';
            ++i;
            continue;
        }
        // Strict UTF-8 (diag/source.h): an overlong form or a surrogate would
        // make ANTLR's decoder throw. A NUL byte: binary, not text.
        const std::size_t n = utf8_length(text, i);
        if (n > 1) {
            out.append(text, i, n);
            i += n;
            continue;
        }
        if (!reported) {
            const std::uint32_t line = file.line_of(i);
            const std::uint32_t col = static_cast<std::uint32_t>(
                column_count(std::string_view(text).substr(file.line_start(line), i - file.line_start(line))) + 1);
            diags.push_back({Severity::Error, code::kInvalidUtf8, {id, line, col, 1},
                             fmt::format("the file is not valid UTF-8 text (byte 0x{:02x})", c), {}, {}});
            reported = true;
        }
        out += '?';
        ++i;
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

    void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* token, std::size_t line, std::size_t col,
                     const std::string& msg, std::exception_ptr) override {
        ++count;
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
        Diagnostic d{Severity::Error, code::kSyntaxError,
                     {file_, static_cast<std::uint32_t>(line), static_cast<std::uint32_t>(col + 1), len},
                     std::move(message), {}, {}};
        // A line that ends inside a formula: the usual cause is a wrapped formula.
        if (token != nullptr && token->getType() == newline_type_ && in_formula(recognizer))
            d.notes.push_back({{}, "a formula continues on the next line only inside parentheses"});
        // A binary file would give one per byte: stop the parse (and the
        // lexing, which goes as far as the parse asks) after a hundred.
        if (count == kMaxSyntaxErrors)
            d.notes.push_back({{}, fmt::format("stopped after {} syntax errors", kMaxSyntaxErrors)});
        out_.push_back(std::move(d));
        if (count == kMaxSyntaxErrors) throw antlr4::ParseCancellationException();
    }

    static constexpr int kMaxSyntaxErrors = 100;
    int count = 0;

private:
    static bool in_formula(antlr4::Recognizer* recognizer) {
        auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
        if (parser == nullptr) return false;
        for (antlr4::RuleContext* ctx = parser->getContext(); ctx != nullptr;
             ctx = dynamic_cast<antlr4::RuleContext*>(ctx->parent))
            if (ctx->getRuleIndex() == RecParser::RuleExpr) return true;
        return false;
    }

    FileId file_;
    std::vector<Diagnostic>& out_;
    std::size_t newline_type_;
};

// How deep the parser may recurse on `text`, at most: its deepest bracket,
// plus every construct that nests without one, counted wherever it might
// stand: a sign or `~` where an operand starts (a binary `+` is a step of
// the parser's loop, not a level), `not`, `**`, `if`. Never less than the
// truth; usually the deepest bracket and a few.
std::size_t nesting_bound(std::string_view text) {
    std::size_t depth = 0, deepest = 0, unbracketed = 0;
    char before = '\n';  // the last character that was not a space
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        switch (c) {
        case '(': case '[': case '{': deepest = std::max(deepest, ++depth); break;
        case ')': case ']': case '}': depth -= depth > 0 ? 1 : 0; break;
        case '-': case '+': case '~':
            if (std::string_view("([{,=:+-*/%<>!~|&^\n").find(before) != std::string_view::npos) ++unbracketed;
            break;
        case '*': unbracketed += before == '*' ? 1 : 0; break;
        case 'n': unbracketed += text.substr(i, 3) == "not" ? 1 : 0; break;
        case 'i': unbracketed += text.substr(i, 2) == "if" ? 1 : 0; break;
        default: break;
        }
        if (c != ' ' && c != '\t' && c != '\r') before = c;
    }
    return deepest + unbracketed;
}

// The lowest address of this thread's stack; null when unknown. Read once
// a thread: its bounds never change, and on the main thread glibc finds
// them by reading /proc/self/maps (about 60 µs, most of a REPL query).
const char* stack_low() {
    thread_local const char* const low = [] {
        pthread_attr_t attr;
        if (pthread_getattr_np(pthread_self(), &attr) != 0) return static_cast<const char*>(nullptr);
        void* addr = nullptr;
        std::size_t size = 0;
        const bool known = pthread_attr_getstack(&attr, &addr, &size) == 0;
        pthread_attr_destroy(&attr);
        return known ? static_cast<const char*>(addr) : nullptr;
    }();
    return low;
}

// The stack this thread has left below the caller's frame; 0 when unknown.
std::size_t stack_left() {
    const char here = 0;
    const char* low = stack_low();
    if (low == nullptr || &here < low) return 0;
    return static_cast<std::size_t>(&here - low);
}

// Runs `work` where its parse of `text` cannot overflow the stack: here,
// when the text nests at most 256 levels and this thread has room for them
// (ANTLR's parser recurses once per level of nesting; about 1.3 KB a level
// measured, 4 KB allowed), else on a thread with a large stack, so that a
// hostile file does not overflow the caller's. Starting that thread costs
// about 100 µs (a REPL query was five times slower for it), so the usual
// formula or file is parsed here.
void on_large_stack(std::string_view text, const std::function<void()>& work) {
#if defined(__SANITIZE_ADDRESS__)
    constexpr std::size_t kPerLevel = 16 << 10;  // AddressSanitizer's frames are larger
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    constexpr std::size_t kPerLevel = 16 << 10;
#else
    constexpr std::size_t kPerLevel = 4 << 10;
#endif
#else
    constexpr std::size_t kPerLevel = 4 << 10;
#endif
    constexpr std::size_t kMaxLevels = 256, kMargin = 256 << 10;
    if (nesting_bound(text) <= kMaxLevels && stack_left() >= kMaxLevels * kPerLevel + kMargin) {
        work();
        return;
    }
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

// Reports a declaration's first syntax error, then stops its parse: the
// caller goes on at the next declaration (ANTLR's own recovery would go on
// inside this one, and often past the rest of the file).
class ReportAndStop : public antlr4::DefaultErrorStrategy {
    // No repair either: sync's single-token deletion would drop the end of a
    // line and read the next declaration's keyword as a name (`1 + default`).
    void sync(antlr4::Parser*) override {}
    void recover(antlr4::Parser*, std::exception_ptr) override { throw antlr4::ParseCancellationException(); }
    antlr4::Token* recoverInline(antlr4::Parser* parser) override {
        reportError(parser, antlr4::InputMismatchException(parser));
        throw antlr4::ParseCancellationException();
    }
};

// The syntax errors of every declaration of a file, each parsed on its own:
// after a broken one, its tokens are skipped to the end of its line, or of
// its block where it opened one (a declaration is a line, or a line that
// opens a block and the block).
std::vector<Diagnostic> declaration_errors(const std::string& text, const SourceFile& source, FileId file) {
    TokenFilter filter(text);
    ScannedTokenSource scanned(filter, source.path());
    antlr4::CommonTokenStream tokens(&scanned);
    tokens.fill();
    RecParser parser(&tokens);
    parser.removeErrorListeners();
    std::vector<Diagnostic> out;
    SyntaxErrors listener(file, out, RecParser::NEWLINE);
    parser.addErrorListener(&listener);
    parser.setErrorHandler(std::make_shared<ReportAndStop>());
    const auto type = [&](std::size_t at) { return tokens.get(at)->getType(); };
    while (listener.count < SyntaxErrors::kMaxSyntaxErrors) {
        while (tokens.LA(1) == RecParser::NEWLINE) tokens.consume();
        if (tokens.LA(1) == antlr4::Token::EOF) break;
        const std::size_t start = tokens.index();
        parser.getErrorHandler()->reset(&parser);  // each declaration's first error is reported
        bool broken = false;
        try {
            parser.decl();
            if (tokens.LA(1) != RecParser::NEWLINE && tokens.LA(1) != antlr4::Token::EOF) {
                antlr4::Token* t = tokens.LT(1);
                listener.syntaxError(&parser, t, t->getLine(), t->getCharPositionInLine(), "", nullptr);
                broken = true;
            }
        } catch (const antlr4::ParseCancellationException&) {
            broken = true;
        }
        if (!broken) continue;
        if (tokens.index() == start && tokens.LA(1) != antlr4::Token::EOF) tokens.consume();  // always onward
        // Skip to the end of its line, or of the block it opened.
        int depth = 0;
        for (std::size_t i = start; i < tokens.index(); ++i) {
            if (tokens.get(i)->getText() == "{") ++depth;
            if (tokens.get(i)->getText() == "}") --depth;
        }
        for (std::size_t at = tokens.index(); type(at) != antlr4::Token::EOF; tokens.consume(), at = tokens.index()) {
            if (type(at) == RecParser::NEWLINE && depth <= 0) break;
            if (tokens.get(at)->getText() == "{") ++depth;
            if (tokens.get(at)->getText() == "}") --depth;
        }
    }
    return out;
}

// One parse, in up to two tries. The fast path is SLL prediction with
// bail-out over tokens kept only while needed; `fast` parses and says
// whether it got through, and `build(nullptr)` then runs while its tokens
// are alive. On a syntax error the text is parsed again, all its tokens
// kept, with full LL and error recovery, which also finds every syntax
// error, and `build` turns that tree into ours.
template <class Rule, class Fast, class Build>
void parse_with(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags, Rule rule,
                Fast fast, Build build,
                std::vector<Diagnostic> (*each_declaration)(const std::string&, const SourceFile&, FileId) = nullptr) {
    const std::string text = checked_utf8(sources.file(file), file, diags);
    auto span_of = [&](const TokenFilter::Open& o) {
        return Span{file, static_cast<std::uint32_t>(o.line), static_cast<std::uint32_t>(o.col + 1), 1};
    };
    // A bracket never closed, or a limit passed: said in `out`, and true.
    auto bracket_errors = [&](const TokenFilter& filter, std::vector<Diagnostic>& out) {
        if (filter.too_deep()) {
            out.push_back({Severity::Error, code::kNestedTooDeep, span_of(*filter.too_deep()),
                             fmt::format("brackets nested deeper than {} levels", kMaxNesting), {}, {}});
            return true;
        }
        if (filter.too_long()) {
            out.push_back({Severity::Error, code::kNestedTooDeep, span_of(*filter.too_long()),
                             fmt::format("a declaration or expression longer than {} tokens: split it",
                                         kMaxDeclarationTokens), {}, {}});
            return true;
        }
        const auto brace = filter.unclosed_brace();
        if (!filter.unclosed().empty() || brace) {
            const auto& open = filter.unclosed().empty() ? *brace : filter.unclosed().back();
            Diagnostic d{Severity::Error, code::kSyntaxError, span_of(open),
                         fmt::format("syntax error: `{}` was never closed", open.bracket), {}, {}};
            // What follows the first bracket still open is read inside it: name it too.
            TokenFilter::Open first = filter.unclosed().empty() ? *brace : filter.unclosed().front();
            if (brace && std::pair(brace->line, brace->col) < std::pair(first.line, first.col)) first = *brace;
            if (first.line != open.line || first.col != open.col)
                d.notes.push_back({span_of(first), fmt::format("the first `{}` still open", first.bracket)});
            out.push_back(std::move(d));
            return true;
        }
        return false;
    };
    {
        TokenFilter filter(text);
        ScannedTokenStream tokens(filter);
        RecParser parser(&tokens);
        parser.removeErrorListeners();
        parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::SLL);
        parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
        bool parsed = false;
        try {
            parsed = fast(parser, tokens);
        } catch (const antlr4::ParseCancellationException&) {
            parsed = false;
        }
        // A limit cuts the input with an end of file, which may still parse.
        if (parsed) {
            if (!bracket_errors(filter, diags)) build(nullptr);
            return;
        }
    }
    TokenFilter filter(text);
    ScannedTokenSource source(filter, sources.file(file).path());
    antlr4::CommonTokenStream tokens(&source);
    RecParser parser(&tokens);
    parser.removeErrorListeners();
    std::vector<Diagnostic> syntax;
    SyntaxErrors listener(file, syntax, RecParser::NEWLINE);
    parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(antlr4::atn::PredictionMode::LL);
    parser.addErrorListener(&listener);
    decltype((parser.*rule)()) tree = nullptr;
    try {
        tree = (parser.*rule)();
    } catch (const antlr4::ParseCancellationException&) {
        tree = nullptr;  // too many errors: those found are reported
    }
    // ANTLR's recovery over a whole file often skips to its end after the
    // first error: each declaration parsed on its own finds the others.
    // Kept only where it agrees on the first error.
    if (each_declaration != nullptr && !syntax.empty()) {
        std::vector<Diagnostic> each = each_declaration(text, sources.file(file), file);
        if (!each.empty() && each.front().span.line == syntax.front().span.line &&
            each.front().span.col == syntax.front().span.col)
            syntax = std::move(each);
    }
    std::vector<Diagnostic> brackets;
    if (bracket_errors(filter, brackets)) {
        // The errors before the first bracket still open stand; those after it are its echo.
        const Span at = brackets.front().notes.empty() ? brackets.front().span : brackets.front().notes.front().span;
        for (const Diagnostic& d : syntax)
            if (d.span.line < at.line || (d.span.line == at.line && d.span.col < at.col)) diags.push_back(d);
        diags.insert(diags.end(), brackets.begin(), brackets.end());
        return;
    }
    if (listener.count > 0 || tree == nullptr) {
        diags.insert(diags.end(), syntax.begin(), syntax.end());
        if (const auto& stop = filter.junk_stop())
            diags.push_back({Severity::Error, code::kSyntaxError, span_of(*stop),
                             fmt::format("syntax error: more than {} characters the language does not have; "
                                         "stopped reading here", kMaxJunk), {}, {}});
        return;
    }
    build(tree);
}

// The fast path for a file: one declaration at a time, its tokens and parse
// tree freed as soon as our AST has it, so a large file never holds all its
// tokens or its whole tree (building and tearing those down cost more than
// the parse). Follows recFile: NEWLINE* (decl (NEWLINE+ decl)*)? NEWLINE* EOF.
// False where the text does not follow it, for the full parse to say why.
bool parse_declarations(RecParser& parser, antlr4::TokenStream& tokens, AstBuilder& builder,
                        ast::Module& module) {
    using antlr4::Token;
    const auto next = [&] { return tokens.LA(1); };
    for (;;) {
        while (next() == RecParser::NEWLINE) tokens.consume();
        if (next() == Token::EOF) return true;
        const ssize_t keep = tokens.mark();  // the declaration's tokens, while its tree points at them
        RecParser::DeclContext* decl = parser.decl();
        if (next() != RecParser::NEWLINE && next() != Token::EOF) return false;
        module.decls.push_back(builder.decl(decl));
        parser.getTreeTracker().reset();
        tokens.release(keep);
    }
}

}  // namespace

namespace {

// A byte that is not UTF-8 is said (E0002) and lexed as `?`, which the
// parser then finds unexpected at the same place: one error, not two.
void drop_bad_byte_echo(std::vector<Diagnostic>& diags, std::size_t from) {
    const auto bad = std::find_if(diags.begin() + static_cast<std::ptrdiff_t>(from), diags.end(),
                                  [](const Diagnostic& d) { return d.code == code::kInvalidUtf8; });
    if (bad == diags.end()) return;
    const Span at = bad->span;
    diags.erase(std::remove_if(diags.begin() + static_cast<std::ptrdiff_t>(from), diags.end(),
                               [&](const Diagnostic& d) {
                                   return d.code == code::kSyntaxError && d.span.file == at.file &&
                                          d.span.line == at.line && d.span.col == at.col;
                               }),
                diags.end());
}

}  // namespace

ast::Module parse_module(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags) {
    const std::size_t first_diag = diags.size();
    ast::Module module;
    module.file = file;
    on_large_stack(sources.file(file).text(), [&] {
        // The builder's own diagnostics count only for the parse that is kept.
        std::vector<Diagnostic> built;
        AstBuilder fast_builder(file, built);
        ast::Module fast_module;
        auto fast = [&](RecParser& parser, antlr4::TokenStream& tokens) {
            return parse_declarations(parser, tokens, fast_builder, fast_module);
        };
        parse_with(sources, file, diags, &RecParser::recFile, fast, [&](RecParser::RecFileContext* tree) {
            if (tree == nullptr) {  // the fast path's
                diags.insert(diags.end(), built.begin(), built.end());
                if (!fast_builder.syntax_errors()) module.decls = std::move(fast_module.decls);
                return;
            }
            AstBuilder builder(file, diags);
            ast::Module built_module = builder.module(tree);
            if (!builder.syntax_errors()) module = std::move(built_module);
        }, declaration_errors);
    });
    drop_bad_byte_echo(diags, first_diag);
    return module;
}

std::optional<ast::Expr> parse_expression(const SourceMap& sources, FileId file,
                                          std::vector<Diagnostic>& diags) {
    const std::size_t first_diag = diags.size();
    std::optional<ast::Expr> result;
    on_large_stack(sources.file(file).text(), [&] {
        RecParser::ExprInputContext* sll_tree = nullptr;
        auto fast = [&](RecParser& parser, antlr4::TokenStream& tokens) {
            tokens.mark();  // every token stays while the tree points at them
            sll_tree = parser.exprInput();
            return true;
        };
        parse_with(sources, file, diags, &RecParser::exprInput, fast, [&](RecParser::ExprInputContext* tree) {
            AstBuilder builder(file, diags);
            ast::Expr e = builder.expression((tree != nullptr ? tree : sll_tree)->expr());
            if (!builder.syntax_errors()) result = std::move(e);
        });
    });
    drop_bad_byte_echo(diags, first_diag);
    return result;
}

}  // namespace oprec
