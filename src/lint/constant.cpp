#include "lint/constant.h"

#include <string>
#include <vector>

#include "code/compile.h"

namespace oprec::lint {

bool reads_nothing(const ast::Expr& e) {
    using K = ast::ExprKind;
    if (e.kind == K::Name || e.kind == K::Refused) return false;
    if (e.kind == K::Call && ((e.name != "max" && e.name != "min") || e.kids.size() < 2)) return false;
    for (const ast::Expr& k : e.kids)
        if (!reads_nothing(k)) return false;
    return true;
}

std::optional<Value> constant_value(const ast::Expr& e) {
    if (!reads_nothing(e)) return std::nullopt;
    Code code;
    std::vector<std::string> names;
    const std::vector<FnSignature> fns;
    std::vector<Diagnostic> ignored;
    Compiler compiler(code, names, fns, /*strict_calls=*/true, ignored);
    const NodeId id = compiler.compile(e, {});
    if (!ignored.empty() || code.nodes[id].op != Op::Const) return std::nullopt;
    return code.consts[code.nodes[id].a];
}

}  // namespace oprec::lint
