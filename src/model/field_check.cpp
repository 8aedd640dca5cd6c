#include "model/field_check.h"

#include <algorithm>
#include <string>

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

}  // namespace oprec
