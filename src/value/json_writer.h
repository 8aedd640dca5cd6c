// JSON written straight to text: what a report needs (objects of strings and
// values) without building a document first. Numbers are written as
// Python's json.dumps writes them (value/format.h: ints as integers, floats
// in Python's repr, non-finite floats as the strings "inf", "-inf", "nan").
// Layout as nlohmann's dump(indent): one line when indent < 0, else one
// member a line, `"key": value`, `{}` for an empty object.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "value/value.h"

namespace oprec {

class JsonWriter {
public:
    explicit JsonWriter(int indent = -1) : indent_(indent) { out_.reserve(4096); }

    // An object or an array as a value (at the top, after key(), or in an array).
    void begin_object();
    void end_object();
    void begin_array();
    void end_array();
    // The next member's key (it writes the comma before it); its value follows.
    void key(std::string_view name);

    void value(Value v);
    void string(std::string_view text);
    void boolean(bool b);
    void null();
    // A JSON document as a value, its numbers written as value() writes them.
    void json(const nlohmann::ordered_json& j);

    // The text written so far (the whole document once the last object ends).
    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void newline(std::size_t depth);
    void element();  // before a value in an array: its comma and line
    void open(char bracket, bool array);
    void close(char bracket);

    std::string out_;
    int indent_;
    // Per open object or array: whether a member has been written (a comma
    // comes next), and whether it is an array (its values have no keys).
    struct Open {
        bool has_member;
        bool array;
    };
    std::vector<Open> open_;
};

// A JSON document as text in nlohmann's layout (dump(indent)) with numbers
// as Python's json.dumps writes them: what every command prints, so a
// value's digits are the same whichever command shows it.
std::string json_text(const nlohmann::ordered_json& j, int indent = -1);

// `text` as a JSON string literal (quotes included), escaped as nlohmann does.
void append_json_string(std::string& out, std::string_view text);

}  // namespace oprec
