// The reference's whole-rank functions, ported in stdlib/hp_memory.rec,
// against the reference's own unit-test values (tests/fit/reference_terms.json:
// each vector a test of hyper_parallel's tests/ut/.../memory_estimation/ or
// nd/test_derive.py, with every input the function reads and the value the
// test expects). A vector's function is called with its inputs by the
// parameters' names, the test's names.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "check/loader.h"
#include "code/interp.h"
#include "eval/pricing.h"
#include "value/format.h"

namespace oprec {
namespace {

LoadOptions stdlib_only() { return {{OPREC_TEST_DATA "/../stdlib"}}; }

// The ported fn a vector's term names: the function after the module
// ("head.stat_embed_p" -> stat_embed_p), the overhead's under its own name.
std::string fn_of(const std::string& term) {
    if (term == "bwd_overhead.1f1b") return "bwd_overhead_1f1b";
    return term.substr(term.find('.') + 1);
}

std::string literal(const nlohmann::json& v) {
    if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    return float_repr(v.get<double>());
}

}  // namespace

TEST_CASE("fit: the reference's functions give its unit tests' values", "[fit][golden]") {
    const LoadResult lib = load_text("import \"vocabulary.rec\"\nimport \"hp_memory.rec\"\nterm none = 0\n", "lib.rec",
                                     stdlib_only());
    REQUIRE(lib.ok());
    std::map<std::string, std::vector<std::string>> params;  // fn -> its parameters
    for (const ast::Module& m : lib.modules)
        for (const ast::Decl& d : m.decls)
            if (const auto* fn = std::get_if<ast::FnDecl>(&d))
                for (const ast::Ident& p : fn->params) params[fn->name.text].push_back(p.text);

    std::ifstream in(OPREC_TEST_DATA "/fit/reference_terms.json");
    const nlohmann::json vectors = nlohmann::json::parse(in);
    REQUIRE(vectors.size() > 150);
    std::size_t checked = 0;
    std::set<std::string> fns;
    for (const nlohmann::json& v : vectors) {
        const std::string fn = fn_of(v["term"].get<std::string>());
        auto it = params.find(fn);
        if (it == params.end()) continue;  // a term the port does not state as one function
        std::string call = fn + "(";
        for (std::size_t i = 0; i < it->second.size(); ++i) {
            const std::string& p = it->second[i];
            INFO(v["test"].get<std::string>() << ": " << fn << "'s parameter `" << p << "`");
            REQUIRE(v["inputs"].contains(p));  // the port's parameters are the test's names
            call += (i > 0 ? ", " : "") + literal(v["inputs"][p]);
        }
        call += ")";
        const LoadResult one = load_text("import \"vocabulary.rec\"\nimport \"hp_memory.rec\"\nterm check = " + call + "\n",
                                         "vector.rec", stdlib_only());
        REQUIRE(one.ok());
        const Program& p = *one.program;
        const Bindings names(p);
        Interpreter<const Bindings> interp(p.code, names);
        const Value got = interp.run(p.terms.at(0).formula);
        INFO(v["test"].get<std::string>() << "\n  " << call << " = " << repr(got));
        CHECK(got.as_double() == v["expected"].get<double>());
        ++checked;
        fns.insert(fn);
    }
    // Most of the vectors, over the functions the port states.
    CHECK(checked >= 120);
    CHECK(fns.size() >= 35);
}

}  // namespace oprec
