#include "repl/fit_command.h"

#include <algorithm>
#include <charconv>
#include <sstream>

#include <fmt/format.h>

#include "repl/layer_edit.h"
#include "repl/output.h"
#include "value/byte_size.h"

namespace oprec::repl {

namespace {

std::int64_t integer(const std::string& name, const std::string& text, std::int64_t least) {
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < least)
        throw CommandError(fmt::format("{}={}: expected {}", name, text,
                                       least == 1 ? "a positive integer" : fmt::format("an integer of at least {}", least)));
    return v;
}

bool boolean(const std::string& name, const std::string& text) {
    if (text == "true" || text == "on" || text == "1") return true;
    if (text == "false" || text == "off" || text == "0") return false;
    throw CommandError(fmt::format("{}={}: expected true or false", name, text));
}

}  // namespace

const std::vector<std::string>& fit_option_names() {
    static const std::vector<std::string> names{
        "gpus", "tp", "pp", "vpp", "cp", "cp_algo", "sp", "ep", "etp", "mbs", "gbs", "seq", "dtype",
        "flash_attention", "recompute", "recompute_method", "recompute_layers", "zero", "schedule", "optimizer",
        "first_stage_layers", "last_stage_layers", "untied", "vocab", "device_memory", "records", "family"};
    return names;
}

FitRequest parse_fit(std::string_view rest) {
    std::istringstream words{std::string(rest)};
    FitRequest r;
    FitStrategy& s = r.strategy;
    s.layer.recompute = "none";  // `oprec fit`'s default (the layer front end's is selective)
    if (!(words >> r.config) || r.config.find('=') != std::string::npos)
        throw CommandError("`fit` needs a Hugging Face config.json first", "fit examples/hf/llama-2-7b.json tp=2 pp=2");
    std::string options;
    std::getline(words, options);
    if (options.find_first_not_of(" \t") == std::string::npos) return r;
    for (auto [key, value] : parse_assignments(options)) {
        for (char& c : key)
            if (c == '-') c = '_';
        const auto& names = fit_option_names();
        if (std::find(names.begin(), names.end(), key) == names.end()) {
            const std::string note = did_you_mean(key, names);
            throw CommandError(fmt::format("`fit` has no option `{}`", key),
                               note.empty() ? fmt::format("the options: {}", fmt::join(names, " ")) : note);
        }
        if (key == "gpus") s.gpus = integer(key, value, 1);
        else if (key == "tp") s.layer.tp = integer(key, value, 1);
        else if (key == "pp") s.pp = integer(key, value, 1);
        else if (key == "vpp") s.vpp = integer(key, value, 1);
        else if (key == "cp") s.layer.cp = integer(key, value, 1);
        else if (key == "ep") s.layer.ep = integer(key, value, 1);
        else if (key == "etp") s.layer.etp = integer(key, value, 1);
        else if (key == "mbs") s.layer.mbs = integer(key, value, 1);
        else if (key == "gbs") s.gbs = integer(key, value, 1);
        else if (key == "seq") s.layer.seq = integer(key, value, 1);
        else if (key == "recompute_layers") s.recompute_layers = integer(key, value, 1);
        else if (key == "vocab") s.vocab = integer(key, value, 1);
        else if (key == "first_stage_layers") s.first_stage_layers = integer(key, value, 0);
        else if (key == "last_stage_layers") s.last_stage_layers = integer(key, value, 0);
        else if (key == "zero") s.zero = static_cast<int>(integer(key, value, 0));
        else if (key == "sp") s.layer.sp = boolean(key, value);
        else if (key == "flash_attention") s.layer.flash_attention = boolean(key, value);
        else if (key == "untied") s.untied = boolean(key, value);
        else if (key == "cp_algo") s.layer.cp_algo = value;
        else if (key == "dtype") s.layer.dtype = value;
        else if (key == "recompute") s.layer.recompute = value;
        else if (key == "recompute_method") s.recompute_method = value;
        else if (key == "schedule") s.schedule = value;
        else if (key == "optimizer") s.optimizer = value;
        else if (key == "records") r.records = value;
        else if (key == "family") r.family = value;
        else if (key == "device_memory") {
            const auto bytes = parse_byte_size(value);
            if (!bytes || device_size_problem(*bytes))
                throw CommandError(fmt::format("device_memory={}: expected {}, e.g. 80GiB, 141GB", value,
                                               bytes ? *device_size_problem(*bytes) : "bytes"));
            s.device_bytes = *bytes;
        }
    }
    return r;
}

}  // namespace oprec::repl
