// A layer's run in registers: every `when`, then each held slot's kept
// entries summed and its formula, as three-address instructions over one
// array of cells (the bound names, the constants, one cell per computed
// value), with each value computed once a run: a value computed before on
// every path to a use is reused (value numbering scoped by the run's
// branches); a cheap product or sum of names used in several places
// (`s * b`, `t * cp`) is computed once at the run's start; a costlier value
// used in several places that do not follow one another (two slots'
// `ffn_elements(hff_exp)`) is computed at its first use in a run and read at
// the others (a memo bit). Fused instructions take the records' frequent
// shapes (an entry and its step of the sum, a formula's last operation and
// its store, chains of products).
//
// It prices the usual layer, and only that: a run that meets anything but
// plain arithmetic on values (an error, an argument-count error), or tests
// or stores a value computed from a name with no value (or needs one: a
// Need, where Python reads a value that no test or store reads), gives up
// (run_registers returns false) and the caller prices each expression on
// its own, which raises exactly as Python would. It computes everything
// Python computes, so it gives up wherever Python raises; beyond that only
// where a value computed ahead overflows an int, or tests a name with no
// value (a `not`, max or min of names, hoisted). Where it finishes it gives
// Python's bits.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/program.h"
#include "value/arith.h"
#include "value/value.h"

