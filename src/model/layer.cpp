#include "model/layer.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>

#include "model/layer_doc_fast.h"
#include "value/arith.h"
#include "value/format.h"
#include "value/text.h"

namespace oprec {

namespace {

// Python's repr of a name or text from the document: quoted and escaped as the reference's messages are.
std::string in_quotes(std::string_view name) { return str_repr(name); }

[[noreturn]] void throw_missing(std::string_view name) { throw EvalError(ErrorKind::MissingField, missing_field_message(name)); }

// Python would raise at the arithmetic; we raise at the read, naming the field.
[[noreturn]] void throw_not_number(std::string_view name, const FieldValue& value) {
    const std::string what = std::holds_alternative<std::monostate>(value)
        ? "None"
        : "a string (" + in_quotes(std::get<std::string>(value)) + ")";
    throw EvalError(ErrorKind::TypeError,
                    "the layer config's field " + in_quotes(name) + " is " + what + ", not a number");
}

}  // namespace

// ---- LayerConfig -------------------------------------------------------------

std::uint64_t LayerConfig::key_of(std::string_view name) {
    std::uint64_t key = std::min<std::size_t>(name.size(), 255);
    for (std::size_t i = 0; i < 7 && i < name.size(); ++i)
        key |= std::uint64_t(static_cast<unsigned char>(name[i])) << (8 * (i + 1));
    return key;
}

namespace {
// Where a key's probe starts in a table of 2^bits places (Fibonacci hashing).
std::size_t home(std::uint64_t key, std::size_t mask) {
    return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 40) & mask;
}
}  // namespace

std::size_t LayerConfig::index_of(std::string_view name) const {
    if (table_.empty()) return fields_.size();
    const std::uint64_t key = key_of(name);
    const std::size_t mask = table_.size() - 1;
    for (std::size_t at = home(key, mask);; at = (at + 1) & mask) {
        const std::uint32_t slot = table_[at];
        if (slot == 0) return fields_.size();
        const std::size_t i = slot - 1;
        if (keys_[i] == key && (name.size() <= 7 || fields_[i].first == name)) return i;
    }
}

void LayerConfig::index_last() {
    // At most half full, so a probe always meets an empty place.
    if (2 * fields_.size() > table_.size()) return index_all();
    const std::size_t mask = table_.size() - 1;
    std::size_t at = home(keys_.back(), mask);
    while (table_[at] != 0) at = (at + 1) & mask;
    table_[at] = static_cast<std::uint32_t>(fields_.size());
}

void LayerConfig::index_all(std::size_t room) {
    std::size_t size = 16;
    while (size < 2 * std::max(fields_.size(), room)) size *= 2;
    table_.assign(size, 0);
    const std::size_t mask = size - 1;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        std::size_t at = home(keys_[i], mask);
        while (table_[at] != 0) at = (at + 1) & mask;
        table_[at] = static_cast<std::uint32_t>(i + 1);
    }
}

void LayerConfig::set(std::string name, FieldValue value) {
    const std::size_t i = index_of(name);
    if (i < fields_.size()) {
        fields_[i].second = std::move(value);
        return;
    }
    keys_.push_back(key_of(name));
    fields_.emplace_back(std::move(name), std::move(value));
    index_last();
}

bool LayerConfig::add(std::string name, FieldValue value) {
    if (index_of(name) < fields_.size()) return false;
    keys_.push_back(key_of(name));
    fields_.emplace_back(std::move(name), std::move(value));
    index_last();
    return true;
}

void LayerConfig::reserve(std::size_t count) {
    fields_.reserve(count);
    keys_.reserve(count);
    if (2 * count > table_.size()) index_all(count);
}

bool LayerConfig::erase(std::string_view name) {
    const std::size_t i = index_of(name);
    if (i == fields_.size()) return false;
    fields_.erase(fields_.begin() + static_cast<std::ptrdiff_t>(i));
    keys_.erase(keys_.begin() + static_cast<std::ptrdiff_t>(i));
    index_all();  // the later fields moved down one
    return true;
}

