#include "hf/hf_config.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "diag/read_file.h"
#include "value/text.h"

namespace oprec::hf {

using nlohmann::json;

namespace {

struct Alias {
    std::string_view canonical;
    std::vector<std::string_view> keys;
};

// _hf_model_spec.py's table, newest; num_local_experts is what Mixtral's raw
// JSON says (Transformers maps num_experts onto it), and the GPT-style
// families' keys.
const std::vector<Alias>& alias_table() {
    static const std::vector<Alias> table{
        {"num_experts", {"num_experts", "n_routed_experts", "num_local_experts"}},
        {"num_shared_experts", {"n_shared_experts", "num_shared_experts"}},
        {"mtp_depth", {"mtp_depth", "num_nextn_predict_layers", "mtp_num_hidden_layers"}},
        {"qkv_bias", {"qkv_bias", "attention_bias", "bias", "enable_bias"}},
        {"o_bias", {"o_bias", "attention_bias", "bias", "enable_bias"}},
        {"mlp_bias", {"mlp_bias", "bias", "enable_bias"}},
        // The GPT-style configs' spellings (their Transformers attribute maps;
        // Falcon's `bias`, OPT's `enable_bias` above).
        {"hidden_size", {"hidden_size", "n_embd", "n_embed"}},
        {"num_hidden_layers", {"num_hidden_layers", "n_layer"}},
        {"num_attention_heads", {"num_attention_heads", "n_head"}},
        {"num_key_value_heads", {"num_key_value_heads", "num_kv_heads"}},
        {"intermediate_size", {"intermediate_size", "n_inner", "ffn_dim", "ffn_hidden_size"}},
        {"max_position_embeddings", {"max_position_embeddings", "n_positions"}},
        {"qk_norm", {"qk_norm", "use_qk_norm", "qk_layernorm"}},
        {"torch_dtype", {"dtype", "torch_dtype"}},
    };
    return table;
}

// A config's string as it may be printed: control bytes (a downloaded
// config's ESC sequences would retitle or clear the terminal) as \xNN.
std::string visible(const std::string& text) {
    std::string out;
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        out += u < 0x20 || u == 0x7f ? fmt::format("\\x{:02x}", u) : std::string(1, c);
    }
    return out;
}

std::string describe(const json& v) {
    std::string text = v.dump();
    return text.size() > 40 ? text.substr(0, 37) + "..." : text;
}

}  // namespace

std::vector<std::string_view> aliases(std::string_view canonical) {
    for (const Alias& a : alias_table())
        if (a.canonical == canonical) return a.keys;
    return {canonical};
}

HfConfig HfConfig::parse(std::string_view text, std::string source_name) {
    HfConfig out;
    out.source_ = std::move(source_name);
    // Messages dump values and the document is copied, both by recursion: a
    // config nested past any model's is refused before it is parsed.
    constexpr std::size_t kMaxNesting = 64;
    if (const auto at = json_nested_past(text, kMaxNesting)) {
        const auto [line, col] = line_col(text, *at + 1);
        throw HfError(fmt::format("{}:{}:{}: arrays and objects nested deeper than {}", out.source_, line, col, kMaxNesting));
    }
    try {
        out.doc_ = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        throw HfError(json_syntax_error(out.source_, text, e));
    } catch (const json::out_of_range& e) {
        // A float literal beyond a double's range ("1e505"): nlohmann names the literal in quotes.
        const std::string what = e.what();
        const auto open = what.find('\''), close = what.rfind('\'');
        const std::string literal = open != std::string::npos && close > open ? what.substr(open + 1, close - open - 1)
                                                                              : std::string("a number");
        throw HfError(fmt::format("{}: number {} is beyond a float's range", out.source_, literal));
    }
    if (!out.doc_.is_object())
        throw HfError(fmt::format("{}: a config.json is a JSON object, not {}", out.source_, out.doc_.type_name()));
    if (out.doc_.contains("text_config") && !out.doc_["text_config"].is_null() && !out.doc_["text_config"].is_object())
        throw HfError(fmt::format("{}: `text_config` is {}, not an object", out.source_, out.doc_["text_config"].type_name()));
    return out;
}

HfConfig HfConfig::read(const std::string& path) {
    // A model's folder (a Hub snapshot, save_pretrained's output) stands for
    // its config.json, as transformers' from_pretrained reads it.
    std::error_code ec;
    std::string file = path;
    if (std::filesystem::is_directory(path, ec)) {
        file = (std::filesystem::path(path) / "config.json").string();
        if (!std::filesystem::exists(file, ec))
            throw HfError(fmt::format("{}: a folder with no config.json (a Hugging Face model's folder holds one)", path));
    }
    std::string why;
    std::optional<std::string> text = read_file_capped(file, kMaxDocumentBytes, why);
    if (!text) throw HfError(fmt::format("{}: cannot be read: {}", file, why));
    return parse(std::move(*text), file);
}

