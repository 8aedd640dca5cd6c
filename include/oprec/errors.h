// What can go wrong, as types: records that do not load (every diagnostic,
// each with its file:line:col), a layer document or edit that cannot be
// read, and a pricing that raises as the reference's Python would.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace oprec {

struct Position {
    std::string file;  // as the records were named; empty when unknown
    std::uint32_t line = 0;  // 1-based; 0 when unknown
    std::uint32_t col = 0;   // 1-based
    std::uint32_t end_line = 0, end_col = 0;  // one past the span's end
};

// One diagnostic of a load (codes are documented in docs/diagnostics.md).
struct Problem {
    enum class Severity : std::uint8_t { Error, Warning, Note };
    Severity severity = Severity::Error;
    std::string code;      // "E0101"
    std::string message;
    Position where;
    std::string rendered;  // the compiler-style text: header, source line, carets, notes
    std::string rendered_color;  // the same with a terminal's colours
};

// Records that do not load or check. what() is the rendered diagnostics.
class RecordsError : public std::runtime_error {
public:
    RecordsError(const std::string& rendered, std::vector<Problem> problems,
                 std::vector<std::filesystem::path> files = {})
        : std::runtime_error(rendered), problems_(std::move(problems)), files_(std::move(files)) {}
    const std::vector<Problem>& problems() const { return problems_; }
    // The files the load read before it failed: what to watch for a fix.
    const std::vector<std::filesystem::path>& files() const { return files_; }

private:
    std::vector<Problem> problems_;
    std::vector<std::filesystem::path> files_;
};

// A layer document, field edit or name that cannot be taken; what() says
// where ("layer.json:3:12: ...") and what.
class LayerError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// A pricing that raises, as the reference's Python would raise.
class PricingError : public std::runtime_error {
public:
    enum class Kind : std::uint8_t {
        DivisionByZero,  // ZeroDivisionError
        UnboundName,     // NameError: no field, default or context value
        MissingField,    // AttributeError: the layer does not state a field a formula reads
        Overflow,        // an int past 64 bits, a float past its range
        TypeError,       // arithmetic on None, a string, ...
        UnknownSlot,     // no such slot in the records
        UnknownOp,       // no such op or part
    };
    // `reason`: the message without its place and context; empty: `message`.
    PricingError(Kind kind, std::string kind_name, const std::string& message, Position where, std::string reason = {})
        : std::runtime_error(message), kind_(kind), kind_name_(std::move(kind_name)), where_(std::move(where)),
          reason_(reason.empty() ? message : std::move(reason)) {}
    Kind kind() const { return kind_; }
    const std::string& kind_name() const { return kind_name_; }  // "division-by-zero", ...
    // The formula's place in the records, where the error arose there.
    const Position& where() const { return where_; }
    // What went wrong alone ("division by zero"): what() is it with its place
    // and context before it ("op_records.rec:93:67: in slot `routed`: ...").
    const std::string& reason() const { return reason_; }

private:
    Kind kind_;
    std::string kind_name_;
    Position where_;
    std::string reason_;
};

}  // namespace oprec
