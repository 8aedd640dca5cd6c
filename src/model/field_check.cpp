#include "model/field_check.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "diag/suggest.h"

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
                            alternatives(field->types) + ", got a string ('" + *text + "')");
    }
}

std::vector<std::string> settable_fields(const Program& program, const LayerConfig& fields) {
    std::vector<std::string> names;
    auto add = [&](const std::string& n) {
        if (!is_context_value(n) && n != "kv_shards" && n != "total") names.push_back(n);
    };
    for (const FieldInfo& f : program.fields)
        if (!f.context) add(f.name);
    for (const std::string& n : program.names) add(n);
    for (const auto& [n, v] : fields.fields()) add(n);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

std::optional<std::string> unknown_field(const Program& program, const LayerConfig& fields, std::string_view name) {
    if (is_context_value(name)) return std::nullopt;
    std::vector<std::string> known = settable_fields(program, fields);
    if (std::binary_search(known.begin(), known.end(), name)) return std::nullopt;
    if (name == "kv_shards") return std::string("`kv_shards` is computed, not stated");
    known.insert(known.end(), kContextValues.begin(), kContextValues.end());
    const auto near = closest_name(name, known);
    return fmt::format("no field `{}` in the records' schema{}", name, near ? " (did you mean `" + *near + "`?)" : "");
}

}  // namespace oprec
