// The catalogue of diagnostic codes: every error the loader gives and every
// warning of the linter, with its severity, name and summary. Codes are
// stable; docs/diagnostics.md documents each (doc_anchor) with an example
// and what to do, and a test keeps the two the same.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "diag/diagnostic.h"

namespace oprec {

struct CodeInfo {
    std::string_view code;     // "E0101", "W0109"
    Severity severity;
    std::string_view name;     // a short identifier: "duplicate-declaration"
    std::string_view summary;  // one line: what it means
};

// Every code, errors then warnings, each in code order.
const std::vector<CodeInfo>& all_codes();
const CodeInfo* find_code(std::string_view code);
// Where docs/diagnostics.md documents it: "docs/diagnostics.md#e0101-duplicate-declaration".
std::string doc_anchor(const CodeInfo& info);

// One constant per code, where it is raised: the loader's errors, then the
// linter's warnings.
namespace code {
inline constexpr const char* kSyntaxError = "E0001";
inline constexpr const char* kInvalidUtf8 = "E0002";
inline constexpr const char* kNestedTooDeep = "E0003";
inline constexpr const char* kFmtWouldChangeMeaning = "E0004";
inline constexpr const char* kDuplicateDeclaration = "E0101";
inline constexpr const char* kMissingVocabulary = "E0102";
inline constexpr const char* kUnknownOp = "E0103";
inline constexpr const char* kMissingOp = "E0104";
inline constexpr const char* kUnknownSwitch = "E0105";
inline constexpr const char* kUnknownLayerPart = "E0106";
inline constexpr const char* kBadPart = "E0107";
inline constexpr const char* kUnknownSlotEntry = "E0108";
inline constexpr const char* kFormulaWithoutTotal = "E0109";
inline constexpr const char* kNotArithmetic = "E0110";
inline constexpr const char* kNotAFunction = "E0111";
inline constexpr const char* kArgumentCount = "E0112";
inline constexpr const char* kTotalOutsideFormula = "E0113";
inline constexpr const char* kRecursiveFn = "E0114";
inline constexpr const char* kDefaultNotConstant = "E0115";
inline constexpr const char* kSlotWithoutFormula = "E0116";
inline constexpr const char* kBadFn = "E0117";
inline constexpr const char* kUnknownFieldType = "E0118";
inline constexpr const char* kImportMissing = "E0120";
inline constexpr const char* kImportCycle = "E0121";
inline constexpr const char* kUnreadableFile = "E0122";
inline constexpr const char* kProfilesWithoutOpVector = "E0140";
inline constexpr const char* kBadOpCounts = "E0141";
inline constexpr const char* kUnknownCountedOp = "E0142";
inline constexpr const char* kUnknownFlavour = "E0143";
inline constexpr const char* kBadDefaultKind = "E0144";
inline constexpr const char* kBadProfileSetting = "E0145";
inline constexpr const char* kBadPrefix = "E0146";
inline constexpr const char* kYamlSyntax = "E0150";
inline constexpr const char* kYamlUnknownKey = "E0151";
inline constexpr const char* kYamlShape = "E0152";
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

}  // namespace oprec
