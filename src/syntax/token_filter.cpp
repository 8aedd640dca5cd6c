#include "syntax/token_filter.h"

#include <fmt/format.h>

#include "RecParser.h"
#include "syntax/parse.h"

namespace oprec {

using oprec_gen::RecParser;

std::string ScannedToken::getText() const {
    if (lexeme_.type == EOF) return "<EOF>";
    return std::string(source_.substr(lexeme_.offset, lexeme_.length));
}

std::string ScannedToken::toString() const {
    return fmt::format("[@{},{}:{}='{}',<{}>,{}:{}]", index_, lexeme_.start,
                       static_cast<long long>(getStopIndex()), getText(), static_cast<long long>(getType()),
                       lexeme_.line, lexeme_.col);
}

TokenFilter::TokenFilter(std::string_view text)
    : text_(text), lexer_(text), open_paren_(literal_type("(")), close_paren_(literal_type(")")),
      open_brace_(literal_type("{")), close_brace_(literal_type("}")) {}

ScannedToken TokenFilter::cut(const Lexeme& at, bool forget_brackets) {
    if (forget_brackets) open_.clear();
    ended_ = true;
    end_ = at;
    end_.type = antlr4::Token::EOF;
    end_.length = 0;
    end_.hidden = false;
    end_.stop = at.start;  // as ANTLR's token factory made it: start and stop where the token starts
    return ScannedToken(text_, end_, index_);
}

ScannedToken TokenFilter::next() {
    if (ended_) return ScannedToken(text_, end_, index_);
    for (;;) {
        const Lexeme t = lexer_.next();
        if (t.type == RecParser::NEWLINE && !open_.empty()) continue;  // inside ( ): white space, as in Python
        if (t.hidden) continue;
        if (t.type == RecParser::NEWLINE && braces_ == 0) {
            run_ = 0;
        } else if (t.type != antlr4::Token::EOF && ++run_ > kMaxDeclarationTokens) {
            // The parser would hold every token and node of it: stop here, the caller reports it.
            if (!too_long_) too_long_ = Open{t.line, t.col, '?'};
            return cut(t, true);
        }
        if (t.type == open_brace_) {
            if (braces_++ == 0) first_brace_ = Open{t.line, t.col, '{'};
        } else if (t.type == close_brace_ && braces_ > 0) {
            --braces_;
        }
        if (t.type == RecParser::ERRCHAR && ++junk_ > kMaxJunk) {
            if (!junk_stop_) junk_stop_ = Open{t.line, t.col, '?'};
            return cut(t, false);  // a bracket left open is still the error to report
        }
        if (t.type == open_paren_) {
            if (static_cast<int>(open_.size()) >= kMaxNesting) {
                // Too deep to parse safely: stop the input here, the caller reports it.
                if (!too_deep_) too_deep_ = Open{t.line, t.col, '('};
                return cut(t, true);
            }
            open_.push_back(Open{t.line, t.col, '('});
        } else if (t.type == close_paren_ && !open_.empty()) {
            open_.pop_back();
        }
        if (t.type == antlr4::Token::EOF) {
            ended_ = true;
            end_ = t;
            return ScannedToken(text_, t, index_);
        }
        return ScannedToken(text_, t, index_++);
    }
}

}  // namespace oprec
