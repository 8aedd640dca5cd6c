// The API's exceptions as the package's (python/oprec/errors.py): each a
// subclass of the Python error the reference would raise, with the kind
// and the records' position as attributes.
#include <string>

#include "py_values.h"
#include "oprec/errors.h"

namespace oprec::py_module {

namespace {

const char* pricing_class(PricingError::Kind kind) {
    switch (kind) {
        case PricingError::Kind::DivisionByZero: return "DivisionByZero";
        case PricingError::Kind::UnboundName: return "UnboundName";
        case PricingError::Kind::MissingField: return "MissingField";
        case PricingError::Kind::Overflow: return "PricingOverflow";
        case PricingError::Kind::TypeError: return "PricingTypeError";
        case PricingError::Kind::UnknownSlot: return "UnknownSlot";
        case PricingError::Kind::UnknownOp: return "UnknownOp";
    }
    return "PricingError";
}

py::dict position(const Position& p) {
    py::dict d;
    d["file"] = p.file;
    d["line"] = p.line;
    d["col"] = p.col;
    return d;
}

void raise(const char* class_name, const std::string& message, const py::dict& attributes) {
    py::object cls = py::module_::import("oprec.errors").attr(class_name);
    py::object error = cls(message);
    for (auto [key, value] : attributes) py::setattr(error, key, value);
    PyErr_SetObject(cls.ptr(), error.ptr());
}

}  // namespace

void register_errors(py::module_&) {
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const PricingError& e) {
            py::dict a = position(e.where());
            a["kind"] = e.kind_name();
            raise(pricing_class(e.kind()), e.what(), a);
        } catch (const RecordsError& e) {
            py::list problems;
            for (const Problem& pr : e.problems()) {
                py::dict d = position(pr.where);
                d["severity"] = pr.severity == Problem::Severity::Error     ? "error"
                                : pr.severity == Problem::Severity::Warning ? "warning"
                                                                            : "note";
                d["code"] = pr.code;
                d["message"] = pr.message;
                d["rendered"] = pr.rendered;
                problems.append(d);
            }
            py::dict a;
            a["problems"] = problems;
            raise("RecordsError", e.what(), a);
        } catch (const LayerError& e) {
            raise("LayerError", e.what(), py::dict());
        }
    });
}

}  // namespace oprec::py_module
