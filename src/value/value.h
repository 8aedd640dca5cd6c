// A value of the records' language: Python's bool, int (64-bit here) or float.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "diag/source.h"

namespace oprec {

// A full word, not a byte: a Value is then two words with no padding, which
// the interpreter's accumulator keeps in two registers (with a byte, GCC
// merges the byte into the padding through the stack at every instruction).
enum class ValueType : std::uint64_t { Bool, Int, Float };

// A plain tagged value; cheap to copy, no allocation.
struct Value {
    ValueType type = ValueType::Int;
    union {
        bool b;
        std::int64_t i;
        double f;
    };

    constexpr Value() : i(0) {}
    static constexpr Value boolean(bool v) { Value x; x.type = ValueType::Bool; x.b = v; return x; }
    static constexpr Value integer(std::int64_t v) { Value x; x.type = ValueType::Int; x.i = v; return x; }
    static constexpr Value real(double v) { Value x; x.type = ValueType::Float; x.f = v; return x; }

    bool is_bool() const { return type == ValueType::Bool; }
    bool is_int() const { return type == ValueType::Int; }
    bool is_float() const { return type == ValueType::Float; }
    // Python's truth: zero (of any type, -0.0 too) is false, NaN is true.
    bool truthy() const {
        switch (type) {
        case ValueType::Bool: return b;
        case ValueType::Int: return i != 0;
        case ValueType::Float: return f != 0.0;
        }
        return false;
    }
    // The int a bool or int stands for (Python's bools are ints).
    std::int64_t as_int() const { return type == ValueType::Bool ? std::int64_t(b) : i; }
    // The double this value converts to, correctly rounded.
    double as_double() const {
        switch (type) {
        case ValueType::Bool: return b ? 1.0 : 0.0;
        case ValueType::Int: return static_cast<double>(i);
        case ValueType::Float: return f;
        }
        return 0.0;
    }
};

// The same value bit for bit: the same type and payload (-0.0 is not 0.0,
// a NaN is itself).
inline bool identical(const Value& a, const Value& b) {
    return a.type == b.type && (a.is_bool() ? a.b == b.b : a.i == b.i);
}

// The kinds of runtime error; each has a stable name (error_kind_name).
enum class ErrorKind : std::uint8_t {
    DivisionByZero,
    UnboundName,   // a name no binding, field, default or context value answers
    MissingField,  // a layer field the config does not hold (records evaluation)
    Overflow,
    TypeError,
    UnknownSlot,
    UnknownOp,
};

const char* error_kind_name(ErrorKind kind);  // "division-by-zero", ...
// What reading a layer field the config does not state raises (MissingField):
// "the layer config has no field 'h'".
std::string missing_field_message(std::string_view name);

// A runtime error of evaluation. The arithmetic throws it bare; the
// interpreter adds the span of the expression that failed, and the records
// what was being priced (a slot and entry), as it passes up.
class EvalError : public std::runtime_error {
public:
    EvalError(ErrorKind kind, const std::string& message)
        : std::runtime_error(message), kind_(kind) {}
    ErrorKind kind() const { return kind_; }
    const Span& span() const { return span_; }
    const std::string& context() const { return context_; }
    void locate(const Span& span) {
        if (!span_.known()) span_ = span;
    }
    void set_context(std::string context) {
        if (context_.empty()) context_ = std::move(context);
    }

private:
    ErrorKind kind_;
    Span span_;
    std::string context_;
};

const char* type_name(ValueType t);  // "bool", "int", "float"

}  // namespace oprec
