// Everything oprec knows about one layer, as one JSON document: what
// `oprec eval --format json` prints and what the table is drawn from. A value
// that cannot be computed is {"error": {"kind", "message"}} in its place, so
// one bad slot loses nothing else.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include <nlohmann/json.hpp>

#include "model/records_eval.h"
#include "value/text.h"

namespace oprec {

struct ReportQuery {
    std::optional<std::string> only;  // add "only": every slot priced with this op (or part) alone
};

nlohmann::ordered_json error_json(const EvalError& e, const SourceMap* sources = nullptr);

// Runs `f`, giving its value as JSON or the error it raised.
template <class F>
nlohmann::ordered_json value_or_error(F&& f, const SourceMap* sources = nullptr) {
    try {
        return to_json(f());
    } catch (const EvalError& e) {
        return error_json(e, sources);
    }
}

// The document: slots, parts, ops, [only], params, kv_shards,
// gathered_kv_bytes, head_dim, activations.
nlohmann::ordered_json layer_report(const RecordsEvaluator& records, const LayerDoc& layer,
                                    const ReportQuery& options = {});

// The native evaluators' part of the document: params, kv_shards,
// gathered_kv_bytes, head_dim (each a value or its error).
void add_native_values(nlohmann::ordered_json& doc, const LayerConfig& fields);

// The same document from a layer bound once (`names`, `keep`: the layer's
// bindings and keep mask): each slot's entries evaluated once, every price
// taken from them, and the parts as the caller priced them (or the error
// that pricing raised). Gives layer_report's document to the bit; what
// every command prints.
using PartsOrError = std::variant<Named<Value>, EvalError>;
nlohmann::ordered_json bound_report(const RecordsEvaluator& records, const LayerDoc& layer, const Bindings& names,
                                    const KeepMask& keep, const PartsOrError& parts, const ReportQuery& options = {});

// The same, binding the layer here (once).
nlohmann::ordered_json bound_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options = {});

// Whether an {"error": ...} stands anywhere in a report (or part of one).
bool has_error(const nlohmann::ordered_json& report);

// "where: message" for an evaluation error, naming the slot and source position.
std::string describe_error(const EvalError& e, const SourceMap* sources);

}  // namespace oprec
