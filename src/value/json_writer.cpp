#include "value/json_writer.h"

#include <algorithm>

#include "value/format.h"

namespace oprec {

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    out += '"';
    // Names and messages rarely need escaping: copy a plain text at once.
    const bool plain = std::none_of(text.begin(), text.end(), [](char c) {
        return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20;
    });
    if (plain) {
        out.append(text);
        out += '"';
        return;
    }
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += hex[(c >> 4) & 0xf];
                out += hex[c & 0xf];
            } else {
                out += c;  // UTF-8 passes through, as nlohmann's dump (ensure_ascii off)
            }
        }
    }
    out += '"';
}

void JsonWriter::newline(std::size_t depth) {
    if (indent_ < 0) return;
    out_ += '\n';
    out_.append(depth * static_cast<std::size_t>(indent_), ' ');
}

void JsonWriter::begin_object() {
    out_ += '{';
    has_member_.push_back(false);
}

void JsonWriter::end_object() {
    const bool any = has_member_.back();
    has_member_.pop_back();
    if (any) newline(has_member_.size());
    out_ += '}';
}

void JsonWriter::key(std::string_view name) {
    if (has_member_.back()) out_ += ',';
    has_member_.back() = true;
    newline(has_member_.size());
    append_json_string(out_, name);
    out_ += indent_ < 0 ? ":" : ": ";
}

void JsonWriter::value(Value v) {
    append_json_text(out_, v);
}

void JsonWriter::string(std::string_view text) {
    append_json_string(out_, text);
}

void JsonWriter::boolean(bool b) {
    out_ += b ? "true" : "false";
}

void JsonWriter::null() {
    out_ += "null";
}

}  // namespace oprec
