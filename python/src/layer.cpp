// oprec.Layer: a bound layer's fields as a mapping, and its pricing.
#include <string>

#include <pybind11/stl.h>

#include "py_values.h"

namespace oprec::py_module {

namespace {

py::dict fields(const Layer& l) {
    py::dict out;
    for (const auto& [name, f] : l.fields()) out[py::str(name)] = to_python(f);
    return out;
}

py::list keys(const Layer& l) {
    py::list out;
    for (const auto& [name, f] : l.fields()) out.append(py::str(name));
    return out;
}

// A field set by name: a name the layer cannot state is a KeyError naming
// it (a typo would otherwise be stated, read by nothing, and change nothing).
void set_one(Layer& layer, const std::string& name, py::handle value) {
    if (const auto why = layer.unknown_field(name)) throw py::key_error(*why);
    layer.set(name, to_finite_field(value, name));
    for (const auto& [field, why] : layer.doubtful_fields())  // e.g. a misspelt cp_algo: priced as ring CP
        if (field == name && PyErr_WarnEx(PyExc_UserWarning, why.c_str(), 2) != 0) throw py::error_already_set();
}

void set_all(Layer& layer, py::handle mapping) {
    for (auto [name, value] : as_dict(mapping)) set_one(layer, key_text(name, "a field's name"), value);
}

py::object report(const BoundLayer& b, const std::optional<std::string>& only) {
    ReportOptions o;
    o.only = only;
    return py::module_::import("json").attr("loads")(b.layer.report_json(o));
}

}  // namespace

void register_layer(py::module_& m) {
    using namespace pybind11::literals;
    py::class_<SlotBytes>(m, "SlotBytes", "One slot of a layer: its part, whether it holds, its bytes.")
        .def_readonly("slot", &SlotBytes::slot)
        .def_readonly("part", &SlotBytes::part)
        .def_readonly("held", &SlotBytes::held)
        .def_property_readonly("bytes", [](const SlotBytes& s) { return to_python(s.bytes); })
        .def("__repr__", [](const SlotBytes& s) {
            return "SlotBytes(slot='" + s.slot + "', part='" + s.part + "', held=" + (s.held ? "True" : "False") +
                   ", bytes=" + s.bytes.repr() + ")";
        });

    py::class_<BoundLayer>(m, "Layer", "A layer bound to its records: set fields, price again.")
        .def("__getitem__",
             [](const BoundLayer& b, const std::string& name) {
                 auto f = b.layer.field(name);
                 if (!f) throw py::key_error(name);
                 return to_python(*f);
             },
             "name"_a, "A field's value as stated; KeyError when it is not.")
        .def("__setitem__",
             [](BoundLayer& b, const std::string& name, py::handle value) { set_one(b.layer, name, value); }, "name"_a, "value"_a,
             "Set a field (None, bool, int, float, str); prices again cheaply. KeyError for a name the records "
             "have no field of.")
        .def("__delitem__",
             [](BoundLayer& b, const std::string& name) {
                 if (!b.layer.field(name)) throw py::key_error(name);
                 b.layer.erase(name);
             },
             "name"_a, "Stop stating a field (a default, if any, applies).")
        .def("__contains__",
             [](const BoundLayer& b, py::handle name) {
                 return py::isinstance<py::str>(name) && b.layer.field(name.cast<std::string>()).has_value();
             },
             "Whether the layer states the field (False for anything but a str).")
        .def("__len__", [](const BoundLayer& b) { return b.layer.fields().size(); }, "How many fields it states.")
        .def("__iter__", [](const BoundLayer& b) { return py::iter(keys(b.layer)); },
             "The stated fields' names, in order.")
        .def("keys", [](const BoundLayer& b) { return keys(b.layer); }, "The stated fields' names, in order.")
        .def("values",
             [](const BoundLayer& b) {
                 py::list out;
                 for (const auto& [name, f] : b.layer.fields()) out.append(to_python(f));
                 return out;
             },
             "The stated fields' values, in order.")
        .def("items",
             [](const BoundLayer& b) {
                 py::list out;
                 for (const auto& [name, f] : b.layer.fields()) out.append(py::make_tuple(py::str(name), to_python(f)));
                 return out;
             },
             "The stated fields as (name, value) pairs, in order.")
        .def(
            "get",
            [](const BoundLayer& b, const std::string& name, py::object fallback) {
                auto f = b.layer.field(name);
                return f ? to_python(*f) : fallback;
            },
            "name"_a, "default"_a = py::none(),
            "A field's value, or `default` when it is not stated.")
        .def(
            "set",
            [](BoundLayer& b, py::object mapping, py::kwargs kwargs) {
                Layer edited = b.layer;  // all or nothing: an error leaves the layer as it was
                if (!mapping.is_none()) set_all(edited, mapping);
                set_all(edited, kwargs);
                b.layer = std::move(edited);
            },
            "mapping"_a = py::none(),
            "Set several fields: layer.set(t=8, cp=2) or layer.set({'t': 8}), all or none of them.")
        .def("fields", [](const BoundLayer& b) { return fields(b.layer); },
             "Every stated field, as a dict.")
        .def(
            "set_switch",
            [](BoundLayer& b, const std::string& name, py::handle keep) {
                std::optional<bool> state;
                if (!keep.is_none()) {
                    try {
                        state = switch_keeps(keep, name);
                    } catch (const py::type_error&) {
                        throw py::type_error("oprec.Layer.set_switch(): `keep` needs True or False or None (or 1, 0), got " +
                                             std::string(Py_TYPE(keep.ptr())->tp_name) + " " +
                                             py::repr(keep).cast<std::string>());
                    }
                }
                b.layer.set_switch(name, state);
            },
            "name"_a, "keep"_a,
            "A recompute switch: True keeps the op, False recomputes it, None forgets it.")
        .def_property(
            "recompute", [](const BoundLayer& b) { return recompute_text(b.layer.recompute()); },
            [](BoundLayer& b, const std::string& r) { b.layer.set_recompute(parse_recompute(r)); })
        .def_property_readonly("records", [](const BoundLayer& b) { return b.records; })
        .def("parts", [](const BoundLayer& b) { return to_python(b.layer.parts()); },
             "Bytes by part (attention, ffn, norm), as the reference's layer_bytes.")
        .def("total", [](const BoundLayer& b) { return to_python(b.layer.total()); },
             "The parts summed from 0.0, as the reference sums them.")
        .def(
            "slot",
            [](const BoundLayer& b, const std::string& slot, const std::optional<std::string>& only) {
                return to_python(only ? b.layer.slot(slot, *only) : b.layer.slot(slot));
            },
            "slot"_a, "only"_a = py::none(),
            "One slot's bytes, with the layer's switches, or with one op (or part) alone.")
        .def("slots", [](const BoundLayer& b) { return b.layer.slots(); },
             "Every slot: its part, whether it holds on this layer, its bytes.")
        .def("op", [](const BoundLayer& b, const std::string& op) { return to_python(b.layer.op(op)); }, "op"_a,
             "An op's (or part's) bytes in each held slot it keeps in.")
        .def("ops",
             [](const BoundLayer& b) {
                 py::dict out;
                 for (const std::string& op : b.records.ops()) out[py::str(op)] = to_python(b.layer.op(op));
                 return out;
             },
             "op() for each name of Records.ops (the ops, then the parts), in that order: its bytes in each "
             "held slot it keeps in.")
        .def("settings",
             [](const BoundLayer& b) {
                 const auto& names = b.records.switches();
                 py::list out;
                 for (const Setting& s : b.layer.settings()) {
                     py::dict keeps;
                     for (std::size_t i = 0; i < names.size(); ++i) keeps[py::str(names[i])] = ((s.keep_bits >> i) & 1u) != 0;
                     py::dict row;
                     row["switches"] = keeps;
                     row["parts"] = to_python(s.parts);
                     row["total"] = to_python(s.total);
                     out.append(row);
                 }
                 return out;
             },
             "Every switch setting as a selective layer: dicts of switches, parts, total.")
        .def("report", &report, "only"_a = py::none(),
             "Everything, as `oprec eval --format json` prints it, as a dict.")
        .def("document",
             [](const BoundLayer& b) { return py::module_::import("json").attr("loads")(b.layer.document_json(-1)); },
             "The layer document (fields, switches, context) as a dict.")
        .def("copy", [](const BoundLayer& b) { return BoundLayer(b); },
             "An independent copy, to price a variant.")
        .def("__copy__", [](const BoundLayer& b) { return BoundLayer(b); })
        .def("__deepcopy__", [](const BoundLayer& b, py::handle) { return BoundLayer(b); })
        .def("__repr__", [](py::handle self) {
            if (!made<BoundLayer>(self)) return std::string("<oprec.Layer, not made>");
            const BoundLayer& b = self.cast<const BoundLayer&>();
            return std::string("<oprec.Layer ") + recompute_text(b.layer.recompute()) + ", " +
                   std::to_string(b.layer.fields().size()) + " fields>";
        });
}

}  // namespace oprec::py_module
