// oprec.Records: loading (shipped, a .rec, the reference's YAML, text) and
// binding layers from Python mappings.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "py_values.h"

namespace oprec::py_module {

namespace {

RecordsOptions options(const std::optional<std::filesystem::path>& profiles,
                       const std::optional<std::filesystem::path>& data_dir,
                       const std::vector<std::filesystem::path>& search_path) {
    RecordsOptions o;
    if (data_dir) o.data_dir = *data_dir;
    o.search_path = search_path;
    o.profiles = profiles;
    return o;
}

void set_switches(BoundLayer& b, py::handle switches) {
    if (switches.is_none()) return;
    for (auto [name, keep] : as_dict(switches)) {
        const std::string n = key_text(name, "a switch's name");
        if (keep.is_none())
            b.layer.set_switch(n, std::nullopt);
        else
            b.layer.set_switch(n, switch_keeps(keep, n));
    }
}

BoundLayer bind(const Records& records, py::handle fields, py::handle context, py::handle switches) {
    BoundLayer b{records, records.layer("{}", "<python>")};
    if (!fields.is_none())
        for (auto [name, value] : as_dict(fields)) {
            const std::string n = key_text(name, "a field's name");
            // A misspelt keyword is refused, as Python refuses one (and as Layer.set does);
            // records with no schema cannot tell one.
            if (!records.schema().empty())
                if (const auto why = b.layer.unknown_field(n)) throw LayerError("fields: " + *why);
            b.layer.set(n, to_finite_field(value, n));
        }
    // The context's switches, where it states them, stand for the layer's
    // own altogether (the reference reads one or the other).
    // A null context.switches states none, as the JSON reader takes it.
    py::dict ctx_dict = context.is_none() ? py::dict() : as_dict(context);
    const bool context_switches = ctx_dict.contains("switches") && !ctx_dict["switches"].is_none();
    if (!context_switches) set_switches(b, switches);
    if (!context.is_none()) {
        py::dict ctx = ctx_dict;
        for (auto [key, value] : ctx) {
            const std::string k = key_text(key, "a context key");
            const auto& context = context_names();
            if (std::find(context.begin(), context.end(), k) != context.end())
                b.layer.set(k, to_finite_field(value, k));
            else if (k == "node" || k == "current_node" || k == "recompute")
                b.layer.set_recompute(parse_recompute(
                    key_text(py::hasattr(value, "name") ? value.attr("name") : value, "context." + k + " (none, selective or full)")));
            else if (k != "switches")
                throw LayerError("context: unknown key `" + k +
                                 "` (micro_factor, dropless_tok_factor, node, switches)");
        }
        if (context_switches) set_switches(b, ctx["switches"]);
    }
    for (const auto& [field, why] : b.layer.doubtful_fields())  // e.g. a misspelt cp_algo: priced as ring CP
        if (PyErr_WarnEx(PyExc_UserWarning, ("fields: " + why).c_str(), 2) != 0) throw py::error_already_set();
    return b;
}

// A document's fields that nothing reads, as Python warnings at the
// caller's line (a misspelt field would be priced as if absent); an
// exception where warnings are errors.
BoundLayer warn_unread(BoundLayer b, const std::string& name) {
    for (const auto& [field, why] : b.layer.unread_fields()) {
        const std::string message = name + ": " + why + ": the layer is priced without it";
        if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 2) != 0) throw py::error_already_set();
    }
    for (const auto& [path, why] : b.layer.unread_switches()) {
        const std::string message = name + ": " + why + ": it changes nothing";
        if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 2) != 0) throw py::error_already_set();
    }
    for (const auto& [field, why] : b.layer.doubtful_fields()) {
        const std::string message = name + ": " + why;
        if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 2) != 0) throw py::error_already_set();
    }
    return b;
}

}  // namespace

void register_records(py::module_& m) {
    using namespace pybind11::literals;
    m.attr("CONTEXT_NAMES") = py::tuple(py::cast(context_names()));
    py::class_<Records>(m, "Records", "Op records, loaded and checked once; bind layers with `layer()`.")
        .def(py::init([](const std::optional<std::filesystem::path>& path,
                         const std::optional<std::filesystem::path>& profiles,
                         const std::optional<std::filesystem::path>& data_dir,
                         const std::vector<std::filesystem::path>& search_path) {
                 const RecordsOptions o = options(profiles, data_dir, search_path);
                 return path ? Records::load(*path, o) : Records::shipped(o);
             }),
             "path"_a = py::none(), py::kw_only(), "profiles"_a = py::none(), "data_dir"_a = py::none(),
             "search_path"_a = std::vector<std::filesystem::path>{})
        .def_static(
            "from_text",
            [](std::string text, std::string name, const std::optional<std::filesystem::path>& profiles) {
                return Records::from_text(std::move(text), std::move(name), options(profiles, std::nullopt, {}));
            },
            "text"_a, "name"_a = "<text>", py::kw_only(), "profiles"_a = py::none(),
            "Records from text; `name` stands for the file in diagnostics.")
        .def_static("default_data_dir", &Records::default_data_dir,
             "Where the shipped records and the standard library are found.")
        .def_property_readonly("source", &Records::source)
        .def_property_readonly("slots", [](const Records& r) { return py::tuple(py::cast(r.slots())); })
        .def_property_readonly("ops", [](const Records& r) { return py::tuple(py::cast(r.ops())); })
        .def_property_readonly("switches", [](const Records& r) { return py::tuple(py::cast(r.switches())); })
        .def_property_readonly("parts", [](const Records& r) { return py::tuple(py::cast(r.parts())); })
        .def_property_readonly("names", [](const Records& r) { return py::tuple(py::cast(r.names())); })
        .def_property_readonly("defaults", [](const Records& r) { return to_python(r.defaults()); })
        .def_property_readonly("has_profiles", &Records::has_profiles)
        .def("layer", &bind, "fields"_a = py::none(), "context"_a = py::none(), "switches"_a = py::none(),
             "A layer from mappings: fields; context (micro_factor, dropless_tok_factor, node, switches); switches.")
        .def(
            "layer_json",
            [](const Records& r, std::string_view text, const std::string& name) {
                return warn_unread(BoundLayer{r, r.layer(text, name)}, name);
            },
            "text"_a, "name"_a = "<layer>",
            "A layer from its JSON document text.")
        .def(
            "layer_file",
            [](const Records& r, const std::filesystem::path& path) {
                return warn_unread(BoundLayer{r, r.layer_file(path)}, path.string());
            },
            "path"_a,
            "A layer from a JSON document file.")
        .def("__repr__", [](py::handle self) {
            if (!made<Records>(self)) return std::string("<oprec.Records, not made: its __init__ raised>");
            return "<oprec.Records " + self.cast<const Records&>().source() + ">";
        });
}

}  // namespace oprec::py_module
