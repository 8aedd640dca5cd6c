#include "syntax/scanned_stream.h"

namespace oprec {

void ScannedTokenStream::fill(std::size_t count) {
    while (end_ < at_ + count && !ended_) {
        if (chunks_.empty() || chunks_.back()->size() == kChunk) {
            chunks_.push_back(std::make_unique<Chunk>());
            chunks_.back()->reserve(kChunk);
        }
        chunks_.back()->push_back(filter_.next());
        ended_ = chunks_.back()->back().getType() == antlr4::Token::EOF;
        ++end_;
    }
}

antlr4::Token* ScannedTokenStream::lookahead(ssize_t k) {
    if (k == 0) return nullptr;
    if (k < 0) {
        const auto back = static_cast<std::size_t>(-k);
        return back > at_ || at_ - back < first_ ? nullptr : &token(at_ - back);
    }
    fill(static_cast<std::size_t>(k));
    const std::size_t i = at_ + static_cast<std::size_t>(k) - 1;
    return &token(i < end_ ? i : end_ - 1);  // past the end: the end of file
}

antlr4::Token* ScannedTokenStream::get(std::size_t index) const {
    if (index < first_ || index >= end_)
        throw antlr4::IndexOutOfBoundsException("token " + std::to_string(index) + " is no longer kept");
    return &token(index);
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
    // Whole chunks before the previous token's.
    const std::size_t drop = at_ == 0 ? 0 : ((at_ - 1 - first_) >> kChunkBits);
    if (drop == 0) return;
    chunks_.erase(chunks_.begin(), chunks_.begin() + static_cast<std::ptrdiff_t>(drop));
    first_ += drop * kChunk;
}

void ScannedTokenStream::seek(std::size_t index) {
    if (index < first_) throw antlr4::IllegalArgumentException("cannot seek to a token no longer kept");
    while (index > at_ && LA(1) != antlr4::Token::EOF) consume();
    if (index < at_) at_ = index;
}

std::string ScannedTokenStream::getText(const antlr4::misc::Interval& interval) {
    std::string text;
    if (interval.a < 0 || interval.b < 0) return text;
    for (auto i = static_cast<std::size_t>(interval.a); i <= static_cast<std::size_t>(interval.b); ++i) {
        if (i < first_ || i >= end_) break;
        const ScannedToken& t = token(i);
        if (t.getType() == antlr4::Token::EOF) break;
        text += t.getText();
    }
    return text;
}

std::unique_ptr<antlr4::Token> ScannedTokenSource::nextToken() {
    const ScannedToken t = filter_.next();
    line_ = t.getLine();
    col_ = t.getCharPositionInLine();
    auto token = std::make_unique<antlr4::CommonToken>(std::pair<antlr4::TokenSource*, antlr4::CharStream*>{this, nullptr},
                                                       t.getType(), t.getChannel(), t.getStartIndex(), t.getStopIndex());
    token->setLine(line_);
    token->setCharPositionInLine(col_);
    token->setText(t.getText());
    return token;
}

std::string ScannedTokenStream::getText() { return getText(antlr4::misc::Interval(first_, end_)); }

std::string ScannedTokenStream::getText(antlr4::RuleContext* ctx) { return getText(ctx->getSourceInterval()); }

std::string ScannedTokenStream::getText(antlr4::Token* start, antlr4::Token* stop) {
    if (start == nullptr || stop == nullptr) return "";
    return getText(antlr4::misc::Interval(start->getTokenIndex(), stop->getTokenIndex()));
}

}  // namespace oprec
