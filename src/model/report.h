// Everything oprec knows about one layer, as one JSON document: what
// `oprec eval --format json` prints and what the table is drawn from. A value
// that cannot be computed is {"error": {"kind", "message"}} in its place, so
// one bad slot loses nothing else. The document is written straight to
// text (value/json_writer.h): a report is priced in a few microseconds, and
// building a JSON tree first would cost more than the pricing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>


#include "model/evaluator.h"
#include "value/json_writer.h"

namespace oprec {

struct ReportQuery {
    std::optional<std::string> only;  // add "only": every slot priced with this op (or part) alone
    int indent = -1;                  // JSON indentation; -1: one line
};

// A report's text, and whether every value in it was priced.
struct ReportText {
    std::string json;
    bool complete = true;  // false: an {"error": ...} stands in some value's place
};

// Writes a report's members: values, and errors in their place.
class ReportWriter {
public:
    ReportWriter(const SourceMap* sources, int indent) : sources_(sources), out_(indent) {}

    JsonWriter& json() { return out_; }
    void value(std::string_view key, Value v) {
        out_.key(key);
        out_.value(v);
    }
    // {"error": {"kind", "message"}} as the value of `key` (or, without a
    // key, as the value a key() before it awaits).
    void error(std::string_view key, const EvalError& e) {
        out_.key(key);
        error(e);
    }
    void error(const EvalError& e);
    // f()'s value, or the error it raised.
    template <class F>
    void attempt(std::string_view key, F&& f) {
        try {
            const Value v = f();
            value(key, v);
        } catch (const EvalError& e) {
            error(key, e);
        }
    }
    ReportText finish() { return {out_.take(), complete_}; }

private:
    const SourceMap* sources_;
    JsonWriter out_;
    bool complete_ = true;
};

// The document: slots, parts, ops, [only], params, kv_shards,
// gathered_kv_bytes, head_dim, activations; every value through the tree
// walk, the layer bound anew for each. The oracle: what write_report (and
// so every command) is tested against, not what any command prints.
ReportText oracle_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options = {});

// The native evaluators' part of the document: params, kv_shards,
// gathered_kv_bytes, head_dim (each a value or its error).
void write_native_values(ReportWriter& out, const LayerConfig& fields);

// The same document from a layer bound once (`names`, `keep`: the layer's
// bindings and keep mask): each slot's entries evaluated once, every price
// taken from them, the parts too. Gives oracle_report's document to the
// bit; what every command prints (Layer::report).
ReportText write_report(const RecordsEvaluator& records, const LayerDoc& layer, const Bindings& names,
                        const KeepMask& keep, const ReportQuery& options = {});

// The same, binding the layer here (once).
ReportText write_report(const RecordsEvaluator& records, const LayerDoc& layer, const ReportQuery& options = {});

// "where: message" for an evaluation error, naming the slot and source position.
std::string describe_error(const EvalError& e, const SourceMap* sources);

}  // namespace oprec
