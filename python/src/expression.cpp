// oprec._oprec.Expression: one expression, its names looked up through a
// Python callable (the drop-in's op records evaluate through it).
#include <string>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "py_values.h"
#include "oprec/expression.h"

namespace oprec::py_module {

void register_expression(py::module_& m) {
    using namespace pybind11::literals;
    py::class_<Expression>(m, "Expression", "One expression of the records' language, Python's semantics.")
        .def(py::init(&Expression::parse), "source"_a, "name"_a = "<expr>")
        .def_property_readonly("source", &Expression::source)
        .def_property_readonly("names", [](const Expression& e) { return py::tuple(py::cast(e.names())); })
        .def(
            "evaluate",
            [](const Expression& e, const py::function& lookup) {
                // The callable answers a number, or None for a name with no value.
                const Expression::Lookup values = [&](std::string_view name) -> std::optional<Number> {
                    py::object v = lookup(py::str(name.data(), name.size()));
                    if (v.is_none()) return std::nullopt;
                    if (PyLong_Check(v.ptr()) && !PyBool_Check(v.ptr())) {
                        int overflow = 0;
                        (void)PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
                        if (overflow != 0) {  // as a formula past 64 bits raises (tests/golden/FORMAT.md)
                            PyErr_SetString(PyExc_OverflowError,
                                            ("`" + std::string(name) + "` is an int beyond 64 bits").c_str());
                            throw py::error_already_set();
                        }
                    }
                    const Field f = to_field(v, name);
                    if (const Number* n = std::get_if<Number>(&f)) return *n;
                    throw py::type_error("`" + std::string(name) + "` is a string, not a number");
                };
                return to_python(e.evaluate(values));
            },
            "lookup"_a);
    py::class_<Records> records = py::reinterpret_borrow<py::class_<Records>>(m.attr("Records"));
    records.def("to_yaml", &Records::to_yaml, "The records as the reference's YAML, as `oprec export` writes it.");
}

}  // namespace oprec::py_module
