#include "diag/codes.h"

#include <algorithm>

namespace oprec {

const std::vector<CodeInfo>& all_codes() {
    static const std::vector<CodeInfo> codes{
        // ---- the front end: src/syntax
        {"E0001", Severity::Error, "syntax-error", "the text is not a declaration or expression of the language"},
        {"E0002", Severity::Error, "invalid-utf8", "the file is not valid UTF-8 text"},
        {"E0003", Severity::Error, "nested-too-deep", "brackets, an expression or imports nested deeper than the front end allows"},
        {"E0004", Severity::Error, "fmt-would-change-meaning", "oprec fmt refused a layout that would not parse to the same module (a formatter bug)"},
        // ---- the checks: src/check and src/code/compile.cpp
        {"E0101", Severity::Error, "duplicate-declaration", "a name, clause or vocabulary declared twice"},
        {"E0102", Severity::Error, "missing-vocabulary", "no `switches`, `layerparts` or `opvector` declaration"},
        {"E0103", Severity::Error, "unknown-op", "an op not in the op vector, or `needs` naming no op or part"},
        {"E0104", Severity::Error, "missing-op", "an op of the op vector with no record"},
        {"E0105", Severity::Error, "unknown-switch", "a switch the vocabulary does not declare"},
        {"E0106", Severity::Error, "unknown-layer-part", "a slot in a layer part the vocabulary does not declare"},
        {"E0107", Severity::Error, "bad-part", "a part of no op, a part with no switch, or an op of the op vector as a part"},
        {"E0108", Severity::Error, "unknown-slot-entry", "a slot entry naming neither an op nor a part"},
        {"E0109", Severity::Error, "formula-without-total", "a slot's formula that does not read `total`"},
        {"E0110", Severity::Error, "not-arithmetic", "a string, None, an imaginary number or the like in a formula"},
        {"E0111", Severity::Error, "not-a-function", "a call of something other than max, min or a declared fn"},
        {"E0112", Severity::Error, "argument-count", "a call with the wrong number of arguments"},
        {"E0113", Severity::Error, "total-outside-formula", "`total` read outside a slot's `bytes` formula"},
        {"E0114", Severity::Error, "recursive-fn", "a fn that calls itself, directly or through others"},
        {"E0115", Severity::Error, "default-not-constant", "a default that is not a constant number"},
        {"E0116", Severity::Error, "slot-without-formula", "a slot with no `bytes = ...` formula"},
        {"E0117", Severity::Error, "bad-fn", "a fn named like a built-in, with too many parameters, or too costly to call"},
        {"E0118", Severity::Error, "unknown-field-type", "a field schema type other than int, float, bool or str"},
        {"E0120", Severity::Error, "import-missing", "an import of a file found nowhere on the search path"},
        {"E0121", Severity::Error, "import-cycle", "a file that imports itself through its imports"},
        {"E0122", Severity::Error, "unreadable-file", "a file that cannot be read"},
        // ---- the op profiles: src/check/profiles.cpp
        {"E0140", Severity::Error, "profiles-without-op-vector", "op profiles in a program with no `opvector` to count against"},
        {"E0141", Severity::Error, "bad-op-counts", "a kind with too few or too many op counts, an op left uncounted, or a profile with no kind"},
        {"E0142", Severity::Error, "unknown-counted-op", "a kind counting an op by a name the op vector does not have"},
        {"E0143", Severity::Error, "unknown-flavour", "a kind's flavour other than `attention full|linear` or `ffn dense|moe`"},
        {"E0144", Severity::Error, "bad-default-kind", "a default kind that is not a kind of the profile, or stated twice"},
        {"E0145", Severity::Error, "bad-profile-setting", "an unknown run setting, a model default outside the schema, or a value that is not a constant"},
        {"E0146", Severity::Error, "bad-prefix", "a model-name prefix that is empty, has capitals, or another profile claims"},
        // ---- the reference's YAML records: src/yaml
        {"E0150", Severity::Error, "yaml-syntax", "a .yaml/.yml records file that is not YAML"},
        {"E0151", Severity::Error, "yaml-unknown-key", "a key the reference's YAML records do not have"},
        {"E0152", Severity::Error, "yaml-shape", "a YAML value of the wrong kind, a name that is not one, or a required key missing"},
        // ---- the linter: src/lint
        {code::kUnknownName, Severity::Warning, "unknown-name", "a name no field, context value, default or parameter provides"},
        {code::kUnusedSwitch, Severity::Warning, "unused-switch", "a switch no op or part uses"},
        {code::kUnkeptOp, Severity::Warning, "unkept-op", "an op or part that no slot keeps"},
        {code::kUnusedDefault, Severity::Warning, "unused-default", "a default no formula reads"},
        {code::kUnusedFn, Severity::Warning, "unused-fn", "a fn no slot, default or used fn calls"},
        {code::kUnusedImport, Severity::Warning, "unused-import", "an import nothing of which is used, or a repeated one"},
        {code::kShadowingParam, Severity::Warning, "shadowing-parameter", "a fn parameter named like a field, context value or default"},
        {code::kNeedsCycle, Severity::Warning, "needs-cycle", "ops that need each other in a cycle"},
        {code::kMaybeZeroDivisor, Severity::Warning, "maybe-zero-divisor", "a division or modulo by a value that may be zero, unguarded"},
        {code::kConstantCondition, Severity::Warning, "constant-condition", "a `when` or condition whose value never changes"},
        {code::kDeadBranch, Severity::Warning, "dead-branch", "a branch an enclosing condition rules out"},
        {code::kFoldable, Severity::Warning, "foldable-constant", "a constant subexpression that reads better as its value"},
        {code::kNotLinear, Severity::Warning, "formula-not-linear", "a slot formula that is not linear in `total`"},
        {code::kUnusedSuppression, Severity::Warning, "unused-suppression", "a `# rec: allow` comment that suppresses nothing"},
        {code::kBadSuppression, Severity::Warning, "bad-suppression", "a `# rec: allow` comment naming no warning code"},
        {code::kNoSchema, Severity::Warning, "no-field-schema", "records that import no field schema, so names go unchecked"},
    };
    return codes;
}

const CodeInfo* find_code(std::string_view code) {
    const auto& codes = all_codes();
    auto it = std::find_if(codes.begin(), codes.end(), [&](const CodeInfo& c) { return c.code == code; });
    return it == codes.end() ? nullptr : &*it;
}

std::string doc_anchor(const CodeInfo& info) {
    std::string anchor = "docs/diagnostics.md#";
    for (const char c : info.code) anchor += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return anchor + "-" + std::string(info.name);
}

}  // namespace oprec
