// A model priced over a grid of strategies and every recompute setting:
// per strategy and layer kind, the activation bytes of one layer kept
// plainly, fully recomputed, and under each of the 2^n selective switch
// settings, each priced exactly (LayerSettings), and the Pareto front of the
// model's bytes against the ops recomputed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hf/model.h"
#include "hf/strategy.h"
#include "model/evaluator.h"

namespace oprec::hf {

// One recompute setting of a layer.
struct Setting {
    enum class Kind : std::uint8_t { Plain, Full, Selective };
    Kind kind = Kind::Plain;
    std::uint32_t keep_bits = 0;  // Selective: bit i keeps the program's switch i
};

// What one strategy costs: per layer kind, one layer's bytes under each
// setting (in the sweep's settings order), and the model's bytes (every
// layer's, Σ layers × bytes). `skipped` says why a strategy the model cannot
// take (tp not dividing the heads, ...) was not priced.
struct KindBytes {
    std::string kind;
    std::size_t layers = 0;
    std::vector<Value> bytes;
};
struct StrategyResult {
    Strategy strategy;
    std::optional<std::string> skipped;
    std::vector<KindBytes> kinds;
    std::vector<double> model_bytes;
};

class Sweep {
public:
    Sweep(const RecordsEvaluator& records, const HfModel& model);

    const HfModel& model() const { return model_; }
    const Program& program() const { return records_.program(); }
    // Plain, full, then every selective setting from all switches kept to none.
    const std::vector<Setting>& settings() const { return settings_; }
    // The layer kinds priced, in stack order, with their layer counts.
    const std::vector<std::pair<std::string, std::size_t>>& kinds() const { return kinds_; }

    // How many of the records' ops and parts a setting recomputes (full: all).
    std::size_t recomputed_count(const Setting& s) const;
    // The switches a selective setting recomputes; {} for plain, {"full"} for full.
    std::vector<std::string> recomputed(const Setting& s) const;
    // "plain", "full", "selective: softmax dropout" ("selective: none").
    std::string setting_name(const Setting& s) const;

    // Prices every kind under every setting. An EvalError of the records
    // propagates; a strategy the model cannot take comes back skipped.
    StrategyResult price(const Strategy& strategy) const;

    // The settings on the Pareto front of model bytes against ops
    // recomputed (indices into settings(), fewest recomputed first): each
    // keeps strictly fewer bytes than any setting recomputing fewer ops.
    std::vector<std::size_t> front(const StrategyResult& result) const;

private:
    const RecordsEvaluator& records_;
    const HfModel& model_;
    std::vector<Setting> settings_;
    std::vector<std::size_t> recomputed_;  // by setting
    std::vector<std::pair<std::string, std::size_t>> kinds_;
};

}  // namespace oprec::hf
