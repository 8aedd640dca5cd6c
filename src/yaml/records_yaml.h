// The reference's op records in YAML (hyper_parallel's op_records.yaml) ->
// our AST: the same ast::Module the .rec parser builds, with every Span at
// the YAML's line and column, so the checker does the rest. The YAML states
// no vocabulary or field schema: the module imports the standard library's
// (vocabulary.rec, fields.rec), which are the reference's.
//
// Refused here, as the reference's loader refuses them: text that is not
// YAML (E0150), a key the records do not have (E0151), a value of the wrong
// kind or a required key missing (E0152), a name that is not one (E0152), a
// default that is not a number (E0115), a formula that does not parse
// (E0001). The checker refuses the rest (a missing or unknown op, an unknown
// switch, a formula without `total`, a call of other than max or min).
#pragma once

#include <filesystem>
#include <vector>

#include "diag/diagnostic.h"
#include "diag/source.h"
#include "syntax/ast.h"

namespace oprec::yaml {

// The files the module imports, in this order.
inline constexpr const char* kVocabularyImport = "vocabulary.rec";
inline constexpr const char* kFieldsImport = "fields.rec";

// Whether a path names YAML records (.yaml or .yml, any case).
bool is_yaml_path(const std::filesystem::path& path);

// The records of a YAML file. On an error the module may lack declarations;
// `diags` says what and where.
ast::Module read_records(const SourceMap& sources, FileId file, std::vector<Diagnostic>& diags);

// A missing op is found by the checker at the op vector (vocabulary.rec):
// say it at the YAML's `ops` key instead, the op vector's place a note.
void point_into_yaml(const ast::Module& module, std::vector<Diagnostic>& diags);

}  // namespace oprec::yaml
