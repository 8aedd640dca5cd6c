#include "value/value.h"

namespace oprec {

std::string missing_field_message(std::string_view name) {
    return "the layer config has no field '" + std::string(name) + "'";
}

const char* error_kind_name(ErrorKind kind) {
    switch (kind) {
    case ErrorKind::DivisionByZero: return "division-by-zero";
    case ErrorKind::UnboundName: return "unbound-name";
    case ErrorKind::MissingField: return "missing-field";
    case ErrorKind::Overflow: return "overflow";
    case ErrorKind::TypeError: return "type-error";
    case ErrorKind::UnknownSlot: return "unknown-slot";
    case ErrorKind::UnknownOp: return "unknown-op";
    }
    return "unknown";
}

const char* type_name(ValueType t) {
    switch (t) {
    case ValueType::Bool: return "bool";
    case ValueType::Int: return "int";
    case ValueType::Float: return "float";
    }
    return "unknown";
}

}  // namespace oprec
