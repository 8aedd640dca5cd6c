// The fast path of parse_layer_doc_text: the document read in one pass
// straight into a LayerDoc, with no JSON tree in between. The reader takes
// the plain JSON a layer document is (objects, plain strings, numbers,
// true/false/null) and accepts only what the tree reader accepts, giving the
// same LayerDoc; anything else (bad JSON, an escape or a non-ASCII byte in a
// string, a duplicate key, a value of the wrong kind) it declines, and the
// tree reader (nlohmann's) reads the text again to say where and what. A file
// of layers (`oprec eval --jsonl`) spent most of its time reading them.
#include "model/layer_doc_fast.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

namespace oprec {

namespace {

// What the document says, event by event (the shape of nlohmann's SAX
// interface), into a LayerDoc: false declines.
class DocEvents {
public:
    using string_t = std::string;

    LayerDoc doc;
    // Room made for a document's fields at once: layer documents state 36
    // to 49 (the bundled and golden ones).
    static constexpr std::size_t kUsualFields = 64;

    // Where the next event lands.
    enum class At : std::uint8_t {
        Start,            // before the document
        Top,              // in the document's object, expecting a key
        TopValue,         // after a top-level key
        Fields,           // in "fields", expecting a key
        Field,            // a field's value
        Switches,         // in a switches object, expecting a key
        Switch,           // a switch's value
        Context,          // in "context", expecting a key
        ContextValue,     // a context key's value
        Done,             // after the document
    };

    bool null() {
        switch (at_) {
        case At::Field: return field(std::monostate{});
        case At::TopValue:
            if (top_key_ != TopKey::Switches) return false;
            at_ = At::Top;  // "switches": null states none
            return true;
        case At::ContextValue:
            if (context_key_ == ContextKey::Switches) {
                at_ = At::Context;
                return true;
            }
            if (context_key_ == ContextKey::Node) return false;
            return factor(std::nullopt);
        default: return false;
        }
    }
    bool boolean(bool b) {
        if (at_ == At::Field) return field(Value::boolean(b));
        if (at_ == At::Switch) return switch_value(b ? 1 : 0);
        return false;
    }
    bool number_integer(std::int64_t i) { return number(Value::integer(i)); }
    bool number_float(double f) {
        if (at_ == At::Switch) return false;
        return number(Value::real(f));
    }
    bool string(string_t& s) {
        if (at_ == At::Field) return field(std::move(s));
        if (at_ == At::ContextValue && context_key_ == ContextKey::Node) {
            const auto kind = parse_node_kind(s);
            if (!kind) return false;
            doc.context.node = *kind;
            at_ = At::Context;
            return true;
        }
        return false;
    }

    bool start_object() {
        switch (at_) {
        case At::Start: at_ = At::Top; return true;
        case At::TopValue:
            switch (top_key_) {
            case TopKey::Fields:
                doc.fields.reserve(kUsualFields);
                at_ = At::Fields;
                return true;
            case TopKey::Switches: switches_ = &doc.switches; at_ = At::Switches; return true;
            case TopKey::Context: at_ = At::Context; return true;
            }
            return false;
        case At::ContextValue:
            if (context_key_ != ContextKey::Switches) return false;
            switches_ = &doc.context.switches.emplace();
            at_ = At::Switches;
            return true;
        default: return false;
        }
    }
    bool end_object() {
        switch (at_) {
        case At::Top: at_ = At::Done; return true;
        case At::Fields:
        case At::Context: at_ = At::Top; return true;
        case At::Switches: at_ = switches_ == &doc.switches ? At::Top : At::Context; return true;
        default: return false;
        }
    }
    bool key(string_t& k) {
        switch (at_) {
        case At::Top: return top_key(k);
        case At::Fields:
            if (k.empty()) return false;
            field_name_ = std::move(k);  // a duplicate is refused when its value comes
            at_ = At::Field;
            return true;
        case At::Switches:
            if (switches_->count(k) != 0) return false;
            field_name_ = std::move(k);
            at_ = At::Switch;
            return true;
        case At::Context: return context_key(k);
        default: return false;
        }
    }

private:
    enum class TopKey : std::uint8_t { Fields, Switches, Context };
    enum class ContextKey : std::uint8_t { MicroFactor, DroplessTokFactor, Node, Switches };

    At at_ = At::Start;
    TopKey top_key_ = TopKey::Fields;
    ContextKey context_key_ = ContextKey::Node;
    unsigned top_seen_ = 0, context_seen_ = 0;  // bit per key: a second one is a duplicate
    std::string field_name_;
    SwitchMap* switches_ = nullptr;