const FieldValue* LayerConfig::find(std::string_view name) const {
    const std::size_t i = index_of(name);
    return i < fields_.size() ? &fields_[i].second : nullptr;
}

const FieldValue& LayerConfig::get(std::string_view name) const {
    const FieldValue* value = find(name);
    if (value == nullptr) throw_missing(name);
    return *value;
}

Value LayerConfig::number(std::string_view name) const {
    const FieldValue& value = get(name);
    if (const Value* v = std::get_if<Value>(&value)) return *v;
    throw_not_number(name, value);
}

Value LayerConfig::number_or(std::string_view name, Value fallback) const {
    const FieldValue* value = find(name);
    if (value == nullptr) return fallback;
    if (const Value* v = std::get_if<Value>(value)) return *v;
    throw_not_number(name, *value);
}

std::optional<Value> LayerConfig::stated(std::string_view name) const {
    const FieldValue* value = find(name);
    if (value == nullptr || std::holds_alternative<std::monostate>(*value)) return std::nullopt;
    if (const Value* v = std::get_if<Value>(value)) return *v;
    throw_not_number(name, *value);
}

bool LayerConfig::truth(std::string_view name) const { return oprec::truth(get(name)); }

bool LayerConfig::stated_truth(std::string_view name) const {
    const FieldValue* value = find(name);
    return value != nullptr && oprec::truth(*value);
}

bool truth(const FieldValue& value) {
    if (const Value* v = std::get_if<Value>(&value)) return v->truthy();
    if (const std::string* s = std::get_if<std::string>(&value)) return !s->empty();
    return false;  // None
}

// ---- node kinds and the context ----------------------------------------------

std::optional<NodeKind> parse_node_kind(std::string_view text) {
    if (text == "NOT_REC_LAYER") return NodeKind::NotRec;
    if (text == "SEL_REC_LAYER") return NodeKind::SelRec;
    if (text == "FULL_REC_LAYER") return NodeKind::FullRec;
    return std::nullopt;
}

std::string_view node_kind_name(NodeKind kind) {
    switch (kind) {
    case NodeKind::NotRec: return "NOT_REC_LAYER";
    case NodeKind::SelRec: return "SEL_REC_LAYER";
    case NodeKind::FullRec: return "FULL_REC_LAYER";
    }
    return "NOT_REC_LAYER";
}

bool is_context_value(std::string_view name) {
    return std::find(kContextValues.begin(), kContextValues.end(), name) != kContextValues.end();
}

std::optional<Value>* EvalContext::slot(std::string_view name) {
    return name == kContextValues[0] ? &micro_factor : name == kContextValues[1] ? &dropless_tok_factor : nullptr;
}

const std::optional<Value>* EvalContext::slot(std::string_view name) const {
    return const_cast<EvalContext*>(this)->slot(name);
}

Value EvalContext::value(std::string_view name) const {
    const std::optional<Value>* held = slot(name);
    if (held == nullptr || !held->has_value())
        throw EvalError(ErrorKind::MissingField, "the evaluation context has no " + in_quotes(name));
    return **held;
}

const SwitchMap& effective_switches(const EvalContext& context, const SwitchMap& layer_own) {
    return context.switches ? *context.switches : layer_own;
}

// ---- the JSON document ---------------------------------------------------------

namespace {

// Reads one document of either JSON flavour; `where` prefixes every message.
template <class Json>
class DocReader {
public:
    explicit DocReader(std::string_view source) : source_(source) {}

    LayerDoc read(const Json& doc) const {
        if (!doc.is_object()) fail("", "expected a JSON object, got " + kind_of(doc));
        LayerDoc out;
        for (const auto& [key, value] : doc.items()) {
            if (key == "fields") {
                out.fields = read_fields(value);
            } else if (key == "switches") {
                if (!value.is_null()) out.switches = read_switches(value, "switches");
            } else if (key == "context") {
                out.context = read_context(value);
            } else {
                fail("", "unknown key " + in_quotes(key) + " (expected fields, switches or context)");
            }
        }
        return out;
    }

private:
    std::string_view source_;

