// The Hugging Face front end: a layer derived from a config.json under a
// strategy (python/oprec/hf.py is the Pythonic face).
#include <filesystem>
#include <optional>
#include <string>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "py_values.h"
#include "oprec/hf.h"

namespace oprec::py_module {

void register_hf(py::module_& m) {
    using namespace pybind11::literals;
    m.def(
        "hf_layer",
        [](const Records& records, const std::filesystem::path& config, std::int64_t tp, std::int64_t cp,
           const std::string& cp_algo, bool sp, std::int64_t ep, std::int64_t etp, std::int64_t mbs,
           std::optional<std::int64_t> seq, std::optional<std::string> dtype, bool flash_attention, bool param_casts,
           const std::string& recompute, py::object switches, py::object micro_factor,
           std::optional<std::string> family, std::optional<std::int64_t> index, std::optional<std::string> kind) {
            // Said here in the package's words (the API names its C++ option).
            if (!records.has_profiles())
                throw LayerError("records: the Hugging Face front end needs records loaded with op profiles: "
                                 "oprec.Records(profiles=\"profiles.rec\") (the default records of oprec.hf have them)");
            HfStrategy s;
            s.tp = tp, s.cp = cp, s.cp_algo = cp_algo, s.sp = sp, s.ep = ep, s.etp = etp, s.mbs = mbs;
            s.seq = seq, s.dtype = std::move(dtype), s.flash_attention = flash_attention, s.param_casts = param_casts;
            s.recompute = recompute;
            if (!switches.is_none())
                for (auto [name, keep] : as_dict(switches)) {
                    std::string n = key_text(name, "a switch's name");
                    const bool kept = switch_keeps(keep, n);
                    s.switches.emplace_back(std::move(n), kept);
                }
            const Field mf = to_field(micro_factor, "micro_factor");
            const Number* n = std::get_if<Number>(&mf);
            if (n == nullptr) throw py::type_error("micro_factor: expected a number, got " + py::repr(micro_factor).cast<std::string>());
            s.micro_factor = *n;
            HfModelChoice choice{std::move(family), index, std::move(kind)};
            HfLayer h = hf_layer(records, config, s, choice);
            py::dict out;
            out["layer"] = BoundLayer{records, std::move(h.layer)};
            out["model_type"] = h.model_type;
            out["family"] = h.family;
            out["kind"] = h.kind;
            out["index"] = h.index;
            out["layers"] = h.layers;
            out["strategy"] = h.strategy;
            out["full_recompute_input"] = h.full_recompute_input ? to_python(*h.full_recompute_input) : py::none();
            return out;
        },
        "records"_a, "config"_a, py::kw_only(), "tp"_a = 1, "cp"_a = 1, "cp_algo"_a = "ring", "sp"_a = true,
        "ep"_a = 1, "etp"_a = 1, "mbs"_a = 1, "seq"_a = py::none(), "dtype"_a = py::none(),
        "flash_attention"_a = true, "param_casts"_a = false, "recompute"_a = "selective", "switches"_a = py::none(),
        "micro_factor"_a = 1, "family"_a = py::none(), "index"_a = py::none(), "kind"_a = py::none(),
        "A layer of the model in a config.json under a strategy, as a dict; use oprec.hf.layer.");
}

}  // namespace oprec::py_module
