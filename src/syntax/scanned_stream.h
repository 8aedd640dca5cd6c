// ANTLR's token stream interface over the lexer's filtered tokens
// (token_filter.h): tokens are lexed as the parser asks and kept, by value,
// only while a mark or the parse tree of the current declaration may point
// at them (as antlr4::UnbufferedTokenStream keeps them, without a heap token
// each).
#pragma once

#include <memory>
#include <vector>

#include <antlr4-runtime.h>

#include "syntax/token_filter.h"

namespace oprec {

class ScannedTokenStream final : public antlr4::TokenStream {
public:
    explicit ScannedTokenStream(TokenFilter& filter) : filter_(filter) {}

    antlr4::Token* LT(ssize_t k) override {
        if (k == 1 && at_ < end_) return &token(at_);  // the parser's usual question, answered inline
        return lookahead(k);
    }
    antlr4::Token* get(std::size_t index) const override;
    antlr4::TokenSource* getTokenSource() const override { return nullptr; }
    std::string getText(const antlr4::misc::Interval& interval) override;
    std::string getText() override;
    std::string getText(antlr4::RuleContext* ctx) override;
    std::string getText(antlr4::Token* start, antlr4::Token* stop) override;

    void consume() override;
    std::size_t LA(ssize_t i) override { return LT(i)->getType(); }
    ssize_t mark() override { return -++marks_; }
    void release(ssize_t marker) override;
    std::size_t index() override { return at_; }
    void seek(std::size_t index) override;
    std::size_t size() override { return end_; }
    std::string getSourceName() const override { return ""; }

private:
    // Tokens in chunks that never move, so a pointer to a token stays valid
    // while later ones are scanned.
    static constexpr std::size_t kChunkBits = 10, kChunk = std::size_t(1) << kChunkBits;
    using Chunk = std::vector<ScannedToken>;  // reserved to kChunk, never grown past it

    ScannedToken& token(std::size_t index) const {
        const std::size_t i = index - first_;
        return (*chunks_[i >> kChunkBits])[i & (kChunk - 1)];
    }
    antlr4::Token* lookahead(ssize_t k);
    void fill(std::size_t count);  // at least `count` tokens from the current one, or through the end
    void trim();                   // forget the chunks no mark needs, keeping the previous token (LT(-1))

    TokenFilter& filter_;
    std::vector<std::unique_ptr<Chunk>> chunks_;
    std::size_t first_ = 0;  // the index of chunks_.front()'s first token
    std::size_t at_ = 0;     // the current token's index
    std::size_t end_ = 0;    // the number of tokens scanned
    bool ended_ = false;     // the end of file is among them
    int marks_ = 0;
};

// The same tokens as ANTLR's own token objects, for the parse that recovers
// from syntax errors: its error strategy makes tokens of its own through the
// source's factory, and the parse keeps every token.
class ScannedTokenSource final : public antlr4::TokenSource {
public:
    ScannedTokenSource(TokenFilter& filter, std::string name) : filter_(filter), name_(std::move(name)) {}

    std::unique_ptr<antlr4::Token> nextToken() override;
    std::size_t getLine() const override { return line_; }
    std::size_t getCharPositionInLine() override { return col_; }
    antlr4::CharStream* getInputStream() override { return nullptr; }
    std::string getSourceName() override { return name_; }
    antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override {
        return antlr4::CommonTokenFactory::DEFAULT.get();
    }

private:
    TokenFilter& filter_;
    std::string name_;
    std::size_t line_ = 1, col_ = 0;  // where the last token given starts
};

}  // namespace oprec
