// Expression: eval/expression's compiled expression behind the public types.
#include "oprec/expression.h"

#include "api/state.h"

namespace oprec {

Expression Expression::parse(std::string source, std::string name) {
    auto state = std::make_shared<detail::ExpressionState>();
    state->source = source;
    try {
        state->compiled = compile_expression(std::move(source), std::move(name));
    } catch (const LoadError& e) {
        throw detail::records_error(e.diagnostics(), e.sources());
    }
    return Expression(std::move(state));
}

const std::string& Expression::source() const { return state_->source; }

const std::vector<std::string>& Expression::names() const { return state_->compiled.names; }

Number detail::evaluate(const ExpressionState& expr, const Expression::Lookup& lookup,
                        std::vector<std::string>* reads, bool tree) {
    const NameLookup values = [&](std::string_view name) -> std::optional<Value> {
        std::optional<Number> n;
        try {
            n = lookup(name);
        } catch (const PricingError& e) {  // raised again as the interpreter's, placed at the name
            throw EvalError(static_cast<ErrorKind>(e.kind()), e.reason());
        }
        if (!n) return std::nullopt;
        return to_value(*n);
    };
    try {
        return to_number(oprec::evaluate(expr.compiled, values, reads, tree));
    } catch (const EvalError& e) {
        throw pricing_error(e, expr.compiled.sources);
    }
}

Number Expression::evaluate(const Lookup& lookup, std::vector<std::string>* reads) const {
    return detail::evaluate(*state_, lookup, reads, /*tree=*/false);
}

}  // namespace oprec
