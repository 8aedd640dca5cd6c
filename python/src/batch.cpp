// Many pricings in one call, the GIL released: a grid of field values over
// a copy of one layer, or a list of layers each priced as it stands.
#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <pybind11/stl.h>

#include "py_values.h"

namespace oprec::py_module {

namespace {

struct Axis {
    std::string field;
    std::vector<Field> values;
};

// A point's total, or the error it raised (kept to raise, or to answer None).
struct Outcome {
    std::vector<std::optional<Number>> totals;
    std::optional<PricingError> first_error;
    std::string first_error_at;  // which point or item raised it ("grid point 2 (t=0)")
};

// The error with the point it arose at before it: over many points, the
// message alone does not say which one to look at.
PricingError at_point(const PricingError& e, const std::string& at) {
    return PricingError(e.kind(), e.kind_name(), at + ": " + e.what(), e.where(), e.reason());
}

// Points priced between two looks at Python's signals: a Ctrl-C during a
// long grid raises KeyboardInterrupt within a few milliseconds, and the
// GIL is taken back only that often.
constexpr std::size_t kChunk = 4096;

// Raises what a signal handler raised (KeyboardInterrupt), with the GIL held.
void check_signals() {
    if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

// Every point of the grid, the last axis fastest (itertools.product's
// order); a field is set again only when its axis moves. Priced a chunk at
// a time with the GIL released, signals checked between chunks.
Outcome price_grid(Layer layer, const std::vector<Axis>& axes, bool stop_at_error) {
    Outcome out;
    std::size_t count = 1;
    for (const Axis& a : axes) {
        if (a.values.empty()) return out;
        if (count > std::numeric_limits<std::size_t>::max() / a.values.size())
            throw py::value_error("grid: more points than can be counted");
        count *= a.values.size();
    }
    out.totals.reserve(std::min<std::size_t>(count, std::size_t{1} << 20));
    std::vector<std::size_t> at(axes.size(), 0);
    for (std::size_t k = 0; k < axes.size(); ++k) layer.set(axes[k].field, axes[k].values[0]);
    bool stopped = false;
    for (std::size_t n = 0; n < count && !stopped;) {
        {
            py::gil_scoped_release released;
            for (const std::size_t end = std::min(count, n + kChunk); n < end; ++n) {
                try {
                    out.totals.emplace_back(layer.total());
                } catch (const PricingError& e) {
                    out.totals.emplace_back(std::nullopt);
                    if (!out.first_error) out.first_error = e, out.first_error_at = std::to_string(n);
                    if (stop_at_error) {
                        stopped = true;
                        break;
                    }
                }
                for (std::size_t k = axes.size(); k-- > 0;) {
                    if (++at[k] < axes[k].values.size()) {
                        layer.set(axes[k].field, axes[k].values[at[k]]);
                        break;
                    }
                    at[k] = 0;
                    layer.set(axes[k].field, axes[k].values[0]);
                }
            }
        }
        check_signals();
    }
    if (out.first_error) {  // its point's values, the last axis fastest
        std::size_t rest = std::stoul(out.first_error_at);
        std::vector<std::string> values(axes.size());
        for (std::size_t k = axes.size(); k-- > 0; rest /= axes[k].values.size())
            values[k] = axes[k].field + "=" + py::repr(to_python(axes[k].values[rest % axes[k].values.size()])).cast<std::string>();
        std::string joined;
        for (const std::string& v : values) joined += (joined.empty() ? "" : ", ") + v;
        out.first_error_at = "grid point " + out.first_error_at + " (" + joined + ")";
    }
    return out;
}

bool raises(const std::string& on_error) {
    if (on_error == "raise") return true;
    if (on_error == "none") return false;
    throw LayerError("on_error: expected 'raise' or 'none', got '" + on_error + "'");
}

py::list results(const Outcome& o, bool raise_errors) {
    if (raise_errors && o.first_error) throw at_point(*o.first_error, o.first_error_at);
    py::list out(o.totals.size());
    for (std::size_t i = 0; i < o.totals.size(); ++i)
        out[i] = o.totals[i] ? to_python(*o.totals[i]) : py::none();
    return out;
}

}  // namespace

void register_batch(py::module_& m) {
    using namespace pybind11::literals;
    py::class_<BoundLayer> layer = py::reinterpret_borrow<py::class_<BoundLayer>>(m.attr("Layer"));
    layer.def(
        "grid",
        [](const BoundLayer& b, py::object axes_in, const std::string& on_error) {
            const bool raise_errors = raises(on_error);
            std::vector<Axis> axes;
            for (auto [name, values] : as_dict(axes_in)) {
                Axis a{key_text(name, "a field's name"), {}};
                if (const auto why = b.layer.unknown_field(a.field)) throw py::key_error(*why);
                if (!py::isinstance<py::iterable>(values) || py::isinstance<py::str>(values))
                    throw py::type_error("grid: the values of `" + a.field + "` need a list (or another iterable), got " +
                                         std::string(Py_TYPE(values.ptr())->tp_name));
                for (py::handle v : py::iter(values)) a.values.push_back(to_finite_field(v, a.field));
                axes.push_back(std::move(a));
            }
            return results(price_grid(b.layer, axes, raise_errors), raise_errors);
        },
        "axes"_a, py::kw_only(), "on_error"_a = "raise",
        "The total at every point of the product of `axes` (the last fastest), priced on a copy with the "
        "GIL released; on_error='none' gives None where a point raises.");

    m.def(
        "price_many",
        [](py::iterable layers_in, const std::string& on_error) {
            const bool raise_errors = raises(on_error);
            // Copies, taken with the GIL held: pricing changes a layer's
            // scratch, so the caller's own are not priced unlocked.
            std::vector<Layer> layers;
            std::size_t index = 0;
            for (py::handle item : layers_in) {
                if (!py::isinstance<BoundLayer>(item))
                    throw py::type_error("price_many: item " + std::to_string(index) + " is " +
                                         std::string(Py_TYPE(item.ptr())->tp_name) + ", not an oprec.Layer");
                layers.push_back(item.cast<const BoundLayer&>().layer);
                ++index;
            }
            Outcome o;
            o.totals.reserve(layers.size());
            bool stopped = false;
            for (std::size_t n = 0; n < layers.size() && !stopped;) {
                {
                    py::gil_scoped_release released;
                    for (const std::size_t end = std::min(layers.size(), n + kChunk); n < end; ++n) {
                        try {
                            o.totals.emplace_back(layers[n].total());
                        } catch (const PricingError& e) {
                            o.totals.emplace_back(std::nullopt);
                            if (!o.first_error) o.first_error = e, o.first_error_at = "item " + std::to_string(n);
                            if (raise_errors) {
                                stopped = true;
                                break;
                            }
                        }
                    }
                }
                check_signals();
            }
            return results(o, raise_errors);
        },
        "layers"_a, py::kw_only(), "on_error"_a = "raise",
        "Each layer's total, priced on copies with the GIL released; TypeError for an item that is not a Layer.");
}

}  // namespace oprec::py_module
