#include "syntax/token_filter.h"

namespace oprec {

TokenFilter::TokenFilter(antlr4::Lexer& lexer, std::size_t newline_type, int max_depth)
    : lexer_(lexer), newline_type_(newline_type), max_depth_(max_depth) {}

std::unique_ptr<antlr4::Token> TokenFilter::nextToken() {
    for (;;) {
        std::unique_ptr<antlr4::Token> token = lexer_.nextToken();
        if (token->getType() == newline_type_ && !open_.empty()) continue;
        if (token->getChannel() != antlr4::Token::DEFAULT_CHANNEL) return token;
        const std::string text = token->getText();
        if (text == "(" || text == "[") {
            Open open{token->getLine(), token->getCharPositionInLine(), text[0]};
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
        } else if ((text == ")" || text == "]") && !open_.empty()) {
            open_.pop_back();
        }
        return token;
    }
}

}  // namespace oprec
