// The opcode tables (register_code.h, code.h) and the listing made from
// them (eval/code_dump.h, debug::dump_code, `oprec eval --dump`).
#include <catch2/catch.hpp>

#include <set>
#include <sstream>
#include <string>

#include "check/loader.h"
#include "code/code.h"
#include "eval/code_dump.h"
#include "eval/layer_code.h"
#include "eval/register_code.h"
#include "golden/records_fixture.h"
#include "model/evaluator.h"

using namespace oprec;

namespace {

std::set<std::string> table_names() {
    std::set<std::string> names;
    for (std::size_t k = 0; k < static_cast<std::size_t>(ROp::Count_); ++k) names.insert(rop_name(static_cast<ROp>(k)));
    for (std::size_t k = 0; k <= static_cast<std::size_t>(LOp::Return); ++k) names.insert(lop_name(static_cast<LOp>(k)));
    return names;
}

// Every instruction line's op ("0012  MulX  ..."), in order.
std::vector<std::string> listed_ops(const std::string& dump) {
    std::vector<std::string> ops;
    std::istringstream lines(dump);
    for (std::string line; std::getline(lines, line);) {
        if (line.size() < 6 || line[4] != ' ' || line.find_first_not_of("0123456789") != 4) continue;
        std::istringstream words(line.substr(6));
        std::string op;
        words >> op;
        ops.push_back(op);
    }
    return ops;
}

const char* const kTiny =
    "switches keep\nlayerparts attention\nopvector attMM, attBMM\nop attMM\nop attBMM switch keep\n"
    "slot one in attention {\n    bytes = total * 2\n    attMM = s * b * h\n    attBMM = 0.5 * b\n}\n";

}  // namespace

TEST_CASE("each op's name and properties come from its table", "[registers][dump]") {
    // Names are unique: the listing and the table say which op it is.
    std::set<std::string> rops;
    for (std::size_t k = 0; k < static_cast<std::size_t>(ROp::Count_); ++k) rops.insert(rop_name(static_cast<ROp>(k)));
    CHECK(rops.size() == static_cast<std::size_t>(ROp::Count_));
    std::set<std::string> lops;
    for (std::size_t k = 0; k <= static_cast<std::size_t>(LOp::Return); ++k) lops.insert(lop_name(static_cast<LOp>(k)));
    CHECK(lops.size() == static_cast<std::size_t>(LOp::Return) + 1);
    // A typed form does what its base does, reads what it reads, jumps where it jumps.
    for (std::size_t k = 0; k < static_cast<std::size_t>(ROp::Count_); ++k) {
        const ROp op = static_cast<ROp>(k);
        const ROpInfo& info = rop_info(op);
        INFO(info.name);
        if (info.kind == RKind::Typed || info.kind == RKind::Typed3) {
            const ROpInfo& base = rop_info(info.base);
            CHECK(base.kind == RKind::Untyped);
            CHECK(info.reads == base.reads);
            CHECK(info.writes == base.writes);
            CHECK(info.jumps == base.jumps);
            CHECK(info.does == base.does);
            CHECK(std::string(info.name).rfind(base.name, 0) == 0);
            CHECK((info.kind == RKind::Typed ? base.typed == 2 : base.typed == 3));
        }
    }
    CHECK(rop_name(ROp::PairMulDivYFIF) == std::string("PairMulDivYFIF"));
    CHECK(rop_info(ROp::PairMulDivYFIF).first == ROp::Mul);
    CHECK(rop_info(ROp::PairMulDivYFIF).does == ROp::Div);
    CHECK(rop_info(ROp::PairMulDivYFIF).pair_y);
    CHECK(rop_info(ROp::PairMulDivYFIF).types == 5);
    CHECK(jumps(ROp::JumpUnlessCmpFI));
    CHECK_FALSE(jumps(ROp::HeldCmpII));
    CHECK(reads_value_before(ROp::MulXIF));
    CHECK(lop_jumps(LOp::CmpChain));
    CHECK_FALSE(lop_jumps(LOp::MulN));
}

TEST_CASE("a layer's compiled run is listed, every op named from the table", "[registers][dump]") {
    const Program program = load_records_text(kTiny, "tiny.rec", {});
    const RecordsEvaluator records(program);
    PreparedLayer layer(records, parse_layer_doc_text(R"({"fields": {"s": 4, "b": 3, "h": 2.5}})", "layer.json"));
    REQUIRE(layer.has_typed());
    const std::string dump = layer.dump_code();
    INFO(dump);
    const std::set<std::string> names = table_names();
    const std::vector<std::string> ops = listed_ops(dump);
    REQUIRE(ops.size() > 10);
    for (const std::string& op : ops) CHECK(names.count(op) == 1);

    // The untyped register code, then the typed run for these names (ints s, b; a float h).
    CHECK(dump.rfind("register code:\n"
                    "; 6 instructions, 11 cells (3 names, 3 constants), 0 memo bits\n"
                    "0000  KeptZero        c[6] = 0; unless keep[attMM] -> 0003\n"
                    "0001  Mul             c[8] = s * b\n"
                    "0002  SumMul          c[6] += c[8] * h\n"
                    "0003  SumMulIf        c[6] += 0.5 * b if keep[attBMM]\n"
                    "0004  MulStore        slot[one] = c[6] * 2\n"
                    "0005  Return\n", 0) == 0);
    CHECK(dump.find("register code typed for this layer:\n") != std::string::npos);
    CHECK(dump.find("0001  MulII           c[8] = s * b\n") != std::string::npos);
    CHECK(dump.find("0002  SumMulIF        c[6] += c[8] * h\n") != std::string::npos);
    CHECK(dump.find("0004  MulStoreFI      slot[one] = c[6] * 2\n") != std::string::npos);
}

TEST_CASE("the shipped records' run lists with every op from the table", "[registers][dump]") {
    const Program& program = testing::shipped_records();
    const LayerCode layer_code = compile_layer(program);
    REQUIRE(layer_code.registers);
    const std::string dump = dump_layer_code(layer_code, program);
    const std::set<std::string> names = table_names();
    const std::vector<std::string> ops = listed_ops(dump);
    CHECK(ops.size() == layer_code.registers->instrs.size());  // one a line
    for (const std::string& op : ops) CHECK(names.count(op) == 1);
    CHECK(dump.find(" = ?") == std::string::npos);  // every arithmetic op has its symbol
    CHECK(dump.find(" ? ") == std::string::npos);
}
