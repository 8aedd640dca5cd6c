// The public API's Number and the engine's Value, one to the other: the
// API's own conversion, and the front ends' that price through the API
// (oprec/number.h) and print or sum with value/ (Python's repr and
// arithmetic, JSON as json.dumps writes it).
#pragma once

#include "oprec/number.h"
#include "value/value.h"

namespace oprec {

inline Value value_of(const Number& n) {
    switch (n.kind) {
    case Number::Kind::Bool: return Value::boolean(n.i != 0);
    case Number::Kind::Int: return Value::integer(n.i);
    case Number::Kind::Float: return Value::real(n.f);
    }
    return Value::integer(n.i);
}

inline Number number_of(const Value& v) {
    if (v.is_bool()) return Number::boolean(v.b);
    if (v.is_float()) return Number::real(v.f);
    return Number::integer(v.i);
}

}  // namespace oprec
