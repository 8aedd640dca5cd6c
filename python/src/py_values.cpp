#include "py_values.h"

#include <cmath>
#include <string>
#include <string_view>

namespace oprec::py_module {

py::object to_python(const Number& n) {
    switch (n.kind) {
        case Number::Kind::Bool: return py::bool_(n.i != 0);
        case Number::Kind::Int: return py::int_(n.i);
        case Number::Kind::Float: return py::float_(n.f);
    }
    return py::none();
}

py::object to_python(const Field& f) {
    if (const Number* n = std::get_if<Number>(&f)) return to_python(*n);
    if (const std::string* s = std::get_if<std::string>(&f)) return py::str(*s);
    return py::none();
}

py::dict to_python(const Named<Number>& named) {
    py::dict out;
    for (const auto& [name, n] : named) out[py::str(name)] = to_python(n);
    return out;
}

Field to_field(py::handle value, std::string_view name) {
    PyObject* v = value.ptr();
    if (v == Py_None) return std::monostate{};
    if (PyBool_Check(v)) return Number::boolean(v == Py_True);
    if (PyLong_Check(v)) {
        int overflow = 0;
        const long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow != 0) throw LayerError("field `" + std::string(name) + "`: an int beyond 64 bits");
        return Number::integer(i);
    }
    if (PyFloat_Check(v)) return Number::real(PyFloat_AS_DOUBLE(v));
    if (PyUnicode_Check(v)) return value.cast<std::string>();
    // numpy's bool is a bool, not the number its __float__ gives.
    const std::string_view type_name = Py_TYPE(v)->tp_name;
    if (type_name == "numpy.bool_" || type_name == "numpy.bool") return Number::boolean(PyObject_IsTrue(v) == 1);
    // Other integers (numpy's) by their index.
    if (PyIndex_Check(v)) {
        PyObject* index = PyNumber_Index(v);
        if (index == nullptr) throw py::error_already_set();
        return to_field(py::reinterpret_steal<py::object>(index), name);
    }
    // Other real numbers (fractions.Fraction, decimal.Decimal, numpy's
    // float32) by their float value.
    if (Py_TYPE(v)->tp_as_number != nullptr && Py_TYPE(v)->tp_as_number->nb_float != nullptr) {
        const double f = PyFloat_AsDouble(v);
        if (f == -1.0 && PyErr_Occurred()) throw py::error_already_set();
        return Number::real(f);
    }
    // An enum member (the reference's CPAlgo.ULYSSES_CP) stands for its
    // value, one level down: a value that is itself enum-like (an object
    // whose `value` is itself) would recurse without end.
    if (py::hasattr(value, "value") && py::hasattr(value, "name")) {
        py::object inner = value.attr("value");
        if (py::hasattr(inner, "value") && py::hasattr(inner, "name") && !PyUnicode_Check(inner.ptr()))
            throw LayerError("field `" + std::string(name) + "`: an enum member whose value is enum-like again (" +
                             std::string(Py_TYPE(v)->tp_name) + ")");
        return to_field(inner, name);
    }
    throw LayerError("field `" + std::string(name) + "`: expected a number, a string or None, got " +
                     std::string(Py_TYPE(v)->tp_name));
}

Field to_finite_field(py::handle value, std::string_view name) {
    Field f = to_field(value, name);
    if (const Number* n = std::get_if<Number>(&f); n != nullptr && !std::isfinite(n->to_double()))
        throw LayerError("field `" + std::string(name) + "`: " + n->repr() + " is not a finite number");
    return f;
}

bool switch_keeps(py::handle value, std::string_view name) {
    PyObject* v = value.ptr();
    if (PyBool_Check(v)) return v == Py_True;
    if (std::string_view(Py_TYPE(v)->tp_name) == "numpy.bool_" || std::string_view(Py_TYPE(v)->tp_name) == "numpy.bool")
        return PyObject_IsTrue(v) == 1;
    if (PyLong_Check(v) || (PyIndex_Check(v) && !PyFloat_Check(v))) {  // an int, numpy's too
        PyObject* index = PyNumber_Index(v);
        if (index == nullptr) throw py::error_already_set();
        int overflow = 0;
        const long long i = PyLong_AsLongLongAndOverflow(index, &overflow);
        Py_DECREF(index);
        if (overflow == 0 && (i == 0 || i == 1)) return i == 1;
    }
    throw py::type_error("switch `" + std::string(name) + "`: expected True, False (or 1, 0), got " +
                         py::repr(value).cast<std::string>());
}

std::string key_text(py::handle key, std::string_view what) {
    if (!PyUnicode_Check(key.ptr()))
        throw py::type_error("expected " + std::string(what) + " (a str), got " + std::string(Py_TYPE(key.ptr())->tp_name) + " " +
                             py::repr(key).cast<std::string>());
    return key.cast<std::string>();
}

Recompute parse_recompute(std::string_view text) {
    if (text == "none" || text == "NOT_REC_LAYER") return Recompute::None;
    if (text == "selective" || text == "SEL_REC_LAYER") return Recompute::Selective;
    if (text == "full" || text == "FULL_REC_LAYER") return Recompute::Full;
    throw LayerError("recompute: expected none, selective or full (or the reference's NOT_REC_LAYER, "
                     "SEL_REC_LAYER, FULL_REC_LAYER), got `" + std::string(text) + "`");
}

const char* recompute_text(Recompute r) {
    switch (r) {
        case Recompute::None: return "none";
        case Recompute::Selective: return "selective";
        case Recompute::Full: return "full";
    }
    return "none";
}

}  // namespace oprec::py_module
