// Expression: eval/expression's compiled expression behind the public types.
#include "oprec/expression.h"

#include "api/state.h"
#include "eval/expression.h"

namespace oprec {

namespace detail {
struct ExpressionState {
    std::string source;
    CompiledExpr compiled;
};
}  // namespace detail

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

Number Expression::evaluate(const Lookup& lookup, std::vector<std::string>* reads) const {
    const NameLookup values = [&](std::string_view name) -> std::optional<Value> {
        std::optional<Number> n = lookup(name);
        if (!n) return std::nullopt;
        return detail::to_value(*n);
    };
    try {
        return detail::to_number(oprec::evaluate(state_->compiled, values, reads));
    } catch (const EvalError& e) {
        throw detail::pricing_error(e, state_->compiled.sources);
    }
}

}  // namespace oprec
