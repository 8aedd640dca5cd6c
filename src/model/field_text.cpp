#include "model/field_text.h"

#include "value/text.h"

namespace oprec {

FieldValue field_from_text(std::string_view text) {
    if (text == "none" || text == "None" || text == "null") return std::monostate{};
    if (auto v = parse_value_text(text)) return *v;
    return std::string(text);
}

}  // namespace oprec
