// A Hugging Face config.json, read as the reference's HF model spec reads a
// Transformers config: each canonical key from the first of its aliases
// present (null counts as absent), the text tower of a multimodal config
// (`text_config`) before the top level. Every bad value is reported naming
// the key as the file spells it.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace oprec::hf {

// A config that cannot be priced: the message names the file and the key.
class HfError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class HfConfig {
public:
    // Parses the text of a config.json. Throws HfError for bad JSON or a
    // config that is not an object.
    static HfConfig parse(std::string_view text, std::string source_name);
    // Reads and parses the file (a folder: its config.json); HfError when it cannot be read.
    static HfConfig read(const std::string& path);

    const std::string& source() const { return source_; }

    // The name that chooses the family and the model's defaults: the text
    // tower's `model_type` (a multimodal wrapper's text_config, what is
    // priced; transformers ties its embeddings by it too), else the
    // top-level one, "" when neither states one.
    std::string model_type() const;
    // The towers beside the text model a multimodal config states
    // (`vision_config`, `audio_config`), which nothing prices.
    std::vector<std::string> other_towers() const;

    // The key as the file spells it, where the canonical key was found
    // ("text_config.n_routed_experts"); the first alias when absent.
    std::string key_name(std::string_view canonical) const;
    bool has(std::string_view canonical) const { return find(canonical).has_value(); }

    // A size or count: a whole number, not negative (not zero, where
    // `positive`). nullopt when absent. HfError naming the key otherwise.
    std::optional<std::int64_t> count(std::string_view canonical, bool positive = false) const;
    // As count(), HfError when absent ("config.json has no `hidden_size`").
    std::int64_t required(std::string_view canonical, bool positive = true) const;
    // A true/false key; nullopt when absent.
    std::optional<bool> flag(std::string_view canonical) const;
    std::optional<std::string> text(std::string_view canonical) const;
    // A list of whole numbers from 0 (`mlp_only_layers`); nullopt when absent.
    std::optional<std::vector<std::int64_t>> indices(std::string_view canonical) const;
    // A list of strings (`layer_types`); nullopt when absent.
    std::optional<std::vector<std::string>> names(std::string_view canonical) const;

    // "FILE: `key` ..." for messages about a key.
    [[noreturn]] void fail(std::string_view canonical, const std::string& what) const;

private:
    struct Found {
        const nlohmann::json* value;
        std::string key;  // as spelt, with the text_config. prefix where nested
    };
    std::optional<Found> find(std::string_view canonical) const;

    std::string source_;
    nlohmann::json doc_;
};

// The aliases of a canonical key, first present wins (docs/domain.md §2.3, the domain
// note, plus Mixtral's raw `num_local_experts`). A key with no aliases is
// its own.
std::vector<std::string_view> aliases(std::string_view canonical);

}  // namespace oprec::hf
