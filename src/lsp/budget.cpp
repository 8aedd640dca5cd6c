#include "lsp/budget.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace oprec::lsp {

namespace {

constexpr std::uint64_t kCap = std::uint64_t{1} << 62;

std::uint64_t add(std::uint64_t a, std::uint64_t b) { return std::min(kCap, a + std::min(b, kCap)); }

struct FnCost {
    std::uint64_t steps = 0;
    std::uint64_t depth = 0;
};

// One expression's cost, given its callees' (absent: a builtin, or a name
// the checker refuses: one node). Iterative: a left-deep chain of a
// hundred thousand additions is as deep a tree.
FnCost cost_of(const ast::Expr& root, const std::map<std::string, FnCost>& fns) {
    FnCost out;
    std::vector<std::pair<const ast::Expr*, std::uint64_t>> stack{{&root, 1}};
    while (!stack.empty()) {
        const auto [e, depth] = stack.back();
        stack.pop_back();
        out.steps = add(out.steps, 1);
        std::uint64_t reach = depth;
        if (e->kind == ast::ExprKind::Call)
            if (const auto it = fns.find(e->name); it != fns.end()) {
                out.steps = add(out.steps, it->second.steps);
                reach = add(depth, it->second.depth);
            }
        out.depth = std::max(out.depth, reach);
        for (const ast::Expr& k : e->kids) stack.emplace_back(&k, add(depth, 1));
    }
    return out;
}

// The fns each body calls, by name (each once).
std::vector<std::string> callees(const ast::Expr& root) {
    std::vector<std::string> out;
    std::vector<const ast::Expr*> stack{&root};
    while (!stack.empty()) {
        const ast::Expr* e = stack.back();
        stack.pop_back();
        if (e->kind == ast::ExprKind::Call && std::find(out.begin(), out.end(), e->name) == out.end()) out.push_back(e->name);
        for (const ast::Expr& k : e->kids) stack.push_back(&k);
    }
    return out;
}

}  // namespace

PricingCost pricing_cost(const std::vector<ast::Module>& modules) {
    std::map<std::string, const ast::FnDecl*> decls;
    for (const ast::Module& m : modules)
        for (const ast::Decl& d : m.decls)
            if (const auto* fn = std::get_if<ast::FnDecl>(&d)) decls.emplace(fn->name.text, fn);
    // Each fn's cost after its callees', depth first without recursion; a
    // cycle (the checker refuses recursion) costs as much as can be counted.
    std::map<std::string, FnCost> fns;
    std::map<std::string, int> state;  // 1: its callees are being costed, 2: done
    for (const auto& [name, decl] : decls) {
        std::vector<std::string> stack{name};
        while (!stack.empty()) {
            const std::string f = stack.back();
            const ast::FnDecl* fn = decls.at(f);
            int& st = state[f];
            if (st == 2) {
                stack.pop_back();
            } else if (st == 0) {
                st = 1;
                for (const std::string& c : callees(fn->body)) {
                    if (!decls.count(c)) continue;
                    if (state[c] == 1)
                        fns[c] = {kCap, kCap};  // a cycle
                    else if (state[c] == 0)
                        stack.push_back(c);
                }
            } else {
                const FnCost body = cost_of(fn->body, fns);
                FnCost& mine = fns[f];
                mine = {std::max(mine.steps, body.steps), std::max(mine.depth, add(body.depth, 1))};
                st = 2;
                stack.pop_back();
            }
        }
    }
    PricingCost out;
    double worst = -1;
    auto count = [&](const ast::Expr& e, FileId file, const std::string& what) {
        const FnCost c = cost_of(e, fns);
        out.steps = add(out.steps, c.steps);
        out.depth = static_cast<std::uint32_t>(std::min<std::uint64_t>(std::max<std::uint64_t>(out.depth, c.depth), kCap >> 32));
        const double badness = std::max(static_cast<double>(c.steps) / kMaxPricingSteps, static_cast<double>(c.depth) / kMaxPricingDepth);
        if (badness > worst) {
            worst = badness;
            out.worst = e.span;
            out.worst.file = file;
            out.worst_name = what;
        }
    };
    for (const ast::Module& m : modules)
        for (const ast::Decl& d : m.decls) {
            if (const auto* slot = std::get_if<ast::SlotDecl>(&d)) {
                if (slot->when) count(*slot->when, m.file, "slot " + slot->name.text + ", its `when`");
                for (const ast::SlotEntry& e : slot->entries)
                    count(e.expr, m.file, "slot " + slot->name.text + ", " + (e.target.text == "bytes" ? "its formula" : "entry " + e.target.text));
            } else if (const auto* def = std::get_if<ast::DefaultDecl>(&d)) {
                count(def->value, m.file, "default " + def->name.text);
            }
        }
    return out;
}

std::optional<std::string> over_budget(const PricingCost& cost) {
    auto amount = [](std::uint64_t n) { return n >= kCap ? std::string("more than 4.6e18") : fmt::format("{}", n); };
    if (cost.depth > kMaxPricingDepth)
        return fmt::format("not priced live: {} nests {} levels deep through its fns, deeper than the server's limit of {}",
                           cost.worst_name, amount(cost.depth), kMaxPricingDepth);
    if (cost.steps > kMaxPricingSteps)
        return fmt::format("not priced live: pricing these records would take {} evaluation steps ({} alone is the most), "
                           "more than the server's budget of {}",
                           amount(cost.steps), cost.worst_name, kMaxPricingSteps);
    return std::nullopt;
}

}  // namespace oprec::lsp
