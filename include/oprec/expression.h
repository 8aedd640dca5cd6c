// One expression of the records' language on its own, outside any records:
// parsed once, evaluated with Python's semantics as often as needed, its
// names looked up through a callback lazily (only on the branch taken, each
// at most once per evaluation). What a caller holding its names elsewhere
// (a Python mapping, the drop-in's op records) evaluates a formula with.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/errors.h"
#include "oprec/number.h"

namespace oprec {

namespace detail {
struct ExpressionState;
struct Access;
}

class Expression {
public:
    // Throws RecordsError (each problem with its position in `source`, named
    // `name`) for a source the language refuses: a syntax error, a node
    // outside the closed set, a call of anything but max/min.
    static Expression parse(std::string source, std::string name = "<expr>");

    const std::string& source() const;
    // The names it reads (max and min are calls, not names), by first appearance.
    const std::vector<std::string>& names() const;

    // A name's value; nullopt: the name has none (UnboundName).
    using Lookup = std::function<std::optional<Number>(std::string_view)>;
    // Throws PricingError with the kind and the span in the source. A
    // PricingError the lookup throws is raised at the name's place (its
    // reason and kind kept); any other exception passes through. `reads`, if given, gets
    // the names looked up that had a value, in order of first read.
    Number evaluate(const Lookup& lookup, std::vector<std::string>* reads = nullptr) const;

private:
    explicit Expression(std::shared_ptr<const detail::ExpressionState> state) : state_(std::move(state)) {}
    std::shared_ptr<const detail::ExpressionState> state_;
    friend struct detail::Access;
};

}  // namespace oprec
