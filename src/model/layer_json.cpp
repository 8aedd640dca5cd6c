#include "model/layer_json.h"

#include "value/text.h"

namespace oprec {

using nlohmann::ordered_json;

namespace {

ordered_json field_json(const FieldValue& v) {
    if (const auto* value = std::get_if<Value>(&v)) return to_json(*value);
    if (const auto* text = std::get_if<std::string>(&v)) return *text;
    return nullptr;  // stated as none
}

ordered_json switches_json(const SwitchMap& switches) {
    ordered_json out = ordered_json::object();
    for (const auto& [name, v] : switches) out[name] = v.truthy() ? 1 : 0;
    return out;
}

ordered_json optional_json(const std::optional<Value>& v) { return v ? to_json(*v) : ordered_json(nullptr); }

}  // namespace

ordered_json layer_doc_json(const LayerDoc& layer) {
    ordered_json doc;
    ordered_json& fields = doc["fields"] = ordered_json::object();
    for (const auto& [name, v] : layer.fields.fields()) fields[name] = field_json(v);
    doc["switches"] = switches_json(layer.switches);
    ordered_json& context = doc["context"] = ordered_json::object();
    context["micro_factor"] = optional_json(layer.context.micro_factor);
    context["dropless_tok_factor"] = optional_json(layer.context.dropless_tok_factor);
    context["node"] = std::string(node_kind_name(layer.context.node));
    if (layer.context.switches) context["switches"] = switches_json(*layer.context.switches);
    return doc;
}

}  // namespace oprec
