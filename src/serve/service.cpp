#include "serve/service.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace oprec::serve {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A request the client got wrong (400), or one the model cannot take (422).
struct BadRequest {
    int status;
    std::string message;
};

Reply error(int status, const std::string& message) { return {status, json{{"error", message}}.dump() + "\n"}; }

// The deepest nesting of arrays and objects, walked without recursion:
// nlohmann's dump recurses, and a config is dumped for the model to read.
std::size_t nesting(const json& root) {
    std::size_t deepest = 0;
    std::vector<std::pair<const json*, std::size_t>> todo{{&root, 1}};
    while (!todo.empty()) {
        const auto [j, depth] = todo.back();
        todo.pop_back();
        if (!j->is_structured()) continue;
        deepest = std::max(deepest, depth);
        for (const json& kid : *j) todo.emplace_back(&kid, depth + 1);
    }
    return deepest;
}
constexpr std::size_t kMaxNesting = 64;  // a config.json nests a few levels

// A body's keys: those named, else a 400 naming the first other.
void known_keys(const json& j, std::initializer_list<const char*> keys) {
    for (const auto& item : j.items()) {
        const std::string& key = item.key();  // a name, not a binding: clang 14 captures no bindings
        if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; }))
            throw BadRequest{400, fmt::format("unknown key `{}`", key)};
    }
}

json parse_body(std::string_view body) {
    if (body.size() > kMaxBodyBytes)
        throw BadRequest{413, fmt::format("the request is larger than {} MiB", kMaxBodyBytes >> 20)};
    json j = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) throw BadRequest{400, "the request's body is not JSON"};
    if (!j.is_object()) throw BadRequest{400, "the request's body must be a JSON object"};
    if (nesting(j) > kMaxNesting)
        throw BadRequest{400, fmt::format("the request nests arrays and objects deeper than {}", kMaxNesting)};
    return j;
}

std::int64_t integer(const json& v, const std::string& key, std::int64_t least, std::int64_t most) {
    if (!v.is_number_integer() && !(v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()))
        throw BadRequest{400, fmt::format("`{}` must be a whole number", key)};
    const double d = v.get<double>();
    if (d < static_cast<double>(least) || d > static_cast<double>(most))
        throw BadRequest{400, fmt::format("`{}` must be from {} to {}", key, least, most)};
    return static_cast<std::int64_t>(d);
}

std::string one_of(const json& v, const std::string& key, std::initializer_list<const char*> allowed) {
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    if (v.is_string())
        for (const char* a : allowed)
            if (v.get<std::string>() == a) return a;
    throw BadRequest{400, fmt::format("`{}` must be one of {}", key, list)};
}

bool boolean(const json& v, const std::string& key) {
    if (!v.is_boolean()) throw BadRequest{400, fmt::format("`{}` must be true or false", key)};
    return v.get<bool>();
}

constexpr std::int64_t kMaxDegree = 1 << 20;

// The strategy keys of docs/serve.md, each as `oprec fit`'s option of the same name.
FitStrategy strategy_of(const json& j) {
    FitStrategy s;
    s.layer.recompute = "none";  // as `oprec fit` (a layer's HfStrategy defaults to selective)
    if (j.is_null()) return s;
    if (!j.is_object()) throw BadRequest{400, "`strategy` must be an object"};
    for (const auto& [key, v] : j.items()) {
        if (v.is_null()) continue;  // the default
        if (key == "gpus") s.gpus = integer(v, key, 1, kMaxDegree);
        else if (key == "tp") s.layer.tp = integer(v, key, 1, kMaxDegree);
        else if (key == "pp") s.pp = integer(v, key, 1, kMaxDegree);
        else if (key == "vpp") s.vpp = integer(v, key, 1, 1024);
        else if (key == "cp") s.layer.cp = integer(v, key, 1, kMaxDegree);
        else if (key == "ep") s.layer.ep = integer(v, key, 1, kMaxDegree);
        else if (key == "etp") s.layer.etp = integer(v, key, 1, kMaxDegree);
        else if (key == "mbs") s.layer.mbs = integer(v, key, 1, kMaxDegree);
        else if (key == "gbs") s.gbs = integer(v, key, 1, std::int64_t{1} << 40);
        else if (key == "seq") s.layer.seq = integer(v, key, 1, std::int64_t{1} << 32);
        else if (key == "recompute") s.layer.recompute = one_of(v, key, {"none", "selective", "full"});
        else if (key == "zero") s.zero = static_cast<int>(integer(v, key, 0, 3));
        else if (key == "schedule") s.schedule = one_of(v, key, {"1f1b", "interleaved", "gpipe", "dualpipev", "zero-bubble"});
        else if (key == "dtype") s.layer.dtype = one_of(v, key, {"bf16", "fp16", "fp32"});
        else if (key == "optimizer") s.optimizer = one_of(v, key, {"adam", "sgd"});
        else if (key == "cp_algo") s.layer.cp_algo = one_of(v, key, {"ring", "ulysses", "hybrid"});
        else if (key == "sp") s.layer.sp = boolean(v, key);
        else if (key == "flash_attention") s.layer.flash_attention = boolean(v, key);
        else if (key == "device_gib") {
            if (!v.is_number() || !(v.get<double>() > 0) || v.get<double>() > 1e6)
                throw BadRequest{400, "`device_gib` must be a number of GiB above 0"};
            s.device_bytes = v.get<double>() * 1024 * 1024 * 1024;
        } else {
            throw BadRequest{400, fmt::format("unknown strategy key `{}`", key)};
        }
    }
    return s;
}

