// W0108: ops that need each other in a cycle. Recomputing any of them would
// need itself first.
#include <map>

#include <fmt/format.h>

#include "lint/checks.h"
#include "diag/codes.h"

namespace oprec::lint {

void check_needs(const Index& index, Sink& sink) {
    // The first declaration of each record, and its edges to the records it needs.
    std::vector<Decl<ast::OpDecl>> nodes;
    std::map<std::string, std::size_t> id;
    for (const Decl<ast::OpDecl>& r : index.record_list)
        if (id.emplace(r.decl->name.text, nodes.size()).second) nodes.push_back(r);
    struct Edge {
        std::size_t to;
        const ast::Ident* at;
    };
    std::vector<std::vector<Edge>> edges(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (const ast::Ident& need : nodes[i].decl->needs)
            if (auto it = id.find(need.text); it != id.end()) edges[i].push_back({it->second, &need});

    // Depth first, with an explicit stack: a back edge closes a cycle.
    enum : std::uint8_t { kNew, kOnPath, kDone };
    std::vector<std::uint8_t> state(nodes.size(), kNew);
    struct Frame {
        std::size_t node, next;
        const ast::Ident* via;  // the edge that entered this node
    };
    for (std::size_t start = 0; start < nodes.size(); ++start) {
        if (state[start] != kNew) continue;
        std::vector<Frame> path{{start, 0, nullptr}};
        state[start] = kOnPath;
        while (!path.empty()) {
            Frame& top = path.back();
            if (top.next == edges[top.node].size()) {
                state[top.node] = kDone;
                path.pop_back();
                continue;
            }
            const Edge e = edges[top.node][top.next++];
            if (state[e.to] == kNew) {
                state[e.to] = kOnPath;
                path.push_back({e.to, 0, e.at});
                continue;
            }
            if (state[e.to] != kOnPath) continue;
            // The cycle: from e.to along the path back to here.
            std::size_t from = path.size() - 1;
            while (path[from].node != e.to) --from;
            const std::string& self = nodes[top.node].decl->name.text;
            if (index.library(e.at->span.file)) continue;
            std::string chain = nodes[e.to].decl->name.text;
            for (std::size_t k = from + 1; k < path.size(); ++k) chain += " -> " + nodes[path[k].node].decl->name.text;
            chain += " -> " + nodes[e.to].decl->name.text;
            Diagnostic& d = sink.warn(code::kNeedsCycle, e.at->span,
                                      e.to == top.node
                                          ? fmt::format("`{}` needs itself", self)
                                          : fmt::format("a cycle in `needs`: {}", chain));
            for (std::size_t k = from + 1; k < path.size(); ++k)
                d.notes.push_back({path[k].via->span, fmt::format("`{}` needs `{}` here",
                                                                  nodes[path[k - 1].node].decl->name.text,
                                                                  nodes[path[k].node].decl->name.text)});
            d.notes.push_back({{}, "recomputing an op first recomputes what it needs, so a cycle never ends"});
        }
    }
}

}  // namespace oprec::lint
