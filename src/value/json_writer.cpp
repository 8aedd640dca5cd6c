#include "value/json_writer.h"

#include <algorithm>
#include <cstring>

#include "value/format.h"

namespace oprec {

namespace {
// The length of the well-formed UTF-8 sequence at p (of n bytes left), or 0.
std::size_t utf8_sequence(const unsigned char* p, std::size_t n) {
    const unsigned char c = p[0];
    const auto cont = [&](std::size_t k, unsigned char lo = 0x80, unsigned char hi = 0xbf) {
        return k < n && p[k] >= lo && p[k] <= hi;
    };
    if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
    if (c == 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
    if ((c >= 0xe1 && c <= 0xec) || c == 0xee || c == 0xef) return cont(1) && cont(2) ? 3 : 0;
    if (c == 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;  // no surrogates
    if (c == 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
    if (c >= 0xf1 && c <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
    if (c == 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
    return 0;
}
}  // namespace

void append_json_string(std::string& out, std::string_view text) {
    static constexpr char hex[] = "0123456789abcdef";
    // Names and messages rarely need escaping: copy a plain text at once
    // (a report writes some ninety names a layer).
    const bool plain = std::none_of(text.begin(), text.end(), [](char c) {
        return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x80;
    });
    const std::size_t at = out.size();
    if (plain) {
        out.resize(at + text.size() + 2);
        char* const p = out.data() + at;
        p[0] = '"';
        if (!text.empty()) std::memcpy(p + 1, text.data(), text.size());
        p[text.size() + 1] = '"';
        return;
    }
    out += '"';
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            // Well-formed UTF-8 passes through, as nlohmann's dump (ensure_ascii
            // off); a byte that is not (a message quoting bad input) becomes
            // U+FFFD, so that every line written is JSON a reader takes.
            const std::size_t n =
                utf8_sequence(reinterpret_cast<const unsigned char*>(text.data()) + i, text.size() - i);
            if (n == 0) {
                out += "\xef\xbf\xbd";
            } else {
                out.append(text.substr(i, n));
                i += n - 1;
            }
            continue;
        }
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
                out += c;
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

void JsonWriter::element() {
    if (open_.empty() || !open_.back().array) return;  // at the top, or after key()
    if (open_.back().has_member) out_ += ',';
    open_.back().has_member = true;
    newline(open_.size());
}

void JsonWriter::open(char bracket, bool array) {
    element();
    out_ += bracket;
    open_.push_back({false, array});
}

void JsonWriter::close(char bracket) {
    const bool any = open_.back().has_member;
    open_.pop_back();
    if (any) newline(open_.size());
    out_ += bracket;
}

void JsonWriter::begin_object() { open('{', false); }
void JsonWriter::end_object() { close('}'); }
void JsonWriter::begin_array() { open('[', true); }
void JsonWriter::end_array() { close(']'); }

void JsonWriter::key(std::string_view name) {
    if (open_.back().has_member) out_ += ',';
    open_.back().has_member = true;
    newline(open_.size());
    append_json_string(out_, name);
    out_ += indent_ < 0 ? ":" : ": ";
}

void JsonWriter::value(Value v) {
    element();
    append_json_text(out_, v);
}

void JsonWriter::string(std::string_view text) {
    element();
    append_json_string(out_, text);
}

void JsonWriter::boolean(bool b) {
    element();
    out_ += b ? "true" : "false";
}

void JsonWriter::null() {
    element();
    out_ += "null";
}

void JsonWriter::json(const nlohmann::ordered_json& j) {
    using T = nlohmann::ordered_json::value_t;
    switch (j.type()) {
    case T::object:
        begin_object();
        for (const auto& [k, v] : j.items()) {
            key(k);
            json(v);
        }
        end_object();
        return;
    case T::array:
        begin_array();
        for (const auto& v : j) json(v);
        end_array();
        return;
    case T::string: return string(j.get_ref<const std::string&>());
    case T::boolean: return boolean(j.get<bool>());
    case T::number_integer: return value(Value::integer(j.get<std::int64_t>()));
    case T::number_unsigned: {
        element();
        out_ += std::to_string(j.get<std::uint64_t>());
        return;
    }
    case T::number_float: return value(Value::real(j.get<double>()));
    default: return null();  // null, and binary (never in a report)
    }
}

std::string json_text(const nlohmann::ordered_json& j, int indent) {
    JsonWriter out(indent);
    out.json(j);
    return out.take();
}

}  // namespace oprec