    [[noreturn]] void fail(std::string_view path, const std::string& message) const {
        std::string text(source_);
        text += ": ";
        if (!path.empty()) {
            text += path;
            text += ": ";
        }
        throw LayerDocError(text + message);
    }

    static std::string kind_of(const Json& j) {
        switch (j.type()) {
        case nlohmann::json::value_t::null: return "null";
        case nlohmann::json::value_t::boolean: return "a bool";
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float: return "a number";
        case nlohmann::json::value_t::string: return "a string";
        case nlohmann::json::value_t::array: return "an array";
        case nlohmann::json::value_t::object: return "an object";
        default: return "binary data";
        }
    }

    // A JSON number as a Value: integers stay ints (int64), anything with a
    // fraction or exponent is a float (nlohmann parses as Python's json does).
    std::optional<Value> number_of(const Json& j, std::string_view path) const {
        if (j.is_number_unsigned()) {
            const auto u = j.template get<std::uint64_t>();
            if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                fail(path, "integer " + j.dump() + " does not fit in 64 bits");
            return Value::integer(static_cast<std::int64_t>(u));
        }
        if (j.is_number_integer()) return Value::integer(j.template get<std::int64_t>());
        if (j.is_number_float()) return Value::real(j.template get<double>());
        return std::nullopt;
    }

    LayerConfig read_fields(const Json& j) const {
        if (!j.is_object()) fail("fields", "expected an object, got " + kind_of(j));
        LayerConfig fields;
        for (const auto& [name, value] : j.items()) {
            const std::string path = "fields." + name;
            if (name.empty()) fail("fields", "a field has an empty name");
            if (value.is_null()) {
                fields.set(name, std::monostate{});
            } else if (value.is_boolean()) {
                fields.set(name, Value::boolean(value.template get<bool>()));
            } else if (value.is_string()) {
                fields.set(name, value.template get<std::string>());
            } else if (const auto number = number_of(value, path)) {
                fields.set(name, *number);
            } else {
                fail(path, "expected a number, a bool, a string or null, got " + kind_of(value));
            }
        }
        return fields;
    }

    // Switch values are 0/1 or false/true, kept as int 0/1 (the reference's
    // integer OR in rec_coeff would misbehave on anything else).
    SwitchMap read_switches(const Json& j, const std::string& where) const {
        if (!j.is_object()) fail(where, "expected an object, got " + kind_of(j));
        SwitchMap switches;
        for (const auto& [name, value] : j.items()) {
            const std::string path = where + "." + name;
            int keep = -1;
            if (value.is_boolean()) {
                keep = value.template get<bool>() ? 1 : 0;
            } else if (value.is_number_integer() || value.is_number_unsigned()) {
                // Compare as JSON so that huge or negative values are refused too.
                if (value == Json(0)) keep = 0;
                if (value == Json(1)) keep = 1;
            }
            if (keep < 0) {
                const std::string got = value.is_structured() ? kind_of(value) : value.dump();
                fail(path, "expected 0, 1, true or false, got " + got);
            }
            switches.insert_or_assign(name, Value::integer(keep));
        }
        return switches;
    }

    // micro_factor / dropless_tok_factor: a number, or null for "the context
    // has none" (reading it then raises, as the reference's getattr does).
    std::optional<Value> read_factor(const Json& j, const std::string& path) const {
        if (j.is_null()) return std::nullopt;
        if (const auto number = number_of(j, path)) return number;
        fail(path, "expected a number, got " + kind_of(j));
    }

