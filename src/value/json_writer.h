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

#include "value/value.h"

namespace oprec {

class JsonWriter {
public:
    explicit JsonWriter(int indent = -1) : indent_(indent) { out_.reserve(4096); }

    // An object as a value (at the top, or after key()).
    void begin_object();
    void end_object();
    // The next member's key (it writes the comma before it); its value follows.
    void key(std::string_view name);

    void value(Value v);
    void string(std::string_view text);
    void boolean(bool b);
    void null();

    // The text written so far (the whole document once the last object ends).
    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void newline(std::size_t depth);

    std::string out_;
    int indent_;
    // Per open object: whether a member has been written (a comma comes next).
    std::vector<bool> has_member_;
};

// `text` as a JSON string literal (quotes included), escaped as nlohmann does.
void append_json_string(std::string& out, std::string_view text);

}  // namespace oprec
