#include "syntax/scanned_stream.h"

namespace oprec {

void ScannedTokenStream::fill(std::size_t count) {
    while (tokens_.size() < at_ + count &&
           (tokens_.empty() || tokens_.back().getType() != antlr4::Token::EOF))
        tokens_.push_back(scanner_.next());
}

antlr4::Token* ScannedTokenStream::LT(ssize_t k) {
    if (k == 0) return nullptr;
    if (k < 0) {
        if (static_cast<std::size_t>(-k) > at_) return nullptr;
        return &tokens_[at_ + static_cast<std::size_t>(k)];
    }
    fill(static_cast<std::size_t>(k));
    const std::size_t i = at_ + static_cast<std::size_t>(k) - 1;
    return i < tokens_.size() ? &tokens_[i] : &tokens_.back();  // past the end: the end of file
}

antlr4::Token* ScannedTokenStream::get(std::size_t index) const {
    if (index < first_ || index - first_ >= tokens_.size())
        throw antlr4::IndexOutOfBoundsException("token " + std::to_string(index) + " is no longer kept");
    return const_cast<ScannedToken*>(&tokens_[index - first_]);
}

void ScannedTokenStream::consume() {
    if (LA(1) == antlr4::Token::EOF) throw antlr4::IllegalStateException("cannot consume EOF");
    ++at_;
    if (marks_ == 0) trim();
}

void ScannedTokenStream::release(ssize_t marker) {
    if (marker != -marks_) throw antlr4::IllegalStateException("release() called with an invalid marker");
    if (--marks_ == 0) trim();
}

void ScannedTokenStream::trim() {
    while (at_ > 1) {
        tokens_.pop_front();
        ++first_;
        --at_;
    }
}

void ScannedTokenStream::seek(std::size_t index) {
    if (index < first_) throw antlr4::IllegalArgumentException("cannot seek to a token no longer kept");
    while (index > this->index() && LA(1) != antlr4::Token::EOF) consume();
    if (index < this->index()) at_ = index - first_;
}

std::string ScannedTokenStream::getText(const antlr4::misc::Interval& interval) {
    std::string text;
    if (interval.a < 0 || interval.b < 0) return text;
    for (auto i = static_cast<std::size_t>(interval.a); i <= static_cast<std::size_t>(interval.b); ++i) {
        if (i < first_ || i - first_ >= tokens_.size()) break;
        const ScannedToken& token = tokens_[i - first_];
        if (token.getType() == antlr4::Token::EOF) break;
        text += token.getText();
    }
    return text;
}

std::string ScannedTokenStream::getText() { return getText(antlr4::misc::Interval(first_, size())); }

std::string ScannedTokenStream::getText(antlr4::RuleContext* ctx) { return getText(ctx->getSourceInterval()); }

std::string ScannedTokenStream::getText(antlr4::Token* start, antlr4::Token* stop) {
    if (start == nullptr || stop == nullptr) return "";
    return getText(antlr4::misc::Interval(start->getTokenIndex(), stop->getTokenIndex()));
}

}  // namespace oprec
