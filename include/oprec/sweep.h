// A Hugging Face model priced over strategies and every recompute setting,
// as `oprec sweep` prices it: per strategy and layer kind, one layer's
// bytes kept plainly, fully recomputed, and under each of the 2^n selective
// switch settings; the model's bytes (every layer's); and the Pareto front
// of the model's bytes against the ops recomputed. The records must be
// loaded with op profiles (RecordsOptions::profiles).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oprec/hf.h"

namespace oprec {

namespace detail {
struct SweepState;
}

struct SweepSetting {
    Recompute kind = Recompute::None;  // None: kept plainly; Full; Selective: by switches_off
    std::string name;           // "plain", "full", "selective: softmax dropout"
    std::vector<std::string> switches_off;  // selective: the switches it turns off, in the records' order
    std::size_t recomputed = 0; // ops and parts it recomputes (full: all)
};

// The model a sweep prices: its layers by kind, in stack order.
struct SweepModel {
    std::string config;      // the config.json as named
    std::string model_type;  // as the config states it; empty when it states none
    std::string family;      // the op profile priced
    std::size_t layers = 0;
    std::vector<std::pair<std::string, std::size_t>> kinds;  // each kind, and how many layers are of it
};

struct SweepKind {
    std::string kind;           // the layer kind ("decoder", "moe", ...)
    std::size_t layers = 0;     // how many layers of the model are of it
    std::vector<Number> bytes;  // one layer's, by setting (Sweep::settings' order)
};

struct SweepRow {
    HfStrategy settled;                  // the strategy priced: the model's seq and dtype where it left them
    std::string strategy;                // that, described ("tp=4 cp=2 ring sp ...")
    std::optional<std::string> skipped;  // why the model cannot take it (then nothing below)
    std::vector<SweepKind> kinds;
    std::vector<double> model_bytes;     // Σ layers × bytes, by setting
    std::vector<std::size_t> front;      // the Pareto front: setting indices, fewest recomputed first
};

class Sweep {
public:
    // Throws LayerError for a config that cannot be read or a family that is not there.
    Sweep(const Records& records, const std::filesystem::path& config, std::optional<std::string> family = {});
    Sweep(const Sweep&) = delete;
    Sweep& operator=(const Sweep&) = delete;
    Sweep(Sweep&&) noexcept;
    Sweep& operator=(Sweep&&) noexcept;
    ~Sweep();

    const SweepModel& model() const;
    // Plain, full, then every selective setting from all switches kept to none.
    const std::vector<SweepSetting>& settings() const;
    // One strategy (its `recompute` and `switches` are not used: every
    // setting is priced). Throws LayerError for a cp_algo, dtype or
    // recompute it does not know, PricingError where the records raise.
    SweepRow price(const HfStrategy& strategy) const;

private:
    std::unique_ptr<detail::SweepState> state_;
};

}  // namespace oprec
