// The codes of every diagnostic `oprec lint` can give: the loader's errors
// and the linter's warnings. Codes are stable; docs/diagnostics.md documents
// each with an example and what to do.
#pragma once

#include <string_view>
#include <vector>

#include "diag/diagnostic.h"

namespace oprec::lint {

struct CodeInfo {
    std::string_view code;     // "E0101", "W0109"
    Severity severity;
    std::string_view name;     // a short identifier: "duplicate-declaration"
    std::string_view summary;  // one line: what it means
};

// Every code, errors then warnings, each in code order.
const std::vector<CodeInfo>& all_codes();
const CodeInfo* find_code(std::string_view code);

// The linter's warnings (the loader's errors are its own, in src/check and src/syntax).
namespace code {
inline constexpr const char* kUnknownName = "W0101";
inline constexpr const char* kUnusedSwitch = "W0102";
inline constexpr const char* kUnkeptOp = "W0103";
inline constexpr const char* kUnusedDefault = "W0104";
inline constexpr const char* kUnusedFn = "W0105";
inline constexpr const char* kUnusedImport = "W0106";
inline constexpr const char* kShadowingParam = "W0107";
inline constexpr const char* kNeedsCycle = "W0108";
inline constexpr const char* kMaybeZeroDivisor = "W0109";
inline constexpr const char* kConstantCondition = "W0110";
inline constexpr const char* kDeadBranch = "W0111";
inline constexpr const char* kFoldable = "W0112";
inline constexpr const char* kNotLinear = "W0113";
inline constexpr const char* kUnusedSuppression = "W0114";
inline constexpr const char* kBadSuppression = "W0115";
inline constexpr const char* kNoSchema = "W0116";
}  // namespace code

}  // namespace oprec::lint
