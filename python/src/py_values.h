// Python values to the API's and back: an int, float, bool, str or None
// to a Field; a Number to Python's bool, int or float, its type kept.
#pragma once

#include <pybind11/pybind11.h>

#include <string_view>

#include "oprec/layer.h"
#include "oprec/number.h"
#include "oprec/records.h"

namespace oprec::py_module {

namespace py = pybind11;

py::object to_python(const Number& n);
py::object to_python(const Field& f);
py::dict to_python(const Named<Number>& named);

// None, bool, int, float, str, an integer by its __index__, another real
// number (Fraction, Decimal, numpy.float32) by its float value, or an enum
// member whose value is one of them (the reference's CPAlgo). Throws
// LayerError naming `name`.
Field to_field(py::handle value, std::string_view name);
// The same, refusing nan and inf: a layer's own field or context value set
// from Python, as `oprec eval --set` refuses them (the drop-in takes what
// the reference takes).
Field to_finite_field(py::handle value, std::string_view name);

// Whether `self`'s C++ value of type T was made. An __init__ that raised
// (Records("no such file")) leaves the object unmade, and pybind11 hands
// a method raw memory for it; pytest still shows repr(self) of the failed
// call, so a __repr__ asks this first.
template <class T>
bool made(py::handle self) {
    auto* inst = reinterpret_cast<py::detail::instance*>(self.ptr());
    return inst->get_value_and_holder(py::detail::get_type_info(typeid(T))).holder_constructed();
}

// A mapping's key that must be a str: its text, else a TypeError saying
// what it stands for (`what`: "a field's name") and what it got.
std::string key_text(py::handle key, std::string_view what);

// A switch's state: True or 1 keeps the op, False or 0 recomputes it (the
// reference's rec_op holds 1 and 0); anything else is a TypeError, not its
// truth ("False" is true).
bool switch_keeps(py::handle value, std::string_view name);

// A mapping as a dict (Python's dict(mapping)).
inline py::dict as_dict(py::handle mapping) { return py::dict(py::reinterpret_borrow<py::object>(mapping)); }

Recompute parse_recompute(std::string_view text);
const char* recompute_text(Recompute r);  // "none", "selective", "full"

// A layer bound to its records, the handle Python holds: the records give
// names (switches) the Layer does not carry.
struct BoundLayer {
    Records records;
    Layer layer;
};

void register_errors(py::module_& m);
void register_records(py::module_& m);
void register_layer(py::module_& m);
void register_batch(py::module_& m);
void register_hf(py::module_& m);
void register_fit(py::module_& m);
void register_object_pricer(py::module_& m);
void register_expression(py::module_& m);

}  // namespace oprec::py_module
