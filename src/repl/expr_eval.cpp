#include "repl/expr_eval.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/attention.h"
#include "repl/layer_edit.h"
#include "repl/output.h"
#include "model/report.h"

namespace oprec::repl {

namespace {

[[noreturn]] void unknown_name(std::string_view name, const Program& program, const LayerDoc& layer) {
    std::vector<std::string> known = field_names(program, layer);
    if (std::find(known.begin(), known.end(), name) != known.end())
        throw EvalError(ErrorKind::MissingField,
                        fmt::format("the layer has no field `{}` (state it: `set {}=...`)", name, name));
    for (const SlotInfo& s : program.slots) known.push_back(s.name);
    known.insert(known.end(), kContextValues.begin(), kContextValues.end());
    known.emplace_back("kv_shards");
    const std::string note = did_you_mean(name, known);
    throw EvalError(ErrorKind::UnboundName,
                    fmt::format("no field, slot or value `{}`{}", name, note.empty() ? "" : " (" + note + ")"));
}

}  // namespace

Value evaluate_on_layer(const CompiledExpr& expr, const RecordsEvaluator& records, const LayerDoc& layer) {
    const Program& program = records.program();
    const Bindings names = records.bind(layer);
    return evaluate(expr, [&](std::string_view name) -> std::optional<Value> {
        if (auto id = program.find_name(name)) return names.load(*id, 0);  // throws what reading it raises
        if (is_context_value(name)) return layer.context.value(name);
        if (name == "kv_shards") return kv_shards(layer.fields);
        if (program.find_slot(name)) {
            try {
                return records.slot_bytes(layer, name);
            } catch (const EvalError& e) {
                // Its place is in the records, not in this expression: say it in words.
                throw EvalError(e.kind(), fmt::format("slot `{}`: {}", name, describe_error(e, &program.sources)));
            }
        }
        if (layer.fields.contains(name)) return layer.fields.number(name);
        unknown_name(name, program, layer);
    });
}

}  // namespace oprec::repl
