#include "syntax/ast.h"

namespace oprec::ast {

const char* binary_op_text(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::FloorDiv: return "//";
    case BinaryOp::Mod: return "%";
    case BinaryOp::Pow: return "**";
    }
    return "?";
}

const char* compare_op_text(py::CmpOp op) {
    switch (op) {
    case py::CmpOp::Lt: return "<";
    case py::CmpOp::Le: return "<=";
    case py::CmpOp::Gt: return ">";
    case py::CmpOp::Ge: return ">=";
    case py::CmpOp::Eq: return "==";
    case py::CmpOp::Ne: return "!=";
    }
    return "?";
}

const char* vocab_keyword(VocabKind kind) {
    switch (kind) {
    case VocabKind::Switches: return "switches";
    case VocabKind::LayerParts: return "layerparts";
    case VocabKind::OpVector: return "opvector";
    }
    return "?";
}

}  // namespace oprec::ast
