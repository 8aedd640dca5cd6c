// JsonWriter: nlohmann's layout to the character (compact and indented),
// and numbers as Python's json.dumps writes them.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "value/json_writer.h"

using namespace oprec;

namespace {

std::string written(int indent) {
    JsonWriter w(indent);
    w.begin_object();
    w.key("slots");
    w.begin_object();
    w.key("qkv");
    w.begin_object();
    w.key("part");
    w.string("attention \"q\"\n\t\x01\\ é");
    w.key("held");
    w.boolean(true);
    w.key("bytes");
    w.value(Value::integer(-42));
    w.end_object();
    w.key("none");
    w.begin_object();
    w.end_object();
    w.end_object();
    w.key("nothing");
    w.null();
    w.end_object();
    return w.take();
}

nlohmann::ordered_json same() {
    nlohmann::ordered_json j;
    j["slots"]["qkv"] = {{"part", "attention \"q\"\n\t\x01\\ é"}, {"held", true}, {"bytes", -42}};
    j["slots"]["none"] = nlohmann::ordered_json::object();
    j["nothing"] = nullptr;
    return j;
}

std::string number(Value v) {
    JsonWriter w;
    w.value(v);
    return w.take();
}

}  // namespace

TEST_CASE("JsonWriter lays out as nlohmann's dump", "[value][json]") {
    CHECK(written(-1) == same().dump());
    CHECK(written(2) == same().dump(2));
    CHECK(written(4) == same().dump(4));
}

TEST_CASE("JsonWriter writes numbers as Python's json.dumps", "[value][json]") {
    CHECK(number(Value::real(75497472.0)) == "75497472.0");
    CHECK(number(Value::real(1e16)) == "1e+16");
    CHECK(number(Value::real(1e15)) == "1000000000000000.0");
    CHECK(number(Value::real(0.1)) == "0.1");
    CHECK(number(Value::real(1e-5)) == "1e-05");
    CHECK(number(Value::real(-8.48162069870304e+18)) == "-8.48162069870304e+18");  // shortest, where nlohmann writes 16 digits
    CHECK(number(Value::real(std::numeric_limits<double>::infinity())) == "\"inf\"");
    CHECK(number(Value::integer(std::numeric_limits<std::int64_t>::min())) == "-9223372036854775808");
    CHECK(number(Value::boolean(false)) == "false");
}

TEST_CASE("json_text lays out any document as nlohmann's dump, floats aside", "[value][json]") {
    const auto j = nlohmann::ordered_json::parse(
        R"({"a": [1, [], {}, [2, {"b": null}], "x"], "c": {"d": [true, false]}, "e": 18446744073709551615, "f": -3})");
    for (const int indent : {-1, 0, 2, 4}) CHECK(json_text(j, indent) == j.dump(indent));
    CHECK(json_text(nlohmann::ordered_json::parse("[2073600000000000.0, 0.5]")) == "[2073600000000000.0,0.5]");
}

TEST_CASE("json writer: well-formed UTF-8 passes, a byte that is not becomes U+FFFD", "[json]") {
    const auto written = [](std::string_view text) {
        std::string out;
        append_json_string(out, text);
        return out;
    };
    CHECK(written("x\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == "\"x\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");  // é € 😀
    CHECK(written("\xff\xfe") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");
    CHECK(written("a\xc3") == "\"a\xef\xbf\xbd\"");                 // cut short
    CHECK(written("\xed\xa0\x80") == "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");  // a surrogate
    CHECK(written("\xc0\xaf") == "\"\xef\xbf\xbd\xef\xbf\xbd\"");    // overlong
    for (const std::string_view bad : {"\xff", "a\xc3", "\xed\xa0\x80 \"q\""})
        CHECK_NOTHROW(nlohmann::json::parse(written(bad)));
}
