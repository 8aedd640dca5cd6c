#include "hf/layer_json.h"

#include "value/text.h"

namespace oprec::hf {

using nlohmann::ordered_json;

namespace {

ordered_json field_json(const FieldValue& v) {
    if (std::holds_alternative<std::monostate>(v)) return nullptr;
    if (const auto* s = std::get_if<std::string>(&v)) return *s;
    return to_json(std::get<Value>(v));
}

ordered_json switches_json(const SwitchMap& switches) {
    ordered_json out = ordered_json::object();
    for (const auto& [name, v] : switches) out[name] = v.truthy() ? 1 : 0;
    return out;
}

}  // namespace

ordered_json layer_doc_json(const LayerDoc& layer) {
    ordered_json doc;
    ordered_json& fields = doc["fields"] = ordered_json::object();
    for (const auto& [name, v] : layer.fields.fields()) fields[name] = field_json(v);
    doc["switches"] = switches_json(layer.switches);
    ordered_json& ctx = doc["context"] = ordered_json::object();
    const EvalContext& c = layer.context;
    ctx["micro_factor"] = c.micro_factor ? to_json(*c.micro_factor) : ordered_json(nullptr);
    ctx["dropless_tok_factor"] = c.dropless_tok_factor ? to_json(*c.dropless_tok_factor) : ordered_json(nullptr);
    ctx["node"] = std::string(node_kind_name(c.node));
    if (c.switches) ctx["switches"] = switches_json(*c.switches);
    return doc;
}

}  // namespace oprec::hf
