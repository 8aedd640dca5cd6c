#include "model/field_check.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "value/format.h"

namespace oprec {

namespace {

// "int", "int or float", "int, float or bool"
std::string alternatives(const std::vector<std::string>& types) {
    std::string out;
    for (std::size_t i = 0; i < types.size(); ++i) {
        if (i > 0) out += i + 1 == types.size() ? " or " : ", ";
        out += types[i];
    }
    return out;
}

}  // namespace

void check_field_types(const LayerConfig& fields, const Program& program, std::string_view source_name) {
    for (const auto& [name, value] : fields.fields()) {
        const std::string* text = std::get_if<std::string>(&value);
        if (text == nullptr) continue;
        const FieldInfo* field = program.find_field(name);
        if (field == nullptr || field->context) continue;
        if (std::find(field->types.begin(), field->types.end(), "str") != field->types.end()) continue;
        throw LayerDocError(std::string(source_name) + ": fields." + name + ": expected " +
                            alternatives(field->types) + ", got a string (" + str_repr(*text) + ")");
    }
}

namespace {
// The names settable_fields() gives, in the rule's order (unsorted, repeats
// possible): the schema's, the formulas', the layer's own.
template <class F>
void each_settable(const Program& program, const LayerConfig& fields, F&& f) {
    const auto take = [&](const std::string& n) {
        if (!is_context_value(n) && n != "kv_shards" && n != "total") f(n);
    };
    for (const FieldInfo& field : program.fields)
        if (!field.context) take(field.name);
    for (const std::string& n : program.names) take(n);
    for (const auto& [n, v] : fields.fields()) take(n);
}
}  // namespace

std::vector<std::string> settable_fields(const Program& program, const LayerConfig& fields) {
    std::vector<std::string> names;
    each_settable(program, fields, [&](const std::string& n) { names.push_back(n); });
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

namespace {
// Why `name` is no field, suggesting one of the settable names (those of
// `stated` among them); nullopt when the schema declares it or a formula
// reads it.
std::optional<std::string> not_a_field(const Program& program, const LayerConfig& stated, std::string_view name) {
    if (name == "kv_shards") return std::string("`kv_shards` is computed, not stated");
    if (name != "total") {
        if (const FieldInfo* f = program.find_field(name); f != nullptr && !f->context) return std::nullopt;
        if (program.find_name(name)) return std::nullopt;
    }
    std::vector<std::string> known;  // in the rule's order, so a tie suggests the schema's name first
    each_settable(program, stated, [&](const std::string& n) { known.push_back(n); });
    known.insert(known.end(), kContextValues.begin(), kContextValues.end());
    const auto near = closest_name(name, known);
    return fmt::format("no field {} in the records' schema{}", quoted_name(name), near ? " (did you mean `" + *near + "`?)" : "");
}
}  // namespace

std::optional<std::string> unknown_field(const Program& program, const LayerConfig& fields, std::string_view name) {
    // The usual answers first, without a list: a binding asks before every set.
    if (is_context_value(name) || fields.contains(name)) return std::nullopt;
    return not_a_field(program, fields, name);
}

std::vector<std::pair<std::string, std::string>> unread_fields(const Program& program, const LayerConfig& fields) {
    std::vector<std::pair<std::string, std::string>> out;
    if (program.fields.empty()) return out;  // no schema to tell a misspelt name by
    const LayerConfig none;
    for (const auto& [name, value] : fields.fields())
        if (!is_context_value(name))
            if (auto why = not_a_field(program, none, name)) out.emplace_back(name, std::move(*why));
    return out;
}

}  // namespace oprec