json strategy_json(const FitStrategy& s) {
    json j{{"gpus", s.gpus}, {"tp", s.layer.tp}, {"pp", s.pp}, {"vpp", s.vpp}, {"cp", s.layer.cp},
           {"ep", s.layer.ep}, {"etp", s.layer.etp}, {"mbs", s.layer.mbs}, {"recompute", s.layer.recompute},
           {"zero", s.zero}, {"optimizer", s.optimizer}, {"cp_algo", s.layer.cp_algo}, {"sp", s.layer.sp},
           {"flash_attention", s.layer.flash_attention}, {"device_gib", s.device_bytes / (1024.0 * 1024 * 1024)}};
    j["gbs"] = s.gbs ? json(*s.gbs) : json(nullptr);
    j["seq"] = s.layer.seq ? json(*s.layer.seq) : json(nullptr);
    j["schedule"] = s.schedule ? json(*s.schedule) : json(nullptr);
    j["dtype"] = s.layer.dtype ? json(*s.layer.dtype) : json(nullptr);
    return j;
}

int recompute_level(const std::string& r) { return r == "none" ? 0 : r == "selective" ? 1 : 2; }

}  // namespace

// What a fit or sweep request names: the records, the model, the strategy.
struct Request {
    std::string records;
    std::string model;                  // a bundled config's name, or
    std::optional<std::string> config;  // a config.json's text
    FitStrategy strategy;
};

namespace {
Request request_of(const json& j, const std::string& default_records) {
    Request r;
    r.records = default_records;
    if (j.contains("records")) {
        if (!j["records"].is_string()) throw BadRequest{400, "`records` must be a name"};
        r.records = j["records"].get<std::string>();
    }
    const bool named = j.contains("model") && !j["model"].is_null();
    const bool given = j.contains("config") && !j["config"].is_null();
    if (named == given) throw BadRequest{400, "give `model` (a bundled config's name) or `config` (a config.json object)"};
    if (named) {
        if (!j["model"].is_string()) throw BadRequest{400, "`model` must be a name"};
        r.model = j["model"].get<std::string>();
    } else {
        if (!j["config"].is_object()) throw BadRequest{400, "`config` must be a config.json object"};
        r.config = j["config"].dump();
    }
    r.strategy = strategy_of(j.contains("strategy") ? j["strategy"] : json(nullptr));
    return r;
}
}  // namespace

Service::Service(ServiceOptions options) : options_(std::move(options)) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(options_.models_dir, ec))
        if (e.path().extension() == ".json") model_names_.push_back(e.path().stem().string());
    std::sort(model_names_.begin(), model_names_.end());
}

namespace {
std::vector<std::string> records_names(const ServiceOptions& o) {
    std::vector<std::string> names{"calibrated", "reference"};
    if (o.default_records == "reference") std::swap(names[0], names[1]);
    if (o.records_file) names.insert(names.begin(), o.records_file->filename().string());
    return names;
}
}  // namespace

