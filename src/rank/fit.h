// The whole-rank memory model: every byte a rank holds, per pipeline stage,
// from records that state it (records/rank*.rec). The C++ here lays the
// model's layers out on stages and chunks, prices each layer kind with the
// op records, and binds the sums the terms read; every formula is the
// records' (docs/fit.md lists the names bound and the fns called).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "check/program.h"
#include "hf/model.h"
#include "model/evaluator.h"
#include "rank/strategy.h"

namespace oprec::rank {

struct StageFit {
    std::int64_t stage = 0;
    std::int64_t layers = 0;       // transformer layers on the stage, every chunk
    std::vector<Value> bytes;      // each of Program::terms, summed over the stage's model chunks
    Value total;                   // the counted terms' sum, from 0.0 in order
};

struct Fit {
    std::string strategy;          // describe(): the strategy with every default settled
    std::int64_t dp = 1;           // data-parallel size
    std::int64_t micro_batches = 1;  // per step, per pipeline
    std::vector<StageFit> stages;  // in pipeline order
    std::size_t peak_stage = 0;
    double peak_bytes = 0;
    double device_bytes = 0;
    bool fits = false;
};

// A fit's error: a strategy the model cannot take (sizes that do not
// divide, a stage with no layer) or a term the records cannot evaluate.
class FitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class RankModel {
public:
    // `program`: records with terms and the op records they import; `model`:
    // the Hugging Face model (both must outlive this). Throws FitError when
    // the records state no term or lack a fn the model calls.
    RankModel(const Program& program, const hf::HfModel& model);

    // Throws FitError naming the option or the term at fault.
    Fit fit(const RankStrategy& strategy) const;

    // The names a term may read that the fit binds, with what each means (docs/fit.md).
    static const std::vector<std::pair<std::string, std::string>>& bound_names();

private:
    // A records fn `layer_NAME()`, summed over a chunk's layers into `chunk_NAME`.
    struct LayerFn {
        std::string name;                // layer_NAME
        NodeId body = 0;
        std::optional<NameId> chunk_name;  // chunk_NAME, where a formula reads it
    };

    // What one layer of a kind holds and keeps, one micro-batch.
    struct KindFacts {
        std::vector<Value> per_layer;  // each layer_NAME(), in layer_fns_' order
        Value plain_bytes;             // activations kept with nothing recomputed
        Value kept_bytes;              // under the strategy's setting (selective, or plain)
        std::optional<Value> recomputed_bytes;  // recomputed_layer_bytes(), where the records state it
    };
    // Everything that depends on the layer strategy alone: a sweep over the
    // pipeline, ZeRO and the schedule prices its layers once.
    struct Prepared {
        std::string key;                        // the layer strategy it was made for
        std::map<std::string, KindFacts> kinds;
        std::vector<const KindFacts*> by_layer;  // each layer's kind's, in the stack's order
        Bindings names;                         // the representative layer's fields and the run settings
    };
    std::shared_ptr<const Prepared> prepare(const hf::Strategy& layer_strategy) const;

    const Program& program_;
    const hf::HfModel& model_;
    RecordsEvaluator records_;
    std::vector<LayerFn> layer_fns_;
    std::optional<NodeId> recomputed_layer_bytes_;
    std::vector<std::optional<NameId>> bound_;  // bound_names()' ids, where a formula reads them
    mutable std::mutex last_mutex_;
    // The last layer strategies prepared, the newest last: a sweep tries
    // each strategy under each recompute setting in turn.
    mutable std::vector<std::shared_ptr<const Prepared>> recent_;
};

}  // namespace oprec::rank