    static bool first_time(unsigned& seen, unsigned bit) {
        if (seen & bit) return false;
        seen |= bit;
        return true;
    }
    bool top_key(const string_t& k) {
        if (k == "fields") top_key_ = TopKey::Fields;
        else if (k == "switches") top_key_ = TopKey::Switches;
        else if (k == "context") top_key_ = TopKey::Context;
        else return false;
        if (!first_time(top_seen_, 1u << static_cast<unsigned>(top_key_))) return false;
        at_ = At::TopValue;
        return true;
    }
    bool context_key(const string_t& k) {
        if (k == "micro_factor") context_key_ = ContextKey::MicroFactor;
        else if (k == "dropless_tok_factor") context_key_ = ContextKey::DroplessTokFactor;
        else if (k == "node") context_key_ = ContextKey::Node;
        else if (k == "switches") context_key_ = ContextKey::Switches;
        else return false;
        if (!first_time(context_seen_, 1u << static_cast<unsigned>(context_key_))) return false;
        at_ = At::ContextValue;
        return true;
    }
    bool field(FieldValue value) {
        if (!doc.fields.add(std::move(field_name_), std::move(value))) return false;  // stated twice
        at_ = At::Fields;
        return true;
    }
    bool switch_value(int keep) {
        switches_->emplace(std::move(field_name_), Value::integer(keep));
        at_ = At::Switches;
        return true;
    }
    bool factor(std::optional<Value> v) {
        (context_key_ == ContextKey::MicroFactor ? doc.context.micro_factor : doc.context.dropless_tok_factor) = v;
        at_ = At::Context;
        return true;
    }
    bool number(Value v) {
        switch (at_) {
        case At::Field: return field(v);
        case At::Switch:
            if (v.i != 0 && v.i != 1) return false;
            return switch_value(static_cast<int>(v.i));
        case At::ContextValue:
            if (context_key_ != ContextKey::MicroFactor && context_key_ != ContextKey::DroplessTokFactor) return false;
            return factor(v);
        default: return false;
        }
    }
};

// The JSON text, in one pass: a value at a time, declining (false) at the
// first thing outside the plain subset or refused by the events.
class Scanner {
public:
    Scanner(std::string_view text, DocEvents& events) : p_(text.data()), end_(text.data() + text.size()), events_(events) {}

    bool document() {
        if (!value(0)) return false;
        skip_space();
        return p_ == end_;
    }

private:
    const char* p_;
    const char* end_;
    DocEvents& events_;
    std::string text_;

    void skip_space() {
        while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\t' || *p_ == '\r')) ++p_;
    }
    bool literal(std::string_view word) {
        if (static_cast<std::size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
        p_ += word.size();
        return true;
    }

    bool value(int depth) {
        skip_space();
        if (p_ == end_) return false;
        switch (*p_) {
        case '{': return object(depth);
        case '"': return string() && events_.string(text_);
        case 't': return literal("true") && events_.boolean(true);
        case 'f': return literal("false") && events_.boolean(false);
        case 'n': return literal("null") && events_.null();
        default: return number();
        }
    }

    bool object(int depth) {
        if (depth > 3 || !events_.start_object()) return false;  // a layer document nests three deep
        ++p_;
        skip_space();
        if (p_ != end_ && *p_ == '}') {
            ++p_;
            return events_.end_object();
        }
        for (;;) {
            skip_space();
            if (p_ == end_ || *p_ != '"' || !string() || !events_.key(text_)) return false;
            skip_space();
            if (p_ == end_ || *p_ != ':') return false;
            ++p_;
            if (!value(depth + 1)) return false;
            skip_space();
            if (p_ == end_) return false;
            if (*p_ == '}') {
                ++p_;
                return events_.end_object();
            }
            if (*p_ != ',') return false;
            ++p_;
        }
    }

    // A string with no escape, control character or non-ASCII byte (the
    // tree reader checks those, and UTF-8) into text_.
    bool string() {
        const char* start = ++p_;
        while (p_ != end_ && *p_ != '"') {
            const auto c = static_cast<unsigned char>(*p_);
            if (c == '\\' || c < 0x20 || c >= 0x80) return false;
            ++p_;
        }
        if (p_ == end_) return false;
        text_.assign(start, p_);
        ++p_;
        return true;
    }

    static bool digit(char c) { return c >= '0' && c <= '9'; }

    // JSON's number grammar exactly: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    // An integer is an int64 (beyond, declined: the tree reader names it);
    // anything with a fraction or exponent a float, correctly rounded as
    // strtod rounds it.
    bool number() {
        const char* start = p_;
        if (p_ != end_ && *p_ == '-') ++p_;
        if (p_ == end_ || !digit(*p_)) return false;
        if (*p_ == '0') ++p_;
        else while (p_ != end_ && digit(*p_)) ++p_;
        bool integer = true;
        if (p_ != end_ && *p_ == '.') {
            integer = false;
            ++p_;
            if (p_ == end_ || !digit(*p_)) return false;
            while (p_ != end_ && digit(*p_)) ++p_;
        }
        if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
            integer = false;
            ++p_;
            if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
            if (p_ == end_ || !digit(*p_)) return false;
            while (p_ != end_ && digit(*p_)) ++p_;
        }
        if (integer) {
            std::int64_t i = 0;
            const auto [ptr, ec] = std::from_chars(start, p_, i);
            return ec == std::errc() && ptr == p_ && events_.number_integer(i);
        }
        double f = 0;
        const auto [ptr, ec] = std::from_chars(start, p_, f);
        return ec == std::errc() && ptr == p_ && std::isfinite(f) && events_.number_float(f);
    }
};

}  // namespace

std::optional<LayerDoc> read_layer_doc_fast(std::string_view text) {
    DocEvents events;
    if (!Scanner(text, events).document()) return std::nullopt;
    return std::move(events.doc);
}

}  // namespace oprec