namespace oprec {

// The register ops, each declared once: M(name, reads, writes, jumps,
// typed, does), in the order of enum class ROp. From this table come the
// enum, rop_info (every op's properties, typed forms and pairs included)
// and rop_name; the passes ask rop_info, never an op's place in the enum.
//   reads:  the fields naming cells it reads: X, Y, Z (c[x], c[y], c[z]), D
//           (c[dst]), L (the value the instruction before wrote, kept in a
//           register: not a cell); 0 for none (x, y may then be a record,
//           a slot or a memo bit).
//   writes: Dst (c[dst], and that is the value before for the next op), Sum
//           (c[dst], a sum's running total, not the value before), CellY
//           (c[y]), HeldX / HeldDst (held[x] / held[dst]), StoreX / StoreDst
//           (a slot's held flag and value), Memo (memo bit x), 0 for none.
//   jumps:  May (to dst, or falls through), Always (to dst), End (the run
//           ends), 0 (falls through).
//   typed:  2 (typed forms II, IF, FI, FF by c[x]'s or the value before's
//           type and c[y]'s or the value before's), 3 (III..FFF: the value
//           before, c[x], c[y]), 0 (not typed).
//   does:   the Add..Pow it computes (an X or Y op's, a sum step's, a
//           store's, a chain's second), 0 for none.
#define OPREC_ROPS(M)                                                                                     \
    M(Move, X, Dst, 0, 0, 0)               /* c[dst] = c[x] */                                            \
    M(Add, XY, Dst, 0, 2, Add)             /* c[dst] = c[x] + c[y] */                                     \
    M(Sub, XY, Dst, 0, 2, Sub)             /* c[dst] = c[x] - c[y] */                                     \
    M(Mul, XY, Dst, 0, 2, Mul)             /* c[dst] = c[x] * c[y] */                                     \
    M(Div, XY, Dst, 0, 2, Div)             /* c[dst] = c[x] / c[y] */                                     \
    M(FloorDiv, XY, Dst, 0, 0, FloorDiv)   /* c[dst] = c[x] // c[y] */                                    \
    M(Mod, XY, Dst, 0, 0, Mod)             /* c[dst] = c[x] % c[y] */                                     \
    M(Pow, XY, Dst, 0, 0, Pow)             /* c[dst] = c[x] ** c[y] */                                    \
    M(Neg, X, Dst, 0, 0, 0)                /* c[dst] = -c[x] */                                           \
    M(Pos, X, Dst, 0, 0, 0)                /* c[dst] = +c[x] */                                           \
    M(Not, X, Dst, 0, 0, 0)                /* c[dst] = not c[x] */                                        \
    M(Cmp, XY, Dst, 0, 0, 0)               /* c[dst] = c[x] cmp c[y] */                                   \
    M(Max2, XY, Dst, 0, 0, 0)              /* c[dst] = c[y] if c[y] > c[x] else c[x]: Python's max, a pair */ \
    M(Min2, XY, Dst, 0, 0, 0)              /* c[dst] = c[y] if c[y] < c[x] else c[x]: Python's min, a pair */ \
    M(Select, XYZ, Dst, 0, 0, 0)           /* c[dst] = c[y] if c[x] is true else c[z] */                  \
    M(AddX, LY, Dst, 0, 2, Add)            /* c[dst] = the value before + c[y] */                         \
    M(SubX, LY, Dst, 0, 2, Sub)            /* c[dst] = the value before - c[y] */                         \
    M(MulX, LY, Dst, 0, 2, Mul)            /* c[dst] = the value before * c[y] (`s * b * h`) */           \
    M(DivX, LY, Dst, 0, 2, Div)            /* c[dst] = the value before / c[y] */                         \
    M(AddY, XL, Dst, 0, 2, Add)            /* c[dst] = c[x] + the value before */                         \
    M(SubY, XL, Dst, 0, 2, Sub)            /* c[dst] = c[x] - the value before */                         \
    M(MulY, XL, Dst, 0, 2, Mul)            /* c[dst] = c[x] * the value before */                         \
    M(DivY, XL, Dst, 0, 2, Div)            /* c[dst] = c[x] / the value before */                         \
    M(MulMulX, LXY, Dst, 0, 3, Mul)        /* c[dst] = the value before * c[x] * c[y] */                  \
    M(MulDivX, LXY, Dst, 0, 3, Div)        /* c[dst] = the value before * c[x] / c[y] */                  \
    M(DivMulX, LXY, Dst, 0, 3, Mul)        /* c[dst] = the value before / c[x] * c[y] */                  \
    M(DivDivX, LXY, Dst, 0, 3, Div)        /* c[dst] = the value before / c[x] / c[y] */                  \
    M(SumAdd, DXY, Dst, 0, 2, Add)         /* c[dst] = c[dst] + (c[x] + c[y]): an entry's last op and its step of the sum */ \
    M(SumSub, DXY, Dst, 0, 2, Sub)         /* c[dst] = c[dst] + (c[x] - c[y]) */                          \
    M(SumMul, DXY, Dst, 0, 2, Mul)         /* c[dst] = c[dst] + (c[x] * c[y]) */                          \
    M(SumDiv, DXY, Dst, 0, 2, Div)         /* c[dst] = c[dst] + (c[x] / c[y]) */                          \
    M(Jump, 0, 0, Always, 0, 0)            /* to dst */                                                   \
    M(JumpIfFalse, X, 0, May, 0, 0)        /* unless c[x] is true: to dst */                              \
    M(JumpIfTrue, X, 0, May, 0, 0)         /* if c[x] is true: to dst */                                  \
    M(JumpUnlessCmp, XY, 0, May, 2, 0)     /* unless c[x] cmp c[y]: to dst (a conditional's test) */      \
    M(Kept, 0, 0, May, 0, 0)               /* unless keep[x]: to dst */                                   \
    M(KeptZero, 0, CellY, May, 0, 0)       /* c[y] = int 0 (a slot's sum starts), then Kept */            \
    M(SkipUnlessHeld, 0, 0, May, 0, 0)     /* unless held[x]: to dst */                                   \
    M(Memo, 0, 0, May, 0, 0)               /* if memo bit x is set: to dst (y: the cell it keeps the value in) */ \
    M(SetMemo, 0, Memo, 0, 0, 0)           /* set memo bit x */                                           \
    M(SumMulIf, DXY, Sum, 0, 2, Mul)       /* if keep[z]: c[dst] = c[dst] + c[x] * c[y] (an entry of one product) */ \
    M(FirstMulIf, XY, Sum, 0, 2, Mul)      /* c[dst] = 0 + c[x] * c[y] if keep[z] else int 0 (the sum's start) */ \
    M(Held, Y, HeldX, 0, 0, 0)             /* held[x] = the truth of c[y] */                              \
    M(HeldCmp, XY, HeldDst, 0, 2, 0)       /* held[dst] = c[x] cmp c[y] (`when n_exp == 1`) */            \
    M(Store, Y, StoreX, 0, 0, 0)           /* held[x] = 1, slot_values[x] = c[y] */                       \
    M(MulStore, XY, StoreDst, 0, 2, Mul)   /* held[dst] = 1, slot_values[dst] = c[x] * c[y] (a formula's last) */ \
    M(DivStore, XY, StoreDst, 0, 2, Div)   /* held[dst] = 1, slot_values[dst] = c[x] / c[y] */            \
    M(Need, X, 0, 0, 0, 0)                 /* unless c[x] has a value: give up (a value Python computes that no test or store reads) */ \
    M(GiveUp, 0, 0, End, 0, 0)             /* the exact run must do this one (max/min of one argument) */ \
    M(Return, 0, 0, End, 0, 0)             /* the run's end */

// The ops of OPREC_ROPS with typed 2, in the order of their typed forms
// (after Return, four each); with typed 3 (eight each, after those); and
// the two operations of a fused pair (fuse_pairs), each of Add..Div. The
// run's dispatch table and fuse_pairs' arithmetic depend on these orders;
// rop_info's static_asserts tie them to OPREC_ROPS.
#define OPREC_TYPED_BASES(M)                                                                      \
    M(Add) M(Sub) M(Mul) M(Div) M(AddX) M(SubX) M(MulX) M(DivX) M(AddY) M(SubY) M(MulY) M(DivY) \
    M(SumAdd) M(SumSub) M(SumMul) M(SumDiv) M(SumMulIf) M(FirstMulIf) M(MulStore) M(DivStore)  \
    M(HeldCmp) M(JumpUnlessCmp)
#define OPREC_TYPED3_BASES(M) M(MulMulX) M(MulDivX) M(DivMulX) M(DivDivX)
#define OPREC_PAIR_BASES(M)                                                      \
    M(Add, Add) M(Add, Sub) M(Add, Mul) M(Add, Div) M(Sub, Add) M(Sub, Sub) M(Sub, Mul) M(Sub, Div) \
    M(Mul, Add) M(Mul, Sub) M(Mul, Mul) M(Mul, Div) M(Div, Add) M(Div, Sub) M(Div, Mul) M(Div, Div)

enum class ROp : std::uint16_t {
#define OPREC_ROP_ENUM(NAME, R, W, J, T, D) NAME,
    OPREC_ROPS(OPREC_ROP_ENUM)
#undef OPREC_ROP_ENUM
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

// Which of an instruction's fields name cells it reads (rop_info's reads).
// The value before (kReadsLast: an X or Y op's, a chain's) is not a cell.
constexpr unsigned kReadsX = 1, kReadsY = 2, kReadsZ = 4, kReadsDst = 8, kReadsLast = 16;

// What an op writes (OPREC_ROPS' writes column).
enum class RWrites : std::uint8_t { None, Dst, Sum, CellY, HeldX, HeldDst, StoreX, StoreDst, Memo };
// Where it goes next (OPREC_ROPS' jumps column).
enum class RJumps : std::uint8_t { None, May, Always, End };
// What kind of op it is: untyped, a typed form (of `base`), a fused pair.
enum class RKind : std::uint8_t { Untyped, Typed, Typed3, Pair };

struct ROpInfo {
    const char* name = "";
    std::uint8_t reads = 0;         // kReads... bits
    RWrites writes = RWrites::None;
    RJumps jumps = RJumps::None;
    std::uint8_t typed = 0;         // of an untyped op: 2 or 3 where specialise types it
    RKind kind = RKind::Untyped;
    ROp base = ROp::Count_;         // a typed form's untyped op; an untyped op or a pair: itself
    ROp does = ROp::Count_;         // the Add..Pow it computes (a chain's and a pair's second); Count_: none
    ROp first = ROp::Count_;        // a chain's or a pair's first Add..Div
    std::int8_t typed_index = -1;   // an untyped op's place in OPREC_TYPED_BASES (or OPREC_TYPED3_BASES)
    std::uint8_t types = 0;         // a typed form's or pair's operand types: a bit each, the last operand's the lowest, 1 a float
    bool pair_y = false;            // a pair: Y (c[z] op2 (c[x] op1 c[y])), else X
};

namespace rop_detail {
inline constexpr std::uint8_t R_0 = 0, R_X = kReadsX, R_Y = kReadsY, R_XY = kReadsX | kReadsY,
                              R_XYZ = kReadsX | kReadsY | kReadsZ, R_DXY = kReadsDst | kReadsX | kReadsY,
                              R_LY = kReadsLast | kReadsY, R_XL = kReadsX | kReadsLast,
                              R_LXY = kReadsLast | kReadsX | kReadsY;
inline constexpr RWrites W_0 = RWrites::None, W_Dst = RWrites::Dst, W_Sum = RWrites::Sum, W_CellY = RWrites::CellY,
                         W_HeldX = RWrites::HeldX, W_HeldDst = RWrites::HeldDst, W_StoreX = RWrites::StoreX,
                         W_StoreDst = RWrites::StoreDst, W_Memo = RWrites::Memo;
inline constexpr RJumps J_0 = RJumps::None, J_May = RJumps::May, J_Always = RJumps::Always, J_End = RJumps::End;
inline constexpr ROp D_0 = ROp::Count_, D_Add = ROp::Add, D_Sub = ROp::Sub, D_Mul = ROp::Mul, D_Div = ROp::Div,
                     D_FloorDiv = ROp::FloorDiv, D_Mod = ROp::Mod, D_Pow = ROp::Pow;
inline constexpr std::size_t kUntyped = 0
#define OPREC_ROP_COUNT(NAME, R, W, J, T, D) +1
    OPREC_ROPS(OPREC_ROP_COUNT)
#undef OPREC_ROP_COUNT
    ;
inline constexpr std::size_t kTyped2Bases = 0
#define OPREC_ROP_COUNT(OP) +1
    OPREC_TYPED_BASES(OPREC_ROP_COUNT)
#undef OPREC_ROP_COUNT
    ;
inline constexpr std::size_t kTyped3Bases = 0
#define OPREC_ROP_COUNT(OP) +1
    OPREC_TYPED3_BASES(OPREC_ROP_COUNT)
#undef OPREC_ROP_COUNT
    ;
inline constexpr std::size_t kFirstTyped3 = kUntyped + 4 * kTyped2Bases;
inline constexpr std::size_t kFirstPair = kFirstTyped3 + 8 * kTyped3Bases;

inline constexpr auto kInfo = [] {
    std::array<ROpInfo, static_cast<std::size_t>(ROp::Count_)> t{};
    std::size_t k = 0;
#define OPREC_ROP_INFO(NAME, R, W, J, T, D) \
    t[k] = ROpInfo{#NAME, R_##R, W_##W, J_##J, T, RKind::Untyped, ROp::NAME, D_##D, ROp::Count_, -1, 0, false}, ++k;
    OPREC_ROPS(OPREC_ROP_INFO)
#undef OPREC_ROP_INFO
    // A typed form: its base's reads, writes and jumps.
    std::int8_t index = 0;
#define OPREC_ROP_INFO(OP)                                                                      \
    t[static_cast<std::size_t>(ROp::OP)].typed_index = index++;                                 \
    for (const char* suffix : {#OP "II", #OP "IF", #OP "FI", #OP "FF"}) {                       \
        t[k] = t[static_cast<std::size_t>(ROp::OP)];                                            \
        t[k].name = suffix, t[k].kind = RKind::Typed, t[k].typed = 0, t[k].typed_index = -1;    \
        t[k].types = static_cast<std::uint8_t>((k - kUntyped) % 4), ++k;                        \
    }
    OPREC_TYPED_BASES(OPREC_ROP_INFO)
#undef OPREC_ROP_INFO
    index = 0;
#define OPREC_ROP_INFO(OP)                                                                                         \
    t[static_cast<std::size_t>(ROp::OP)].typed_index = index++;                                                    \
    for (const char* suffix : {#OP "III", #OP "IIF", #OP "IFI", #OP "IFF", #OP "FII", #OP "FIF", #OP "FFI", #OP "FFF"}) { \
        t[k] = t[static_cast<std::size_t>(ROp::OP)];                                                               \
        t[k].name = suffix, t[k].kind = RKind::Typed3, t[k].typed = 0, t[k].typed_index = -1;                      \
        t[k].types = static_cast<std::uint8_t>((k - kFirstTyped3) % 8), ++k;                                       \
    }
    OPREC_TYPED3_BASES(OPREC_ROP_INFO)
#undef OPREC_ROP_INFO
#define OPREC_ROP_INFO_SIDE(A, B, SIDE, IS_Y)                                                                         \
    for (const char* suffix : {"Pair" #A #B #SIDE "III", "Pair" #A #B #SIDE "IIF", "Pair" #A #B #SIDE "IFI",        \
                               "Pair" #A #B #SIDE "IFF", "Pair" #A #B #SIDE "FII", "Pair" #A #B #SIDE "FIF",        \
                               "Pair" #A #B #SIDE "FFI", "Pair" #A #B #SIDE "FFF"}) {                               \
        t[k] = ROpInfo{suffix, R_XYZ, RWrites::Dst, RJumps::None, 0, RKind::Pair, static_cast<ROp>(k), ROp::B,      \
                       ROp::A, -1, static_cast<std::uint8_t>((k - kFirstPair) % 8), IS_Y};                             \
        ++k;                                                                                                       \
    }
#define OPREC_ROP_INFO(A, B) OPREC_ROP_INFO_SIDE(A, B, X, false) OPREC_ROP_INFO_SIDE(A, B, Y, true)
    OPREC_PAIR_BASES(OPREC_ROP_INFO)
#undef OPREC_ROP_INFO
#undef OPREC_ROP_INFO_SIDE
    // A chain's first operation: MulMulX, MulDivX: Mul; DivMulX, DivDivX: Div.
    t[static_cast<std::size_t>(ROp::MulMulX)].first = t[static_cast<std::size_t>(ROp::MulDivX)].first = ROp::Mul;
    t[static_cast<std::size_t>(ROp::DivMulX)].first = t[static_cast<std::size_t>(ROp::DivDivX)].first = ROp::Div;
    for (std::size_t j = kUntyped; j < kFirstPair; ++j) t[j].first = t[static_cast<std::size_t>(t[j].base)].first;
    return t;
}();
}  // namespace rop_detail

// Every op's properties, from OPREC_ROPS.
constexpr const ROpInfo& rop_info(ROp op) { return rop_detail::kInfo[static_cast<std::size_t>(op)]; }
// "MulX", "AddXIF", "PairMulAddXIFF".
constexpr const char* rop_name(ROp op) { return op < ROp::Count_ ? rop_info(op).name : "?"; }

// Whether an op's dst is an instruction to jump to.
constexpr bool jumps(ROp op) { return rop_info(op).jumps == RJumps::May || rop_info(op).jumps == RJumps::Always; }
// Whether it writes c[dst] as the value the next op may read from its register.
constexpr bool writes_value(ROp op) { return rop_info(op).writes == RWrites::Dst; }
// Whether an op reads the value before (X, Y and chain ops, typed or not, pairs not).
constexpr bool reads_value_before(ROp op) { return (rop_info(op).reads & kReadsLast) != 0; }
// Whether an op is untyped (specialise's and pin_branches' walks read untyped code only).
constexpr bool is_untyped(ROp op) { return rop_info(op).kind == RKind::Untyped; }
// The typed form of an untyped op with typed 2 for its operands' types (a, b: 1 a float).
constexpr ROp typed_form(ROp base, bool a_float, bool b_float) {
    return static_cast<ROp>(rop_detail::kUntyped + 4 * static_cast<std::size_t>(rop_info(base).typed_index) +
                            (a_float ? 2u : 0u) + (b_float ? 1u : 0u));
}
// The same for typed 3 (the value before, c[x], c[y]).
constexpr ROp typed3_form(ROp base, bool a_float, bool b_float, bool c_float) {
    return static_cast<ROp>(rop_detail::kFirstTyped3 + 8 * static_cast<std::size_t>(rop_info(base).typed_index) +
                            (a_float ? 4u : 0u) + (b_float ? 2u : 0u) + (c_float ? 1u : 0u));
}
// The untyped op of OPREC_ROPS that computes `does` reading as `like` does
// (the X op of Mul: MulX; the sum step of Div: SumDiv); Count_ where none.
constexpr ROp rop_doing(ROp does, ROp like) {
    const ROpInfo& want = rop_info(like);
    for (std::size_t k = 0; k < rop_detail::kUntyped; ++k) {
        const ROpInfo& i = rop_detail::kInfo[k];
        if (i.does == does && i.reads == want.reads && i.writes == want.writes && i.typed == want.typed &&
            i.first == want.first)
            return static_cast<ROp>(k);
    }
    return ROp::Count_;
}
// The untyped Add..Div: c[dst] = c[x] op c[y], typed 2.
constexpr bool plain_binary(ROp op) {
    const ROpInfo& i = rop_info(op);
    return i.kind == RKind::Untyped && i.reads == (kReadsX | kReadsY) && i.writes == RWrites::Dst && i.typed == 2;
}
// The chain (MulMulX..DivDivX) doing `first` then `second`; Count_ where none.
constexpr ROp rop_chain(ROp first, ROp second) {
    for (std::size_t k = 0; k < rop_detail::kUntyped; ++k) {
        const ROpInfo& i = rop_detail::kInfo[k];
        if (i.reads == (kReadsLast | kReadsX | kReadsY) && i.first == first && i.does == second) return static_cast<ROp>(k);
    }
    return ROp::Count_;
}
// A fused pair of typed Add..Div `first` then `second`, Y or X side, by types.
constexpr ROp pair_form(ROp first, ROp second, bool y_side, unsigned types) {
    const auto a = static_cast<std::size_t>(rop_info(first).does) - static_cast<std::size_t>(ROp::Add);
    const auto b = static_cast<std::size_t>(rop_info(second).does) - static_cast<std::size_t>(ROp::Add);
    return static_cast<ROp>(rop_detail::kFirstPair + ((a * 4 + b) * 2 + (y_side ? 1 : 0)) * 8 + types);
}

// The table and the enum agree: every op has its entry, in order.
static_assert([] {
    for (std::size_t k = 0; k < rop_detail::kInfo.size(); ++k) {
        const ROpInfo& i = rop_detail::kInfo[k];
        if (i.name == nullptr || i.name[0] == '\0') return false;
        // an op typed 2 is in OPREC_TYPED_BASES, one typed 3 in OPREC_TYPED3_BASES, and no other
        if (i.kind == RKind::Untyped && (i.typed != 0) != (i.typed_index >= 0)) return false;
        // a typed form's name is its base's and its types
        if (i.kind == RKind::Typed || i.kind == RKind::Typed3) {
            const char* b = rop_detail::kInfo[static_cast<std::size_t>(i.base)].name;
            const char* n = i.name;
            while (*b != '\0' && *b == *n) ++b, ++n;
            if (*b != '\0') return false;
        }
    }
    std::size_t typed2 = 0, typed3 = 0;
    for (std::size_t k = 0; k < rop_detail::kUntyped; ++k) {
        typed2 += rop_detail::kInfo[k].typed == 2;
        typed3 += rop_detail::kInfo[k].typed == 3;
    }
    return typed2 == rop_detail::kTyped2Bases && typed3 == rop_detail::kTyped3Bases;
}(), "OPREC_ROPS, OPREC_TYPED_BASES and OPREC_TYPED3_BASES disagree");
static_assert(rop_detail::kFirstPair + 16 * 2 * 8 == static_cast<std::size_t>(ROp::Count_));
static_assert(typed_form(ROp::MulX, true, false) == ROp::MulXFI && typed3_form(ROp::MulDivX, false, true, true) == ROp::MulDivXIFF);
static_assert(rop_chain(ROp::Div, ROp::Mul) == ROp::DivMulX && plain_binary(ROp::Sub) && !plain_binary(ROp::Mod) &&
              !plain_binary(ROp::SubX) && !plain_binary(ROp::SubII));
static_assert(pair_form(ROp::MulII, ROp::SubYFF, true, 5) == ROp::PairMulSubYFIF);
static_assert(rop_doing(ROp::Div, ROp::AddX) == ROp::DivX && rop_doing(ROp::Sub, ROp::SumMul) == ROp::SumSub &&
              rop_doing(ROp::Mul, ROp::Div) == ROp::Mul && rop_doing(ROp::Mul, ROp::DivMulX) == ROp::DivMulX);

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

// The passes, a header each: register_compile.h (compile_registers, the
// untyped code from a program), register_types.h (specialise: typed for
// one layer), register_pin.h (pin_branches), register_fuse.h (fuse_pairs),
// register_run.h (thread_registers, run_registers); register_meaning.h
// (what each op computes, for the run, the pins and the typing),
// register_edit.h and register_flow.h hold what they share.
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

// Whether every pinned name has its pinned value (bit for bit) in `names`.
inline bool pins_hold(const RegisterCode& code, const Value* names) {
    for (const RegisterPin& pin : code.pins)
        if (!identical(names[pin.name], pin.value)) return false;
    return true;
}

}  // namespace oprec
