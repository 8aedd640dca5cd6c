// A layer's run in registers: the work of LayerCode's run (every `when`,
// each held slot's kept entries summed and its formula) as three-address
// instructions over one array of cells (the bound names, the constants, one
// cell per computed value), with each value computed once a run: a value
// computed before on every path to a use is reused (value numbering scoped
// by the run's branches); a cheap product or sum of names used in several
// places (`s * b`, `t * cp`) is computed once at the run's start; a costlier
// value used in several places that do not follow one another (two slots'
// `ffn_elements(hff_exp)`) is computed at its first use in a run and read at
// the others (a memo bit). Fused instructions take the records' frequent
// shapes (an entry and its step of the sum, a formula's last operation and
// its store, chains of products).
//
// It prices the usual layer, and only that: a run on a layer with a name
// that has no value, or one that meets anything but plain arithmetic on
// values (an error, an argument-count error), gives up (run_registers
// returns false) and the caller runs LayerCode, which raises exactly as
// Python would. It computes everything the exact run computes, so it gives
// up wherever the exact run raises; beyond that only where a value computed
// ahead overflows an int. Where it finishes it gives the exact run's bits.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "check/program.h"
#include "value/arith.h"
#include "value/value.h"

namespace oprec {

// The ops specialise types, each in four typed forms after Return.
#define OPREC_TYPED_BASES(M)                                                                      \
    M(Add) M(Sub) M(Mul) M(Div) M(AddX) M(SubX) M(MulX) M(DivX) M(AddY) M(SubY) M(MulY) M(DivY) \
    M(SumAdd) M(SumSub) M(SumMul) M(SumDiv) M(SumMulIf) M(FirstMulIf) M(MulStore) M(DivStore)  \
    M(HeldCmp) M(JumpUnlessCmp)
#define OPREC_TYPED3_BASES(M) M(MulMulX) M(MulDivX) M(DivMulX) M(DivDivX)
// The two operations of a fused pair (fuse_pairs), each of Add..Div.
#define OPREC_PAIR_BASES(M)                                                      \
    M(Add, Add) M(Add, Sub) M(Add, Mul) M(Add, Div) M(Sub, Add) M(Sub, Sub) M(Sub, Mul) M(Sub, Div) \
    M(Mul, Add) M(Mul, Sub) M(Mul, Mul) M(Mul, Div) M(Div, Add) M(Div, Sub) M(Div, Mul) M(Div, Div)

enum class ROp : std::uint16_t {
    Move,                                    // c[dst] = c[x]
    Add, Sub, Mul, Div, FloorDiv, Mod, Pow,  // c[dst] = c[x] op c[y]
    Neg, Pos, Not,                           // c[dst] = op c[x]
    Cmp,                                     // c[dst] = c[x] cmp c[y]
    Max2, Min2,                              // c[dst] = c[y] if c[y] >/< c[x] else c[x]: Python's max/min, a pair at a time
    Select,                                  // c[dst] = c[y] if c[x] is true else c[z]: `a if c else b` of two values at hand (z: a cell)
    // Add..Div with x (X) or y (Y) the value the instruction before wrote,
    // read from where the run keeps it (a register), not from its cell: a
    // chain `s * b * h` waits for no store to reach memory and come back.
    AddX, SubX, MulX, DivX, AddY, SubY, MulY, DivY,
    // c[dst] = (the value before op1 c[x]) op2 c[y]: MulX then MulX, ...
    MulMulX, MulDivX, DivMulX, DivDivX,
    // c[dst] = c[dst] + (c[x] op c[y]): an entry's last operation and its
    // step of the slot's sum. The ops above write c[dst]; those below do not.
    SumAdd, SumSub, SumMul, SumDiv,
    Jump,                                    // to dst
    JumpIfFalse, JumpIfTrue,                 // on c[x]'s truth, to dst
    JumpUnlessCmp,                           // unless c[x] cmp c[y]: to dst (a conditional's test)
    Kept,                                    // unless keep[x]: to dst
    KeptZero,                                // c[y] = int 0 (a slot's sum starts), then Kept
    SkipUnlessHeld,                          // unless held[x]: to dst
    Memo,                                    // if memo bit x is set: to dst (y: the cell it keeps the value in)
    SetMemo,                                 // set memo bit x
    // An entry that is one product, with its keep test: if keep[z],
    // c[dst] = c[dst] + c[x] * c[y] (SumMulIf), or c[dst] = 0 + c[x] * c[y]
    // where it starts the sum, else int 0 (FirstMulIf).
    SumMulIf, FirstMulIf,
    Held,                                    // held[x] = the truth of c[y]
    HeldCmp,                                 // held[dst] = c[x] cmp c[y] (`when n_exp == 1`)
    Store,                                   // held[x] = 1, slot_values[x] = c[y]
    MulStore, DivStore,                      // held[dst] = 1, slot_values[dst] = c[x] op c[y] (a formula's last)
    GiveUp,                                  // the exact run must do this one (max/min of one argument)
    Return,
    // The ops above in OPREC_TYPED_BASES where the types of their two
    // operands (c[x] or the value before, c[y] or the value before) are
    // known (specialise): II, IF, FI, FF, the first's type and the second's.
    // A sum's running total (c[dst]) is not one of them.
#define OPREC_TYPED_OPS(OP) OP##II, OP##IF, OP##FI, OP##FF,
    OPREC_TYPED_BASES(OPREC_TYPED_OPS)
#undef OPREC_TYPED_OPS
    // MulMulX..DivDivX where the types of all three operands (the value
    // before, c[x], c[y]) are known: III, IIF, ..., FFF.
#define OPREC_TYPED3_OPS(OP) OP##III, OP##IIF, OP##IFI, OP##IFF, OP##FII, OP##FIF, OP##FFI, OP##FFF,
    OPREC_TYPED3_BASES(OPREC_TYPED3_OPS)
#undef OPREC_TYPED3_OPS
    // A typed Add..Div and the typed X or Y op after it that reads its value,
    // where nothing else reads the cell it wrote (fuse_pairs): X,
    // c[dst] = (c[x] op1 c[y]) op2 c[z]; Y, c[dst] = c[z] op2 (c[x] op1 c[y]).
    // By the three operands' types: III, IIF, ..., FFF.
#define OPREC_PAIR_TYPES(P) P##III, P##IIF, P##IFI, P##IFF, P##FII, P##FIF, P##FFI, P##FFF,
#define OPREC_PAIR_OPS(A, B) OPREC_PAIR_TYPES(Pair##A##B##X) OPREC_PAIR_TYPES(Pair##A##B##Y)
    OPREC_PAIR_BASES(OPREC_PAIR_OPS)
#undef OPREC_PAIR_OPS
#undef OPREC_PAIR_TYPES
    Count_  // how many ops there are
};

struct RInstr {
    ROp op = ROp::Return;
    py::CmpOp cmp = py::CmpOp::Eq;
    std::uint16_t dst = 0, x = 0, y = 0;
    std::uint16_t z = 0;  // a fused keep test's record, Select's other value, a pair's third operand
};

// An instruction as run_registers runs it: where its handler is (where the
// compiler has computed goto), then the instruction. One load a dispatch,
// not the op and then the handler's address from a table.
struct RThreaded {
    const void* handler = nullptr;
    ROp op = ROp::Return;
    py::CmpOp cmp = py::CmpOp::Eq;
    std::uint16_t dst = 0, x = 0, y = 0, z = 0;
};

// A name's value a run was made for (specialise's pin_branches): the run is
// right only while the name has it.
struct RegisterPin {
    std::uint16_t name;
    Value value;
};

struct RegisterCode {
    std::vector<RInstr> instrs;
    std::uint32_t names = 0;      // cells [0, names): the bound names, by NameId, copied in each run
    std::vector<Value> consts;    // cells [names, names + consts.size())
    std::uint32_t cells = 0;      // every cell: names, constants, then the values computed
    std::uint32_t memos = 0;      // memo bits used (at most 64)
    std::vector<RegisterPin> pins;  // what its branches were decided for (specialise)
    // `instrs` as run_registers runs them: made by thread_registers, the last
    // step of compile_registers and specialise (and of anything else that
    // makes code to run). Editing `instrs` after it needs it again.
    std::vector<RThreaded> threaded;
};

// Makes code.threaded from code.instrs.
void thread_registers(RegisterCode& code);

// Whether every pinned name has its pinned value (bit for bit) in `names`.
inline bool pins_hold(const RegisterCode& code, const Value* names) {
    for (const RegisterPin& pin : code.pins)
        if (!identical(names[pin.name], pin.value)) return false;
    return true;
}

// nullopt where the program is beyond the form's limits (65,535 cells or
// instructions, 64 memo bits, expressions nested deeper than it follows);
// the layer is then run by LayerCode alone.
std::optional<RegisterCode> compile_registers(const Program& program);

// The same run with the arithmetic on operands of known type in typed
// instructions, which test no type: for bound names of these types (a
// run on names of any other types computes wrong values). The types of
// every value follow from the names' and the constants' (an int product is
// an int or gives up, a quotient a float, ...), where no keep test or
// branch leaves them open. With `keep`, for that keep mask too: where an
// entry is kept, or not, is then known, and so is the type of more sums (a
// run with another mask computes wrong values); without it, for any mask.
// Then shorter: a sum's start read as the constant 0 where it is one, and
// dropped where the mask keeps the first entry; typed pairs fused
// (register_edit.h). With `pin`, first the branches decided for the values
// of the names their tests read (pin_branches): the run is then for those
// values too (its `pins`: check pins_hold before each run). nullopt where
// nothing could be typed or decided.
std::optional<RegisterCode> specialise(const RegisterCode& code, const Value* names,
                                       const std::uint8_t* keep = nullptr, bool pin = false);

// One run on `names` (every one bound: Bindings::all_bound), writing held
// flags and held slots' values by SlotId as LayerCode's run does; of
// code.threaded (it gives up where that is not `instrs` threaded). `cells`
// is scratch, grown as needed. False: it gave up, and what it wrote is to
// be ignored.
bool run_registers(const RegisterCode& code, const Value* names, const std::uint8_t* keep, std::uint8_t* held,
                   Value* slot_values, std::vector<Value>& cells);

}  // namespace oprec
