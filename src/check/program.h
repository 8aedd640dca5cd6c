// The checked, resolved program: what the records say, with every name bound
// to an index and every expression compiled. Built by the checker only.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/profiles.h"
#include "diag/source.h"
#include "code/code.h"

namespace oprec {

using RecordId = std::uint32_t;  // an op or a part
using SlotId = std::uint32_t;

struct RecordInfo {
    std::string name;
    bool is_part = false;
    std::optional<std::uint32_t> switch_id;  // index into Program::switches
    std::optional<RecordId> part_of;         // a part's op
    std::vector<RecordId> needs;
    bool comm = false;
    Span span;
};

struct SlotEntryInfo {
    RecordId record;
    NodeId expr;
    Span span;
};

struct SlotInfo {
    std::string name;
    std::uint32_t layer_part = 0;  // index into Program::layer_parts
    std::optional<NodeId> when;
    NodeId formula = 0;
    std::vector<SlotEntryInfo> entries;  // in source order: the sum's order
    Span span;
};

// One entry of the field schema (stdlib/fields.rec).
struct FieldInfo {
    std::string name;
    bool context = false;
    std::vector<std::string> types;
    bool optional = false;
    std::string unit;
    std::string doc;
    Span span;
};

// One term of the whole-rank memory model (records/rank*.rec): bytes a rank
// holds, evaluated once per pipeline stage and model chunk.
struct TermInfo {
    std::string name;
    NodeId formula = 0;
    bool beside = false;  // reported beside the stage's total, not summed into it
    Span span;
};

struct Program {
    // The vocabulary, in declaration order.
    std::vector<std::string> switches;
    std::vector<std::string> layer_parts;
    std::vector<std::string> op_vector;

    std::vector<RecordInfo> records;  // ops, then parts, each in declaration order
    std::vector<SlotInfo> slots;      // in declaration order
    std::vector<std::string> names;   // every name an expression reads, by NameId
    std::vector<std::optional<Value>> defaults;  // by NameId: the records' default, if any
    std::vector<FieldInfo> fields;    // the field schema, if the records import one
    Profiles profiles;                // the op profiles and run defaults, if the program declares them
    std::vector<TermInfo> terms;      // the whole-rank model's terms, in declaration order
    Code code;

    SourceMap sources;           // the text of every file loaded, for messages
    std::vector<FileId> files;   // the files loaded, imports first

    std::optional<SlotId> find_slot(std::string_view name) const;
    std::optional<RecordId> find_record(std::string_view name) const;
    std::optional<NameId> find_name(std::string_view name) const;
    const FieldInfo* find_field(std::string_view name) const;
    // Whether `entry_record` counts when pricing `only` alone: the record
    // itself, or a part of it.
    bool counts_for(RecordId entry_record, RecordId only) const;
    // The slots in which `record` (with its parts, for an op) keeps anything.
    std::vector<SlotId> keeps(RecordId record) const;
};

}  // namespace oprec
