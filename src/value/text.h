// Values from text and JSON, and to JSON: how numbers cross the edges of oprec
// (command-line --set, JSON documents and results).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "value/value.h"

namespace oprec {

// "42" int, "2.5" / "1e3" / "inf" / "-inf" / "nan" float, "true"/"True"/"false"/"False" bool.
// Throws EvalError(Overflow) for an integer beyond 64 bits.
std::optional<Value> parse_value_text(std::string_view text);

// A JSON integer is an int, a number with a fraction or exponent a float,
// true/false a bool, "inf"/"-inf"/"nan" the non-finite floats. Throws
// EvalError(Overflow) for an integer beyond 64 bits; nullopt for anything else.
std::optional<Value> value_from_json(const nlohmann::json& j);
std::optional<Value> value_from_json(const nlohmann::ordered_json& j);

// Where the first integer literal of a JSON text lies that is beyond 64 bits
// (above 2^64 - 1, below -2^63): JSON readers make it a float, rounding
// silently, where Python keeps it exact; oprec refuses it instead. nullopt: none.
std::optional<std::size_t> oversized_json_integer(std::string_view text);

// The 1-based line and column of the character before `byte` (nlohmann's
// place: the 1-based byte of the last character read; size+1 at the end).
std::pair<std::size_t, std::size_t> line_col(std::string_view text, std::size_t byte);

// The byte where the nth key (1-based, in the order a parser meets them) of
// a JSON text starts: a string followed by a colon; npos if none. (nlohmann
// reports a key's text but not its place.)
std::size_t json_key_at(std::string_view text, std::size_t n);

// JSON lets an object repeat a key and nlohmann keeps the last silently; in
// a hand-written document that is a slip worth reporting. A parser callback
// (`Json::parse(text, std::ref(keys))`) that notes the first key an object
// repeats, and the byte in `text` where it is repeated.
class RepeatedKeys {
public:
    explicit RepeatedKeys(std::string_view text) : text_(text) {}
    template <class Json>
    bool operator()(int, nlohmann::detail::parse_event_t event, Json& parsed) {
        using Event = nlohmann::detail::parse_event_t;
        if (event == Event::object_start) {
            open_.emplace_back();
        } else if (event == Event::object_end) {
            if (!open_.empty()) open_.pop_back();
        } else if (event == Event::key && !open_.empty()) {
            ++keys_;
            if (!first_ && !open_.back().insert(parsed.template get<std::string>()).second)
                first_.emplace(parsed.template get<std::string>(), json_key_at(text_, keys_));
        }
        return true;
    }
    const std::optional<std::pair<std::string, std::size_t>>& first() const { return first_; }

private:
    std::string_view text_;
    std::vector<std::set<std::string>> open_;  // each open object's keys
    std::size_t keys_ = 0;
    std::optional<std::pair<std::string, std::size_t>> first_;
};

// The byte offset where a JSON text first nests arrays and objects deeper
// than `limit` (counted outside strings, without parsing), else none: for a
// document that is copied or dumped, which nlohmann does by recursion.
std::optional<std::size_t> json_nested_past(std::string_view text, std::size_t limit);

// A JSON syntax error as people read it: "SOURCE:LINE:COL: invalid JSON:
// unexpected '}'; ...", from nlohmann's parse_error (whose byte is the
// 1-based place of the last character read) on `text`.
std::string json_syntax_error(std::string_view source, std::string_view text, const nlohmann::json::parse_error& e);

// Ints as integers, floats as numbers in shortest round-trip form (always
// with a fraction or exponent), non-finite floats as "inf", "-inf", "nan".
nlohmann::ordered_json to_json(Value v);

}  // namespace oprec