    EvalContext read_context(const Json& j) const {
        if (!j.is_object()) fail("context", "expected an object, got " + kind_of(j));
        EvalContext context;
        for (const auto& [key, value] : j.items()) {
            const std::string path = "context." + key;
            if (key == "micro_factor") {
                context.micro_factor = read_factor(value, path);
            } else if (key == "dropless_tok_factor") {
                context.dropless_tok_factor = read_factor(value, path);
            } else if (key == "node") {
                if (!value.is_string()) fail(path, "expected a string, got " + kind_of(value));
                const auto text = value.template get<std::string>();
                const auto kind = parse_node_kind(text);
                if (!kind)
                    fail(path, "unknown layer kind " + in_quotes(text) +
                                   " (expected NOT_REC_LAYER, SEL_REC_LAYER or FULL_REC_LAYER)");
                context.node = *kind;
            } else if (key == "switches") {
                if (!value.is_null()) context.switches = read_switches(value, path);
            } else {
                fail("context", "unknown key " + in_quotes(key) +
                                    " (expected micro_factor, dropless_tok_factor, node or switches)");
            }
        }
        return context;
    }
};

// Where `literal` first stands as a number token, outside any string; npos if nowhere.
std::size_t number_token_at(std::string_view text, std::string_view literal) {
    if (literal.empty()) return std::string_view::npos;
    const auto number_char = [](char c) { return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'; };
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (text.compare(i, literal.size(), literal) == 0 && (i == 0 || !number_char(text[i - 1])) &&
                   (i + literal.size() == text.size() || !number_char(text[i + literal.size()]))) {
            return i;
        }
    }
    return std::string_view::npos;
}

}  // namespace

Value full_recompute_input(const LayerDoc& layer, const Value& shard) {
    const LayerConfig& f = layer.fields;
    return layer.context.value("micro_factor") * f.number("bytes_compute") * f.number("s") * f.number("b") *
           f.number("h") / shard;
}

LayerDoc parse_layer_doc(const nlohmann::json& doc, std::string_view source_name) {
    return DocReader<nlohmann::json>(source_name).read(doc);
}

LayerDoc parse_layer_doc(const nlohmann::ordered_json& doc, std::string_view source_name) {
    return DocReader<nlohmann::ordered_json>(source_name).read(doc);
}

LayerDoc parse_layer_doc_text(std::string_view text, std::string_view source_name) {
    if (auto doc = read_layer_doc_fast(text)) return std::move(*doc);
    return parse_layer_doc_text_tree(text, source_name);
}

LayerDoc parse_layer_doc_text_tree(std::string_view text, std::string_view source_name) {
    RepeatedKeys repeated(text);
    if (const auto at = oversized_json_integer(text)) {
        const auto [line, col] = line_col(text, *at + 1);
        const std::size_t end = text.find_first_not_of("-0123456789", *at + 1);
        throw LayerDocError(std::string(source_name) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                            ": integer " + std::string(text.substr(*at, end - *at)) + " does not fit in 64 bits");
    }
    nlohmann::ordered_json doc;
    try {
        doc = nlohmann::ordered_json::parse(text.begin(), text.end(), std::ref(repeated));
    } catch (const nlohmann::json::parse_error& e) {
        throw LayerDocError(json_syntax_error(source_name, text, e));
    } catch (const nlohmann::json::out_of_range& e) {
        // A float literal beyond a double's range ("1e400"): nlohmann names the
        // literal but not its place; find it, so the message says where.
        std::string what = e.what();
        const std::size_t quote = what.find('\'');
        const std::string literal = quote == std::string::npos ? "" : what.substr(quote + 1, what.rfind('\'') - quote - 1);
        const std::size_t at = number_token_at(text, literal);
        const auto [line, col] = line_col(text, at == std::string_view::npos ? 0 : at + 1);
        throw LayerDocError(std::string(source_name) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                            ": number " + literal + " is beyond a float's range");
    }
    if (const auto& key = repeated.first()) {
        const auto [line, col] = line_col(text, key->second == std::string_view::npos ? 0 : key->second + 1);
        throw LayerDocError(std::string(source_name) + ":" + std::to_string(line) + ":" + std::to_string(col) +
                            ": duplicate key " + in_quotes(key->first));
    }
    return parse_layer_doc(doc, source_name);
}

}  // namespace oprec
