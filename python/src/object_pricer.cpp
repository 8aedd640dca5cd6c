// The reference drop-in's engine: a layer config read by attribute (as the
// reference's evaluators read `ccfg`), and its context, into one bound
// Layer kept between calls. Only the names the records read are read, and
// only a value that changed since the last call is set again, so pricing
// the same or a slightly changed config costs a few getattrs and a pricing.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <pybind11/stl.h>

#include "py_values.h"

namespace oprec::py_module {

namespace {

// The names that are not the config's fields: the context's, the computed
// one, and the slot's own accumulator.
bool not_a_field(const std::string& n) {
    const auto& context = context_names();
    return n == "kv_shards" || n == "total" || std::find(context.begin(), context.end(), n) != context.end();
}

// The same Python value as last time: same type and equal (a float's bits,
// so that -0.0 is not 0.0), for values that cannot change in place. Any
// other object is read again, even the same one: a numpy 0-d array set
// with `t[()] = 8` is the same object holding another number.
bool same(PyObject* a, PyObject* b) {
    if (a == nullptr || b == nullptr) return a == b;
    if (Py_TYPE(a) != Py_TYPE(b)) return false;
    if (PyFloat_CheckExact(a)) {
        const double x = PyFloat_AS_DOUBLE(a), y = PyFloat_AS_DOUBLE(b);
        return std::memcmp(&x, &y, sizeof x) == 0;
    }
    if (a == b) return PyLong_CheckExact(a) || PyUnicode_CheckExact(a) || PyBool_Check(a) || a == Py_None;
    if (PyLong_CheckExact(a) || PyUnicode_CheckExact(a)) return PyObject_RichCompareBool(a, b, Py_EQ) == 1;
    return false;
}

// getattr(obj, name), or null when the object has no such attribute.
py::object attribute(py::handle obj, py::handle name) {
    PyObject* v = PyObject_GetAttr(obj.ptr(), name.ptr());
    if (v == nullptr) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) throw py::error_already_set();
        PyErr_Clear();
        return py::object();
    }
    return py::reinterpret_steal<py::object>(v);
}

struct Read {
    std::string name;
    py::str key;
    py::object last;  // what the layer holds now; null: not stated
};

class ObjectPricer {
public:
    explicit ObjectPricer(const Records& records)
        : records_(records), layer_{records, records.layer("{}", "<ccfg>")} {
        std::vector<std::string> names;
        for (const std::string& n : records.names())
            if (!not_a_field(n)) names.push_back(n);
        // What kv_shards is computed from, read like any field.
        for (const char* n : {"cp", "cp_algo", "n_linrec"})
            if (std::find(names.begin(), names.end(), n) == names.end()) names.emplace_back(n);
        for (std::string& n : names) fields_.push_back(Read{n, py::str(n), py::object()});
        for (const std::string& n : context_names()) context_.push_back(Read{n, py::str(n), py::object()});
        for (const std::string& s : records.switches()) switches_.push_back(Switch{py::str(s), s, -1});
    }

    // The layer for `ccfg` under `ctx`: `switches` (a mapping) where given,
    // else the context's where a mapping, else the config's rec_op;
    // `overrides` stand for fields.
    BoundLayer& bind(py::handle ccfg, py::handle ctx, py::handle switches, py::handle overrides) {
        // A config's property that prices another config on this thread
        // would rebind this layer halfway through reading the first: the
        // inner call is refused (the drop-in then prices it the reference's
        // way) and the outer one reads on undisturbed.
        if (binding_) throw LayerError("the pricer is reading another config (a property priced a layer)");
        binding_ = true;
        const struct Done {
            bool& flag;
            ~Done() { flag = false; }
        } done{binding_};
        const bool has_overrides = !overrides.is_none() && py::len(overrides) > 0;
        if (has_overrides) check_overrides(overrides);
        for (Read& r : fields_) update(r, ccfg, overrides, has_overrides);
        for (Read& r : context_) update(r, ctx, overrides, has_overrides);
        bind_node(ctx);
        bind_switches(ccfg, ctx, switches);
        return layer_;
    }

    const Records& records() const { return records_; }

private:
    bool binding_ = false;
    struct Switch {
        py::str key;
        std::string name;
        int kept;  // -1: not set yet
    };

    // An override of a name the pricer does not bind (kv_shards, which it
    // computes; total; a name the records do not read) is a LayerError, for
    // the caller to price it the reference's way, which honours it.
    void check_overrides(py::handle overrides) const {
        for (py::handle key : py::iter(overrides)) {
            const auto bound = [&](const Read& r) { return r.key.equal(key); };
            if (std::none_of(fields_.begin(), fields_.end(), bound) &&
                std::none_of(context_.begin(), context_.end(), bound))
                throw LayerError("override of " + py::repr(key).cast<std::string>() +
                                 ": not a name the pricer binds");
        }
    }

    void update(Read& r, py::handle source, py::handle overrides, bool has_overrides) {
        py::object v;
        if (has_overrides && overrides.contains(r.key))
            v = overrides[r.key];
        else
            v = attribute(source, r.key);
        if (same(v.ptr(), r.last.ptr())) return;
        if (v)
            layer_.layer.set(r.name, to_field(v, r.name));
        else
            layer_.layer.erase(r.name);
        r.last = std::move(v);
    }

