// Numbers crossing oprec's edges: an integer no 64-bit int holds is refused,
// never rounded to a float behind the user's back (Python would keep it exact).
#include <catch2/catch.hpp>

#include "model/layer.h"
#include "value/byte_size.h"
#include "value/format.h"
#include "value/text.h"

using namespace oprec;

TEST_CASE("value text: integers beyond 64 bits are refused, not rounded", "[value]") {
    CHECK(parse_value_text("9223372036854775807")->as_int() == 9223372036854775807);
    CHECK_THROWS_AS(parse_value_text("9223372036854775808"), EvalError);
    CHECK_THROWS_AS(parse_value_text("-99999999999999999999"), EvalError);
    CHECK(parse_value_text("1e30")->is_float());  // a float is a float
}

TEST_CASE("value text: the first JSON integer beyond 64 bits, outside strings", "[value]") {
    CHECK(oversized_json_integer(R"({"a": 1, "b": -9223372036854775808, "c": 2.5e300, "d": 18446744073709551615})") == std::nullopt);
    CHECK(oversized_json_integer(R"({"a": "123456789012345678901234567890", "b": 1})") == std::nullopt);
    CHECK(oversized_json_integer(R"({"a": "\"", "b": 18446744073709551616})") == std::size_t{17});
    CHECK(oversized_json_integer(R"([1.0, 123456789012345678901234567890.5, -9223372036854775809])") == std::size_t{40});
}

TEST_CASE("layer documents: an integer beyond 64 bits is an error at its place", "[value]") {
    try {
        parse_layer_doc_text("{\"fields\": {\n  \"s\": 100000000000000000000000}}", "big.json");
        FAIL("accepted");
    } catch (const LayerDocError& e) {
        CHECK(std::string(e.what()) == "big.json:2:8: integer 100000000000000000000000 does not fit in 64 bits");
    }
}

TEST_CASE("byte sizes: units, underscores and the exponent form the messages offer", "[value]") {
    CHECK(parse_byte_size("80GiB") == 80.0 * 1073741824.0);
    CHECK(parse_byte_size("141GB") == 141e9);
    CHECK(parse_byte_size("1_000") == 1000.0);
    CHECK(parse_byte_size("1e11") == 1e11);
    CHECK(parse_byte_size("1.5E9") == 1.5e9);
    CHECK(parse_byte_size("8e+10 b") == 8e10);
    CHECK(parse_byte_size("2e-3 KB") == 2.0);
    CHECK(parse_byte_size("1e3GiB") == 1e3 * 1073741824.0);
    CHECK_FALSE(parse_byte_size("1e"));      // no exponent digits: `e` is no unit
    CHECK_FALSE(parse_byte_size("e9"));
    CHECK_FALSE(parse_byte_size("1e400"));   // past a double
    CHECK_FALSE(parse_byte_size("lots"));
    CHECK_FALSE(parse_byte_size("_80GiB"));  // an underscore groups digits, between two of them
    CHECK_FALSE(parse_byte_size("8__0GiB"));
    CHECK_FALSE(parse_byte_size("80_GiB"));
    // A device's memory or a budget: a bare 80 was taken as 80 bytes, and no strategy fit.
    CHECK(device_size_problem(80) == "a size with its unit: a bare number counts bytes, and a device's memory is "
                                     "more than a MiB");
    CHECK(device_size_problem(0) == "a size above 0");
    CHECK_FALSE(device_size_problem(*parse_byte_size("80GiB")));
}

TEST_CASE("str_repr: Python's repr of a str, so a user's text never reaches a terminal raw", "[value]") {
    CHECK(str_repr("ring") == "'ring'");
    CHECK(str_repr("it's") == "\"it's\"");
    CHECK(str_repr("both ' and \"") == "'both \\' and \"'");
    CHECK(str_repr("a\\b") == "'a\\\\b'");
    CHECK(str_repr("a'b\nc\x1b[31mRED") == "\"a'b\\nc\\x1b[31mRED\"");  // the escape that coloured the terminal
    CHECK(str_repr("\t\r\x7f") == "'\\t\\r\\x7f'");
    CHECK(str_repr("\xc2\x9b" "2J") == "'\\x9b2J'");  // U+009B, the 8-bit CSI
    CHECK(str_repr("h\xc3\xa9") == "'h\xc3\xa9'");   // printable UTF-8 as it is, as Python keeps it
    // Python's repr('a\u202eRLO\xa0x\u200b'): the bidi override, a no-break and a zero-width space escaped.
    CHECK(str_repr("a\xe2\x80\xae" "RLO\xc2\xa0x\xe2\x80\x8b") == "'a\\u202eRLO\\xa0x\\u200b'");
}

TEST_CASE("quoted_name: a document's name in backticks, escaped where it holds a control character", "[value]") {
    CHECK(quoted_name("epp") == "`epp`");
    CHECK(quoted_name("h\x1b[31mX") == "'h\\x1b[31mX'");
    CHECK(quoted_name("a\nb") == "'a\\nb'");
    CHECK(quoted_name("h\xc2\xb5") == "`h\xc2\xb5`");  // µ is printable: U+00B5 is no control
    CHECK(quoted_name("a\xe2\x80\xae" "b") == "'a\\u202eb'");
}