Reply Service::models() const {
    json models = json::array();
    for (const std::string& name : model_names_) models.push_back({{"name", name}, {"file", name + ".json"}});
    const auto names = records_names(options_);
    return {200, json{{"models", models}, {"records", names}, {"default_records", names.front()}}.dump() + "\n"};
}

std::shared_ptr<const Records> Service::records(const std::string& name, std::shared_ptr<LoadedRecords>& slot) {
    fs::path path;
    if (options_.records_file && name == options_.records_file->filename().string()) path = *options_.records_file;
    else if (name == "calibrated" || name == "reference") path = options_.records_dir / ("rank_" + name + ".rec");
    else throw BadRequest{400, fmt::format("no records `{}`: expected one of /api/models' `records`", name)};
    std::error_code ec;
    const auto mtime = fs::last_write_time(path, ec);
    const std::lock_guard<std::mutex> lock(mutex_);
    auto& loaded = loaded_[name];
    if (!loaded || loaded->mtime != mtime) {  // first use, or the file changed: read again
        RecordsOptions o = options_.records_options;
        o.profiles = "profiles.rec";
        try {
            auto fresh = std::make_shared<LoadedRecords>();
            fresh->mtime = mtime;
            fresh->records = std::make_shared<const Records>(Records::load(path, o));
            loaded = std::move(fresh);
        } catch (const RecordsError& e) {
            std::string text;
            for (const Problem& p : e.problems()) text += p.rendered;
            throw BadRequest{422, text.empty() ? std::string(e.what()) : text};
        }
    }
    slot = loaded;
    return loaded->records;
}

std::shared_ptr<const FitModel> Service::model(const Request& r) {
    std::shared_ptr<LoadedRecords> slot;
    const auto recs = records(r.records, slot);
    if (r.config)
        return std::make_shared<const FitModel>(*recs, std::string_view(*r.config), std::string("the config dropped on the page"));
    if (!std::binary_search(model_names_.begin(), model_names_.end(), r.model))
        throw BadRequest{400, fmt::format("no bundled model `{}`: /api/models lists them", r.model)};
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (auto it = slot->models.find(r.model); it != slot->models.end()) return it->second;
    }
    auto made = std::make_shared<const FitModel>(*recs, options_.models_dir / (r.model + ".json"));
    const std::lock_guard<std::mutex> lock(mutex_);
    return slot->models.emplace(r.model, std::move(made)).first->second;
}

Reply Service::fit(std::string_view body) {
    try {
        const json j = parse_body(body);
        known_keys(j, {"records", "model", "config", "strategy"});
        const Request r = request_of(j, records_names(options_).front());
        const std::shared_ptr<const FitModel> fitted = model(r);
        FitResult result = fitted->fit(r.strategy);
        result.parameters = fitted->parameters(r.strategy);
        json sources = json::object();
        // Paths under the data dir as the project names them (records/...), not where it is installed.
        const std::string data = options_.records_dir.parent_path().string() + "/";
        for (const FitTerm& t : result.terms) {
            const std::string where = t.where.starts_with(data) ? t.where.substr(data.size()) : t.where;
            sources[t.name] = {{"where", where}, {"formula", t.text}, {"comment", t.comment}, {"beside", t.beside}};
        }
        // The fit exactly as `oprec fit --format json` writes it, then its terms' sources.
        std::string out = result.to_json(-1);
        while (!out.empty() && (out.back() == '\n' || out.back() == '}')) {
            const bool brace = out.back() == '}';
            out.pop_back();
            if (brace) break;
        }
        return {200, out + ",\"sources\":" + sources.dump() + "}\n"};
    } catch (const BadRequest& e) {
        return error(e.status, e.message);
    } catch (const LayerError& e) {
        return error(422, e.what());
    } catch (const PricingError& e) {
        return error(422, e.what());
    }
}

