// The op profiles of the architecture families, checked: per layer kind the
// op counts in the op vector's order, the kind's flavours, the family's
// default kind, run and model defaults, and the model-name prefixes that
// choose it; and the run defaults every family starts from (DEFAULT_RUN).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"
#include "diag/source.h"
#include "syntax/ast.h"
#include "value/value.h"

namespace oprec {

struct ProfileSetting {
    std::string name;
    Value value;
    Span span;
    // A model default's own name prefixes (lower case): it holds for a model
    // whose name starts with one of them; none: for every model of the family.
    std::vector<std::string> matches;
};

// What a kind changes of the model's layer: its attention (full or
// linear) and its feed-forward (dense, moe, or the model's own when unstated).
enum class AttentionFlavour : std::uint8_t { Full, Linear };
enum class FfnFlavour : std::uint8_t { Model, Dense, Moe };

struct LayerKind {
    std::string name;
    AttentionFlavour attention = AttentionFlavour::Full;
    FfnFlavour ffn = FfnFlavour::Model;
    std::vector<std::int64_t> counts;  // by the op vector's order, every op stated
    Span span;
};

struct OpProfile {
    std::string name;
    std::vector<std::string> matches;  // lower-case prefixes of the model names it takes
    std::vector<LayerKind> kinds;
    std::optional<std::string> default_kind;  // none: the layer stack must name each layer's kind
    std::vector<ProfileSetting> run;    // over the run defaults
    std::vector<ProfileSetting> model;  // model fields the family states when the model does not
    Span span;

    const LayerKind* find_kind(std::string_view kind) const;
    // The family's default of `field` for every model (one with no prefixes of its own).
    const ProfileSetting* find_model(std::string_view field) const;
    // The default of `field` for the model named `model_name` (lower case):
    // the one whose own prefix starting the name is longest, else the
    // family's for every model; nullptr when neither.
    const ProfileSetting* model_default(std::string_view field, std::string_view model_name) const;
};

struct Profiles {
    std::vector<ProfileSetting> run_defaults;  // DEFAULT_RUN
    std::vector<OpProfile> families;           // in declaration order

    bool empty() const { return families.empty() && run_defaults.empty(); }
    const OpProfile* find(std::string_view family) const;
    // The family's run setting, else the run default; nullopt when neither states it.
    std::optional<Value> run_setting(const OpProfile& family, std::string_view name) const;
};

// Checks every `run` and `profile` declaration of `modules` against the op
// vector and the field schema, appending a diagnostic per fault. Returns the
// number of errors found.
int check_profiles(const std::vector<ast::Module>& modules, const std::vector<std::string>& op_vector,
                   const std::vector<std::string>& schema_fields, Profiles& out, std::vector<Diagnostic>& diags);

}  // namespace oprec
