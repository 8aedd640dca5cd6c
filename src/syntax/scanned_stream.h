// ANTLR's token stream interface over the hand-written scanner: tokens are
// scanned as the parser asks and kept, by value, only while a mark or the
// parse tree of the current declaration may point at them (as
// antlr4::UnbufferedTokenStream keeps them, without a heap token each).
#pragma once

#include <deque>

#include <antlr4-runtime.h>

#include "syntax/scanner.h"

namespace oprec {

class ScannedTokenStream final : public antlr4::TokenStream {
public:
    explicit ScannedTokenStream(Scanner& scanner) : scanner_(scanner) {}

    antlr4::Token* LT(ssize_t k) override;
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
    std::size_t index() override { return first_ + at_; }
    void seek(std::size_t index) override;
    std::size_t size() override { return first_ + tokens_.size(); }
    std::string getSourceName() const override { return ""; }

private:
    void fill(std::size_t count);  // at least `count` tokens from the current one, or through the end
    void trim();                   // forget what no mark needs; keep the previous token (LT(-1))

    Scanner& scanner_;
    std::deque<ScannedToken> tokens_;  // a deque: pointers to its tokens stay valid as it grows
    std::size_t first_ = 0;            // the index of tokens_.front()
    std::size_t at_ = 0;               // the current token, in tokens_
    int marks_ = 0;
};

}  // namespace oprec
