// ANTLR's token stream interface over the hand-written scanner: tokens are
// scanned as the parser asks and kept, by value, only while a mark or the
// parse tree of the current declaration may point at them (as
// antlr4::UnbufferedTokenStream keeps them, without a heap token each).
#pragma once

#include <memory>
#include <vector>

#include <antlr4-runtime.h>

#include "syntax/scanner.h"

namespace oprec {

class ScannedTokenStream final : public antlr4::TokenStream {
public:
    explicit ScannedTokenStream(Scanner& scanner) : scanner_(scanner) {}

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

    Scanner& scanner_;
    std::vector<std::unique_ptr<Chunk>> chunks_;
    std::size_t first_ = 0;  // the index of chunks_.front()'s first token
    std::size_t at_ = 0;     // the current token's index
    std::size_t end_ = 0;    // the number of tokens scanned
    bool ended_ = false;     // the end of file is among them
    int marks_ = 0;
};

}  // namespace oprec
