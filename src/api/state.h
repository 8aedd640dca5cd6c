// What the public handles hold (include/oprec/): the checked program with
// its evaluator, and a layer bound to it. Private to src/api.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "check/program.h"
#include "diag/diagnostic.h"
#include "eval/expression.h"
#include "model/layer.h"
#include "model/evaluator.h"
#include "syntax/ast.h"
#include "oprec/errors.h"
#include "oprec/expression.h"
#include "oprec/number.h"
#include "oprec/records.h"

namespace oprec::detail {

struct RecordsState {
    std::string source;
    Program program;
    // Refers to `program`: the state is made once on the heap and never moves.
    std::unique_ptr<const RecordsEvaluator> evaluator;
    std::vector<std::string> record_names;
    std::vector<std::string> slot_names;
    // What the program was checked from (imports first), to write it out again.
    std::vector<ast::Module> modules;
    std::vector<std::filesystem::path> files;  // parallel to modules
    std::vector<FieldDecl> schema;
    // The names a layer may state that something reads (the schema's fields,
    // the formulas' names; not total or kv_shards): Layer::unread_fields'
    // quick answer, asked for every line of `eval --jsonl`.
    std::unordered_set<std::string> readable;
};

struct LayerState {
    std::shared_ptr<const RecordsState> records;
    std::string source;  // the document's name, for messages
    LayerDoc doc;
    PreparedLayer prepared;
    // A pricing's scratch, and how many pricings the untyped run made since
    // the layer was bound or changed type: the second one types the run.
    PartBytes scratch;
    int untyped_pricings = 0;
    // A Hugging Face layer's input (hf_layer): what it keeps when fully
    // recomputed, from its fields as they are now.
    std::function<Value(const LayerDoc&)> full_input;

    LayerState(std::shared_ptr<const RecordsState> r, std::string name, LayerDoc d)
        : records(std::move(r)), source(std::move(name)), doc(std::move(d)), prepared(*records->evaluator, doc, nullptr, nullptr, /*typed=*/false) {}
};

// Reaches the handles' private state.
// An Expression's compiled form (oprec/expression.h).
struct ExpressionState {
    std::string source;
    CompiledExpr compiled;
};

struct Access {
    static Records records(std::shared_ptr<const RecordsState> s) { return Records(std::move(s)); }
    static const std::shared_ptr<const RecordsState>& state(const Records& r) { return r.state_; }
    static Layer layer(std::unique_ptr<LayerState> s) { return Layer(std::move(s)); }
    static LayerState& state(const Layer& l) { return *l.state_; }
    static const ExpressionState& state(const Expression& e) { return *e.state_; }
};

Number to_number(const Value& v);
Value to_value(const Number& n);
// An evaluation error as the public type, its position from the records' sources.
PricingError pricing_error(const EvalError& e, const SourceMap& sources);
Position position(const Span& span, const SourceMap& sources);
// Records::load with the run that prices them chosen (debug.h's door).
Records load_records(const std::filesystem::path& path_or_name, const RecordsOptions& options, RunTier tier);
// Expression::evaluate; `tree`: walking its tree (debug::evaluate_tree).
Number evaluate(const ExpressionState& expr, const Expression::Lookup& lookup, std::vector<std::string>* reads,
                bool tree);
// A load's (or an expression's) diagnostics as the public error, with the
// files the load read.
RecordsError records_error(const std::vector<Diagnostic>& diagnostics, const SourceMap& sources,
                           std::vector<std::filesystem::path> files = {});

}  // namespace oprec::detail