Reply Service::sweep(std::string_view body) {
    try {
        const json j = parse_body(body);
        known_keys(j, {"records", "model", "config", "strategy", "grid"});
        const Request r = request_of(j, records_names(options_).front());
        const json grid = j.contains("grid") ? j["grid"] : json::object();
        if (!grid.is_object()) throw BadRequest{400, "`grid` must be an object of lists"};
        static const std::set<std::string> keys{"tp", "pp", "vpp", "cp", "ep", "etp", "mbs", "zero", "recompute"};
        for (const auto& [key, v] : grid.items()) {
            if (!keys.contains(key)) throw BadRequest{400, fmt::format("unknown grid key `{}`", key)};
            if (!v.is_array() || v.empty() || v.size() > 64)
                throw BadRequest{400, fmt::format("grid `{}` must be a list of 1 to 64 values", key)};
            if (std::any_of(v.begin(), v.end(), [](const json& x) { return x.is_null(); }))
                throw BadRequest{400, fmt::format("grid `{}` holds null: list the values to try", key)};
        }
        // Each axis: the grid's values, else the base strategy's one.
        auto axis = [&](const std::string& key, json base) {
            return grid.contains(key) ? grid[key] : json::array({std::move(base)});
        };
        const FitStrategy& b = r.strategy;
        json defaults = json::object();
        if (!grid.contains("tp")) defaults["tp"] = json::array({1, 2, 4, 8});
        if (!grid.contains("pp")) defaults["pp"] = json::array({1, 2, 4, 8});
        if (!grid.contains("recompute")) defaults["recompute"] = json::array({"none", "selective", "full"});
        const std::vector<std::pair<std::string, json>> axes{
            {"tp", defaults.value("tp", axis("tp", b.layer.tp))}, {"pp", defaults.value("pp", axis("pp", b.pp))},
            {"vpp", axis("vpp", b.vpp)}, {"cp", axis("cp", b.layer.cp)}, {"ep", axis("ep", b.layer.ep)},
            {"etp", axis("etp", b.layer.etp)}, {"mbs", axis("mbs", b.layer.mbs)}, {"zero", axis("zero", b.zero)},
            {"recompute", defaults.value("recompute", axis("recompute", b.layer.recompute))}};
        std::size_t count = 1;
        for (const auto& [key, values] : axes) count *= values.size();
        if (count > kMaxSweepPoints)
            throw BadRequest{400, fmt::format("the grid has {} strategies: at most {} in one request", count,
                                              kMaxSweepPoints)};
        const auto fitted = model(r);
        json base = strategy_json(b);
        json points = json::array();
        std::size_t skipped = 0;
        std::optional<std::string> refused;  // why the first point skipped cannot run
        std::vector<std::size_t> at(axes.size(), 0);
        for (std::size_t n = 0; n < count; ++n) {
            json s = base;
            for (std::size_t a = 0; a < axes.size(); ++a) s[axes[a].first] = axes[a].second[at[a]];
            for (std::size_t a = 0; a < axes.size() && ++at[a] == axes[a].second.size(); ++a) at[a] = 0;
            const FitStrategy strategy = strategy_of(s);
            if (strategy.gpus % (strategy.layer.tp * strategy.pp * strategy.layer.cp) != 0) {
                ++skipped;
                if (!refused)
                    refused = fmt::format("gpus {} is not a multiple of tp * pp * cp = {} * {} * {}", strategy.gpus,
                                          strategy.layer.tp, strategy.pp, strategy.layer.cp);
                continue;
            }
            try {
                const FitResult f = fitted->fit(strategy);
                points.push_back({{"strategy", s}, {"peak_bytes", f.peak_bytes},
                                  {"peak_stage", f.peak_stage}, {"fits", f.fits},
                                  {"recompute_level", recompute_level(strategy.layer.recompute)}});
            } catch (const LayerError& e) {
                ++skipped;  // a strategy this model cannot take (layers that do not split, ...)
                if (!refused) refused = e.what();
            } catch (const PricingError& e) {
                // The records' own error (a division by zero) is the answer; a
                // product past 64 bits at a huge mbs only skips the point.
                if (e.kind() != PricingError::Kind::Overflow) throw;
                ++skipped;
                if (!refused) refused = e.what();
            }
        }
        // No point priced: why the first could not be, not an empty sweep.
        if (points.empty() && refused) return error(422, *refused);
        std::stable_sort(points.begin(), points.end(), [](const json& x, const json& y) {
            return x["peak_bytes"].get<double>() < y["peak_bytes"].get<double>();
        });
        return {200, json{{"points", points}, {"skipped", skipped}}.dump() + "\n"};
    } catch (const BadRequest& e) {
        return error(e.status, e.message);
    } catch (const LayerError& e) {
        return error(422, e.what());
    } catch (const PricingError& e) {
        return error(422, e.what());
    }
}

}  // namespace oprec::serve