std::optional<HfConfig::Found> HfConfig::find(std::string_view canonical) const {
    const std::vector<std::string_view> keys = aliases(canonical);
    auto in = [&](const json& object, std::string_view prefix) -> std::optional<Found> {
        for (std::string_view key : keys) {
            auto it = object.find(std::string(key));
            if (it != object.end() && !it->is_null()) return Found{&*it, std::string(prefix) + std::string(key)};
        }
        return std::nullopt;
    };
    auto text = doc_.find("text_config");
    if (text != doc_.end() && text->is_object())
        if (auto f = in(*text, "text_config.")) return f;
    return in(doc_, "");
}

std::string HfConfig::key_name(std::string_view canonical) const {
    if (auto f = find(canonical)) return f->key;
    return std::string(aliases(canonical).front());
}

void HfConfig::fail(std::string_view canonical, const std::string& what) const {
    throw HfError(fmt::format("{}: `{}` {}", source_, key_name(canonical), what));
}

std::string HfConfig::model_type() const {
    auto text = doc_.find("text_config");
    if (text != doc_.end() && text->is_object()) {
        auto inner = text->find("model_type");
        if (inner != text->end() && inner->is_string() && !inner->get<std::string>().empty())
            return visible(inner->get<std::string>());
    }
    auto top = doc_.find("model_type");
    if (top == doc_.end() || top->is_null()) return "";
    // A number here was read as no model_type, and priced by the default profile without a word.
    if (!top->is_string())
        throw HfError(fmt::format("{}: `model_type` is {}: expected a string", source_, describe(*top)));
    return visible(top->get<std::string>());
}

std::vector<std::string> HfConfig::other_towers() const {
    std::vector<std::string> out;
    for (const char* key : {"vision_config", "audio_config", "speech_config"}) {
        auto it = doc_.find(key);
        if (it != doc_.end() && it->is_object() && !it->empty()) out.emplace_back(key);
    }
    return out;
}

std::optional<std::int64_t> HfConfig::count(std::string_view canonical, bool positive) const {
    auto f = find(canonical);
    if (!f) return std::nullopt;
    const json& v = *f->value;
    std::int64_t n = 0;
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            fail(canonical, fmt::format("is {}: too large", describe(v)));
        n = v.get<std::int64_t>();
    } else if (v.is_number_float() && std::isfinite(v.get<double>()) && v.get<double>() == std::floor(v.get<double>()) &&
               std::fabs(v.get<double>()) < 9.0e15) {
        n = static_cast<std::int64_t>(v.get<double>());  // 4096.0: a whole number written as a float
    } else {
        fail(canonical, fmt::format("is {}: expected a whole number", describe(v)));
    }
    if (n < 0) fail(canonical, fmt::format("is {}: a size or count cannot be negative", n));
    if (positive && n == 0) fail(canonical, "is 0: it must be at least 1");
    return n;
}

std::int64_t HfConfig::required(std::string_view canonical, bool positive) const {
    auto n = count(canonical, positive);
    if (!n) {
        std::string also;
        const auto keys = aliases(canonical);
        for (std::size_t i = 1; i < keys.size(); ++i) also += fmt::format(" or `{}`", keys[i]);
        throw HfError(fmt::format("{}: missing key `{}`{}: the layer cannot be derived without it", source_,
                                  keys.front(), also));
    }
    return *n;
}

std::optional<bool> HfConfig::flag(std::string_view canonical) const {
    auto f = find(canonical);
    if (!f) return std::nullopt;
    if (!f->value->is_boolean()) fail(canonical, fmt::format("is {}: expected true or false", describe(*f->value)));
    return f->value->get<bool>();
}

std::optional<std::string> HfConfig::text(std::string_view canonical) const {
    auto f = find(canonical);
    if (!f) return std::nullopt;
    if (!f->value->is_string()) fail(canonical, fmt::format("is {}: expected a string", describe(*f->value)));
    return visible(f->value->get<std::string>());
}

std::optional<std::vector<std::int64_t>> HfConfig::indices(std::string_view canonical) const {
    auto f = find(canonical);
    if (!f) return std::nullopt;
    const json& v = *f->value;
    if (!v.is_array()) fail(canonical, fmt::format("is {}: expected a list of layer indices", describe(v)));
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_number_integer() || v[i].get<std::int64_t>() < 0)
            throw HfError(fmt::format("{}: `{}[{}]` is {}: expected a layer index", source_, f->key, i, describe(v[i])));
        out.push_back(v[i].get<std::int64_t>());
    }
    return out;
}

std::optional<std::vector<std::string>> HfConfig::names(std::string_view canonical) const {
    auto f = find(canonical);
    if (!f) return std::nullopt;
    const json& v = *f->value;
    if (!v.is_array()) fail(canonical, fmt::format("is {}: expected a list of names", describe(v)));
    std::vector<std::string> out;
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (!v[i].is_string())
            throw HfError(fmt::format("{}: `{}[{}]` is {}: expected a name", source_, f->key, i, describe(v[i])));
        out.push_back(v[i].get<std::string>());
    }
    return out;
}

}  // namespace oprec::hf
