#include "syntax/token_filter.h"

#include "syntax/parse.h"

namespace oprec {

namespace {
bool is_one_of(std::size_t type, const std::vector<std::size_t>& types) {
    for (std::size_t t : types)
        if (t == type) return true;
    return false;
}
}  // namespace

TokenFilter::TokenFilter(antlr4::Lexer& lexer, std::size_t newline_type, int max_depth, std::size_t junk_type,
                         std::size_t max_junk)
    : lexer_(lexer), newline_type_(newline_type), max_depth_(max_depth), junk_type_(junk_type), max_junk_(max_junk) {
    // The brackets' token types, found once: comparing a type is much cheaper
    // than getting each token's text.
    const auto& vocabulary = lexer.getVocabulary();
    for (std::size_t type = 1; type <= vocabulary.getMaxTokenType(); ++type) {
        const std::string literal = vocabulary.getLiteralName(type);
        if (literal == "'('" || literal == "'['") open_types_.push_back(type);
        if (literal == "')'" || literal == "']'") close_types_.push_back(type);
        if (literal == "'{'") open_brace_ = type;
        if (literal == "'}'") close_brace_ = type;
    }
}

std::unique_ptr<antlr4::Token> TokenFilter::nextToken() {
    for (;;) {
        std::unique_ptr<antlr4::Token> token = lexer_.nextToken();
        if (token->getType() == newline_type_ && !open_.empty()) continue;
        // Comments: the parser never sees them (the linter reads them from the text).
        if (token->getChannel() != antlr4::Token::DEFAULT_CHANNEL) continue;
        const std::size_t type = token->getType();
        if (type == newline_type_ && braces_ == 0) {
            run_ = 0;
        } else if (type != antlr4::Token::EOF && ++run_ > kMaxDeclarationTokens) {
            // The parser would hold every token and node of it: stop here, the caller reports it.
            if (!too_long_) too_long_ = Open{token->getLine(), token->getCharPositionInLine(), '?'};
            open_.clear();
            return lexer_.getTokenFactory()->create({&lexer_, lexer_.getInputStream()}, antlr4::Token::EOF, "<EOF>",
                                                    antlr4::Token::DEFAULT_CHANNEL, token->getStartIndex(),
                                                    token->getStartIndex(), token->getLine(),
                                                    token->getCharPositionInLine());
        }
        if (type == open_brace_) ++braces_;
        else if (type == close_brace_ && braces_ > 0) --braces_;
        if (type == junk_type_ && ++junk_ > max_junk_) {
            if (!junk_stop_) junk_stop_ = Open{token->getLine(), token->getCharPositionInLine(), '?'};
            return lexer_.getTokenFactory()->create({&lexer_, lexer_.getInputStream()}, antlr4::Token::EOF, "<EOF>",
                                                    antlr4::Token::DEFAULT_CHANNEL, token->getStartIndex(),
                                                    token->getStartIndex(), token->getLine(),
                                                    token->getCharPositionInLine());
        }
        if (is_one_of(type, open_types_)) {
            Open open{token->getLine(), token->getCharPositionInLine(), token->getText()[0]};
            if (static_cast<int>(open_.size()) >= max_depth_) {
                // Too deep to parse safely: stop the input here, the caller reports it.
                if (!too_deep_) too_deep_ = open;
                open_.clear();
                return lexer_.getTokenFactory()->create(
                    {&lexer_, lexer_.getInputStream()}, antlr4::Token::EOF, "<EOF>",
                    antlr4::Token::DEFAULT_CHANNEL, token->getStartIndex(), token->getStartIndex(),
                    token->getLine(), token->getCharPositionInLine());
            }
            open_.push_back(open);
        } else if (is_one_of(type, close_types_) && !open_.empty()) {
            open_.pop_back();
        }
        return token;
    }
}

FilteredLexer::FilteredLexer(antlr4::CharStream& input)
    : lexer(&input),
      filter(lexer, oprec_gen::RecLexer::NEWLINE, kMaxNesting, oprec_gen::RecLexer::ERRCHAR, kMaxJunk) {
    lexer.removeErrorListeners();
}

}  // namespace oprec
