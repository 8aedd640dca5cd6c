#include "repl/expr_eval.h"

#include <algorithm>

#include <fmt/format.h>

#include "repl/layer_edit.h"
#include "repl/output.h"

namespace oprec::repl {

namespace {

// An error for Expression::evaluate to raise at the name's place: it keeps
// the kind and the reason, and names the kind itself.
PricingError at_the_name(PricingError::Kind kind, const std::string& reason) {
    return PricingError(kind, {}, reason, {}, reason);
}

[[noreturn]] void unknown_name(std::string_view name, const Records& records, const Layer& layer) {
    std::vector<std::string> known = layer.field_names();
    if (contains(known, name))
        throw at_the_name(PricingError::Kind::MissingField,
                          fmt::format("the layer has no field `{}` (state it: `set {}=...`)", name, name));
    known.insert(known.end(), records.slots().begin(), records.slots().end());
    known.insert(known.end(), context_names().begin(), context_names().end());
    known.emplace_back("kv_shards");
    const std::string note = did_you_mean(name, known);
    throw at_the_name(PricingError::Kind::UnboundName,
                      fmt::format("no field, slot or value `{}`{}", name, note.empty() ? "" : " (" + note + ")"));
}

}  // namespace

Number evaluate_on_layer(const Expression& expr, const Records& records, const Layer& layer) {
    return expr.evaluate([&](std::string_view name) -> std::optional<Number> {
        // What a record reads, as it reads it (raising what reading it raises).
        if (contains(records.names(), name) || is_context_name(name) || name == "kv_shards") return layer.read(name);
        if (contains(records.slots(), name)) {
            try {
                return layer.slot(name);
            } catch (const PricingError& e) {
                // Its place is in the records, not in this expression: say it in words.
                throw at_the_name(e.kind(), fmt::format("slot `{}`: {}", name, e.what()));
            }
        }
        if (layer.field(name)) return layer.read(name);
        unknown_name(name, records, layer);
    });
}

}  // namespace oprec::repl