    // A selective layer (SEL_REC_LAYER, read by its name) applies the
    // switches; every other node keeps everything.
    void bind_node(py::handle ctx) {
        py::object node = attribute(ctx, node_key_);
        if (!node) throw py::attribute_error("the context has no current_node");
        if (node.ptr() == last_node_.ptr()) return;
        py::object name = py::hasattr(node, "name") ? node.attr("name") : py::str(node);
        const bool selective = name.cast<std::string>() == "SEL_REC_LAYER";
        layer_.layer.set_recompute(selective ? Recompute::Selective : Recompute::None);
        last_node_ = std::move(node);
    }

    void bind_switches(py::handle ccfg, py::handle ctx, py::handle given) {
        py::object stated = py::reinterpret_borrow<py::object>(given);
        if (stated.is_none()) {
            py::object on_ctx = attribute(ctx, switches_key_);
            if (on_ctx && is_mapping(on_ctx))
                stated = on_ctx;
            else if (py::object rec_op = attribute(ccfg, rec_op_key_))
                stated = rec_op;
        }
        // A mapping is read by key, an object by its attribute dict; a switch
        // it does not state keeps its op, and so does a rec_op of None.
        py::object table;
        if (!stated.is_none()) table = is_mapping(stated) ? stated : attribute(stated, dict_key_);
        for (Switch& s : switches_) {
            int keep = 1;
            if (table && !table.is_none()) {
                PyObject* v = PyMapping_Check(table.ptr()) && table.contains(s.key)
                                  ? PyObject_GetItem(table.ptr(), s.key.ptr())
                                  : nullptr;
                if (v == nullptr && PyErr_Occurred()) throw py::error_already_set();  // the mapping's own error
                if (v != nullptr) keep = switch_value(py::reinterpret_steal<py::object>(v), s.name);
            } else if (!stated.is_none() && !table) {
                if (py::object v = attribute(stated, s.key)) keep = switch_value(v, s.name);
            }
            if (keep != s.kept) {
                layer_.layer.set_switch(s.name, keep != 0);
                s.kept = keep;
            }
        }
    }

    // A switch's keep: a bool, or an int 0 or 1. The reference multiplies by
    // `(not selective) | value`, so any other value (2, 1.0) prices
    // otherwise or raises: a LayerError, for the caller to price it the
    // reference's way.
    static int switch_value(const py::object& v, const std::string& name) {
        if (PyBool_Check(v.ptr())) return v.ptr() == Py_True ? 1 : 0;
        if (PyLong_CheckExact(v.ptr())) {
            const long x = PyLong_AsLong(v.ptr());
            if (x == 0 || x == 1) return static_cast<int>(x);
            PyErr_Clear();
        }
        throw LayerError("switch `" + name + "`: " + py::repr(v).cast<std::string>() +
                         " is not a bool, 0 or 1");
    }

    bool is_mapping(py::handle o) const {
        return PyDict_Check(o.ptr()) || PyObject_IsInstance(o.ptr(), abc_mapping_.ptr()) == 1;
    }

    Records records_;
    BoundLayer layer_;
    std::vector<Read> fields_, context_;
    std::vector<Switch> switches_;
    py::object last_node_;
    py::str node_key_{"current_node"}, switches_key_{"switches"}, rec_op_key_{"rec_op"}, dict_key_{"__dict__"};
    py::object abc_mapping_ = py::module_::import("collections.abc").attr("Mapping");
};

}  // namespace

void register_object_pricer(py::module_& m) {
    using namespace pybind11::literals;
    py::class_<ObjectPricer>(m, "ObjectPricer",
                             "Prices a config object read by attribute, as the reference's evaluators do.")
        .def(py::init<const Records&>(), "records"_a)
        .def(
            "bind",
            [](ObjectPricer& p, py::handle ccfg, py::handle ctx, py::handle switches, py::handle overrides) {
                return BoundLayer(p.bind(ccfg, ctx, switches, overrides));
            },
            "ccfg"_a, "ctx"_a, "switches"_a = py::none(), "overrides"_a = py::none(),
            "A copy of the layer for ccfg under ctx (the pricer's own stays in step with what it read).")
        .def(
            "layer_bytes",
            [](ObjectPricer& p, py::handle ccfg, py::handle ctx, py::handle switches) {
                return to_python(p.bind(ccfg, ctx, switches, py::none()).layer.parts());
            },
            "ccfg"_a, "ctx"_a, "switches"_a = py::none(), "The reference's EvalRecords.layer_bytes.")
        .def(
            "slot_bytes",
            [](ObjectPricer& p, py::handle ccfg, py::handle ctx, const std::string& slot, py::handle switches,
               py::handle overrides, const std::optional<std::string>& only) {
                const Layer& l = p.bind(ccfg, ctx, switches, overrides).layer;
                return to_python(only ? l.slot(slot, *only) : l.slot(slot));
            },
            "ccfg"_a, "ctx"_a, "slot"_a, "switches"_a = py::none(), "overrides"_a = py::none(), "only"_a = py::none(),
            "The reference's EvalRecords.slot_bytes.")
        .def(
            "layer_slots",
            [](ObjectPricer& p, py::handle ccfg, py::handle ctx) {
                py::dict out;
                for (const auto& [slot, part] : p.bind(ccfg, ctx, py::none(), py::none()).layer.held_slots())
                    out[py::str(slot)] = part;
                return out;
            },
            "ccfg"_a, "ctx"_a, "The reference's EvalRecords.layer_slots.")
        .def(
            "op_bytes",
            [](ObjectPricer& p, py::handle ccfg, py::handle ctx, const std::string& op) {
                return to_python(p.bind(ccfg, ctx, py::none(), py::none()).layer.op(op));
            },
            "ccfg"_a, "ctx"_a, "op"_a, "The reference's EvalRecords.op_bytes, without its layer_slots first.");
}

}  // namespace oprec::py_module
