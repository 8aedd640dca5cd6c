#include "eval/expression.h"

#include <fmt/format.h>

#include "diag/diagnostic.h"
#include "code/compile.h"
#include "code/interp.h"
#include "syntax/parse.h"

namespace oprec {

CompiledExpr compile_expression(std::string text, std::string name) {
    CompiledExpr out;
    FileId file = out.sources.add(std::move(name), std::move(text));
    std::vector<Diagnostic> diags;
    std::optional<ast::Expr> tree = parse_expression(out.sources, file, diags);
    if (tree) {
        const std::vector<FnSignature> no_fns;
        Compiler compiler(out.code, out.names, no_fns, /*strict_calls=*/false, diags);
        CompileScope scope;
        scope.total_is_name = true;
        out.root = compiler.compile(*tree, scope);
    }
    if (!diags.empty() || !tree) throw LoadError(std::move(diags), out.sources);
    return out;
}

namespace {

// Looks each name up once, remembering the order of first reads.
class LookupEnv {
public:
    LookupEnv(const CompiledExpr& expr, const NameLookup& lookup, std::vector<std::string>* reads)
        : expr_(expr), lookup_(lookup), reads_(reads), cache_(expr.names.size()), looked_(expr.names.size(), 0) {}

    Value load(NameId name, NodeId) {
        if (!looked_[name]) {
            looked_[name] = 1;
            cache_[name] = lookup_(expr_.names[name]);
            if (reads_ != nullptr && cache_[name]) reads_->push_back(expr_.names[name]);
        }
        if (!cache_[name]) throw EvalError(ErrorKind::UnboundName, fmt::format("`{}` has no value", expr_.names[name]));
        return *cache_[name];
    }

private:
    const CompiledExpr& expr_;
    const NameLookup& lookup_;
    std::vector<std::string>* reads_;
    std::vector<std::optional<Value>> cache_;
    std::vector<std::uint8_t> looked_;
};

}  // namespace

Value evaluate(const CompiledExpr& expr, const NameLookup& lookup, std::vector<std::string>* reads, bool tree) {
    LookupEnv env(expr, lookup, reads);
    Interpreter<LookupEnv> interp(expr.code, env);
    return tree ? interp.run_tree(expr.root) : interp.run(expr.root);
}

}  // namespace oprec
