// Will it fit: the whole-rank fit of a Hugging Face config under a strategy,
// or of a Megatron-LM launch command (python/oprec/fit.py is the Pythonic
// face: it checks the options and reads the JSON these return).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include "py_values.h"
#include "oprec/fit.h"

namespace oprec::py_module {

void register_fit(py::module_& m) {
    using namespace pybind11::literals;
    m.def(
        "fit_json",
        [](const Records& records, const std::string& config, std::optional<std::string> config_text,
           std::optional<std::string> family, std::int64_t gpus, std::int64_t tp, std::int64_t pp, std::int64_t vpp,
           std::int64_t cp, const std::string& cp_algo, bool sp, std::int64_t ep, std::int64_t etp, std::int64_t mbs,
           std::optional<std::int64_t> gbs, std::optional<std::int64_t> seq, std::optional<std::string> dtype,
           bool flash_attention, const std::string& recompute, const std::string& recompute_method,
           std::optional<std::int64_t> recompute_layers, int zero, std::optional<std::string> schedule,
           const std::string& optimizer, std::optional<std::int64_t> first_stage_layers,
           std::optional<std::int64_t> last_stage_layers, std::optional<bool> untied,
           std::optional<std::int64_t> vocab, double device_bytes, std::vector<std::int64_t> stage_layers) {
            FitStrategy s;
            s.layer.tp = tp, s.layer.cp = cp, s.layer.cp_algo = cp_algo, s.layer.sp = sp;
            s.layer.ep = ep, s.layer.etp = etp, s.layer.mbs = mbs, s.layer.seq = seq;
            s.layer.dtype = std::move(dtype), s.layer.flash_attention = flash_attention, s.layer.recompute = recompute;
            s.gpus = gpus, s.pp = pp, s.vpp = vpp, s.gbs = gbs, s.zero = zero, s.schedule = std::move(schedule);
            s.optimizer = optimizer, s.recompute_method = recompute_method, s.recompute_layers = recompute_layers;
            s.first_stage_layers = first_stage_layers, s.last_stage_layers = last_stage_layers;
            s.untied = untied, s.vocab = vocab, s.device_bytes = device_bytes;
            s.virtual_stage_layers = std::move(stage_layers);
            py::gil_scoped_release unlocked;
            const FitModel model = config_text ? FitModel(records, *config_text, config, std::move(family))
                                               : FitModel(records, std::filesystem::path(config), std::move(family));
            FitResult r = model.fit(s);
            r.parameters = model.parameters(s);
            return r.to_json(-1);
        },
        "records"_a, "config"_a, py::kw_only(), "config_text"_a = py::none(), "family"_a = py::none(), "gpus"_a = 8,
        "tp"_a = 1, "pp"_a = 1, "vpp"_a = 1, "cp"_a = 1, "cp_algo"_a = "ring", "sp"_a = true, "ep"_a = 1, "etp"_a = 1,
        "mbs"_a = 1, "gbs"_a = py::none(), "seq"_a = py::none(), "dtype"_a = py::none(), "flash_attention"_a = true,
        "recompute"_a = "none", "recompute_method"_a = "uniform", "recompute_layers"_a = py::none(), "zero"_a = 1,
        "schedule"_a = py::none(), "optimizer"_a = "adam", "first_stage_layers"_a = py::none(),
        "last_stage_layers"_a = py::none(), "untied"_a = py::none(), "vocab"_a = py::none(),
        "device_bytes"_a = 80.0 * 1024 * 1024 * 1024, "stage_layers"_a = std::vector<std::int64_t>{},
        "The fit of a config.json (a path, or its text as config_text) under a strategy, as one line of "
        "`oprec fit --format json`; use oprec.fit.");
    m.def(
        "fit_megatron_json",
        [](const Records& records, const std::string& text, const std::string& source_name,
           std::optional<std::int64_t> gpus, double device_bytes, std::optional<std::string> family) {
            MegatronJob job = megatron_job(text, source_name, gpus);
            job.strategy.device_bytes = device_bytes;
            std::string json;
            {
                py::gil_scoped_release unlocked;
                json = fit_megatron(records, job, source_name, std::move(family)).to_json(-1);
            }
            py::dict out;
            out["json"] = json;
            out["ignored"] = job.ignored;
            out["unknown"] = job.unknown;
            return out;
        },
        "records"_a, "text"_a, "source_name"_a = "<megatron-args>", py::kw_only(), "gpus"_a = py::none(),
        "device_bytes"_a = 80.0 * 1024 * 1024 * 1024, "family"_a = py::none(),
        "The fit of a Megatron-LM launch command, as a dict: json (`oprec fit --megatron-args --format json`'s "
        "line), ignored, unknown; use oprec.fit_megatron.");
}

}  // namespace oprec::py_module
