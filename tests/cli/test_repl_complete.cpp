// Tab completion: what the word before the cursor may become.
#include <catch2/catch.hpp>

#include "cli/repl_support.h"
#include "repl/completion.h"

using namespace oprec;
using namespace oprec::testing;

namespace {

using Names = std::vector<std::string>;

struct Completer {
    Captured c;
    repl::Session s{shipped_session()};
    Completer() { s.set_layer(example_layer(s, "llama2-7b.json")); }
    // The line with its word completed as far as the candidates agree.
    std::string line(const std::string& text) {
        const repl::Completion k = s.complete(text);
        if (k.candidates.empty()) return text;
        if (k.candidates.size() == 1) return text.substr(0, k.start) + k.candidates[0] + k.suffix;
        return text.substr(0, k.start) + repl::common_prefix(k.candidates);
    }
    Names candidates(const std::string& text) { return s.complete(text).candidates; }
};

}  // namespace

TEST_CASE("repl completion: commands, slots and fields at the start", "[repl]") {
    Completer k;
    CHECK(k.line("expl") == "explain ");
    CHECK(k.line("para") == "params ");
    CHECK(k.line(":rel") == ":reload ");
    CHECK(k.line("sco") == "score ");
    CHECK(k.candidates("qk") == Names{"qk_nope_head_dim", "qkv", "qkv_bias"});
    CHECK(k.candidates("sh") == Names{"shared", "shared_expert_gate", "show"});
    CHECK(k.candidates("zz").empty());
}

TEST_CASE("repl completion: the names each command takes", "[repl]") {
    Completer k;
    CHECK(k.line("explain sc") == "explain score ");
    CHECK(k.line("help di") == "help diff ");
    CHECK(k.line("node sel") == "node selective ");
    CHECK(k.line("switch soft") == "switch softmax ");
    CHECK(k.candidates("switch softmax ") == Names{"off", "on"});
    CHECK(k.candidates("switch a") == Names{"all", "attBMM", "attUp"});
    CHECK(k.line("set hff_e") == "set hff_exp=");
    CHECK(k.line("set t=4 micro_f") == "set t=4 micro_factor=");
    CHECK(k.line("set cp_algo=uly") == "set cp_algo=ulysses_cp ");
    CHECK(k.candidates("set gmm=") == Names{"false", "true"});
    CHECK(k.line("context drop") == "context dropless_tok_factor=");
    CHECK(k.line("unset n_qk") == "unset n_qknorm ");
    CHECK(k.line("qkv on") == "qkv only ");
    CHECK(k.candidates("qkv only att") == Names{"attBMM", "attMM", "attUp"});
    CHECK(k.line("diff softm") == "diff softmax=");
    CHECK(k.candidates("diff softmax=0 softmax=") == Names{"0", "1"});
    CHECK(k.line("diff t=4,nod") == "diff t=4,node=");
    CHECK(k.candidates("diff t=4,no") == Names{"node", "normOp", "norm_bias"});
    CHECK(k.line("diff node=f") == "diff node=full ");
    const std::string examples = (source_dir() / "examples").string();
    CHECK(k.line("load " + examples + "/llama") == "load " + examples + "/llama2-7b.json ");
    CHECK(k.line("load " + source_dir().string() + "/examp") == "load " + examples + "/");
    CHECK(k.candidates("layer ").empty());
}

TEST_CASE("repl completion: names inside an expression", "[repl]") {
    Completer k;
    CHECK(k.line("s * b * hff_e") == "s * b * hff_exp ");
    CHECK(k.line("(micro_f") == "(micro_factor ");
    CHECK(k.line("qkv + sco") == "qkv + score ");
    CHECK(k.candidates("h / ") .size() > 40);
}
