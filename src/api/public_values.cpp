// Between the library's values and errors and the public API's.
#include "api/state.h"
#include "value/format.h"
#include "value/numbers.h"

namespace oprec {

static_assert(static_cast<int>(PricingError::Kind::UnknownOp) == static_cast<int>(ErrorKind::UnknownOp) &&
              static_cast<int>(PricingError::Kind::TypeError) == static_cast<int>(ErrorKind::TypeError));

std::string Number::repr() const { return oprec::repr(detail::to_value(*this)); }

bool Number::identical(const Number& o) const { return oprec::identical(detail::to_value(*this), detail::to_value(o)); }

namespace detail {

Number to_number(const Value& v) { return number_of(v); }

Value to_value(const Number& n) { return value_of(n); }

Position position(const Span& span, const SourceMap& sources) {
    Position p;
    if (!span.known() || span.file >= sources.size()) return p;
    p.file = sources.file(span.file).path();
    p.line = p.end_line = span.line;
    p.col = span.col;
    p.end_col = span.col + span.len;
    return p;
}

PricingError pricing_error(const EvalError& e, const SourceMap& sources) {
    std::string message;
    if (e.span().known()) message = sources.where(e.span()) + ": ";
    if (!e.context().empty()) message += "in " + e.context() + ": ";
    message += e.what();
    return PricingError(static_cast<PricingError::Kind>(e.kind()), error_kind_name(e.kind()), message,
                        position(e.span(), sources), e.what());
}

}  // namespace detail
}  // namespace oprec
