// oprec serve: the JSON API gives what `oprec fit --format json` gives, with
// each term's source; bad requests get a status and a message; records are
// read again when their file changes; over HTTP the page's files are served,
// a foreign Host is refused and no path leaves the page's folder.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <future>
#include <thread>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "serve/server.h"
#include "serve/service.h"
#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kRoot = OPREC_SOURCE_DIR;

serve::ServiceOptions service_options() {
    serve::ServiceOptions o;
    o.records_dir = kRoot / "records";
    o.models_dir = kRoot / "examples" / "hf";
    o.records_options.data_dir = kRoot;
    return o;
}

json body_of(const serve::Reply& r) { return json::parse(r.body); }

// `oprec fit` with the same inputs, as JSON.
json cli_fit(const std::string& model, const std::vector<std::string>& flags) {
    std::vector<std::string> args{"fit", (kRoot / "examples" / "hf" / (model + ".json")).string()};
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {"--format", "json"});
    const auto r = testing::run_oprec(args);
    REQUIRE((r.exit_code == 0 || r.exit_code == 1));  // fits, or does not
    return json::parse(r.out);
}

}  // namespace

TEST_CASE("serve: /api/fit gives what oprec fit --format json gives, with each term's source", "[serve]") {
    serve::Service service(service_options());
    struct Case {
        std::string model;
        json strategy;
        std::vector<std::string> flags;
    };
    const std::vector<Case> cases{
        {"llama-2-7b", json::object(), {}},
        {"llama-2-7b", {{"tp", 2}, {"pp", 2}, {"recompute", "selective"}}, {"--tp", "2", "--pp", "2", "--recompute", "selective"}},
        {"mixtral-8x7b", {{"gpus", 64}, {"tp", 2}, {"pp", 4}, {"ep", 8}, {"zero", 1}, {"device_gib", 141}},
         {"--gpus", "64", "--tp", "2", "--pp", "4", "--ep", "8", "--zero", "1", "--device-memory", "141GiB"}},
        {"gpt2", {{"gpus", 4}, {"mbs", 4}, {"seq", 1024}, {"recompute", "full"}, {"zero", 3}, {"sp", false}},
         {"--gpus", "4", "--mbs", "4", "--seq", "1024", "--recompute", "full", "--zero", "3", "--no-sp"}},
    };
    for (const Case& c : cases) {
        INFO(c.model << " " << c.strategy.dump());
        const serve::Reply r = service.fit(json{{"model", c.model}, {"strategy", c.strategy}}.dump());
        REQUIRE(r.status == 200);
        json got = body_of(r);
        const json sources = got["sources"];
        got.erase("sources");
        CHECK(got == cli_fit(c.model, c.flags));
        for (const auto& [name, bytes] : got["stages"][0]["terms"].items()) {
            INFO(name);
            REQUIRE(sources.contains(name));
            CHECK(sources[name]["where"].get<std::string>().starts_with("records/rank_calibrated.rec:"));
            CHECK(sources[name]["formula"].get<std::string>().starts_with("term " + name));
        }
    }
    // The reference set, by name.
    const serve::Reply ref = service.fit(R"({"model": "llama-2-7b", "records": "reference"})");
    REQUIRE(ref.status == 200);
    json got = body_of(ref);
    got.erase("sources");
    CHECK(got == cli_fit("llama-2-7b", {"--records", "reference"}));
    // A config given as an object prices as its file does.
    std::ifstream file(kRoot / "examples" / "hf" / "qwen3-8b.json");
    const json config = json::parse(file);
    const serve::Reply dropped = service.fit(json{{"config", config}, {"strategy", {{"tp", 4}}}}.dump());
    REQUIRE(dropped.status == 200);
    got = body_of(dropped);
    got.erase("sources");
    CHECK(got == cli_fit("qwen3-8b", {"--tp", "4"}));
}

TEST_CASE("serve: /api/models lists the bundled configs and the record sets", "[serve]") {
    serve::Service service(service_options());
    const json m = body_of(service.models());
    CHECK(m["default_records"] == "calibrated");
    CHECK(m["records"] == json::array({"calibrated", "reference"}));
    std::size_t configs = 0;
    for (const auto& e : fs::directory_iterator(kRoot / "examples" / "hf")) configs += e.path().extension() == ".json";
    CHECK(m["models"].size() == configs);
    CHECK(m["models"][0]["name"] == "bloom-7b1");  // sorted
}

TEST_CASE("serve: bad requests are refused with a status and a message", "[serve]") {
    serve::Service service(service_options());
    const auto refused = [&](std::string_view body, int status, const std::string& message) {
        INFO(body);
        const serve::Reply r = service.fit(body);
        CHECK(r.status == status);
        CHECK(body_of(r)["error"].get<std::string>() == message);
    };
    refused("garbage", 400, "the request's body is not JSON");
    refused("[1]", 400, "the request's body must be a JSON object");
    refused("{}", 400, "give `model` (a bundled config's name) or `config` (a config.json object)");
    refused(R"({"model": "nope"})", 400, "no bundled model `nope`: /api/models lists them");
    refused(R"({"model": "../../etc/passwd"})", 400, "no bundled model `../../etc/passwd`: /api/models lists them");
    refused(R"({"model": "gpt2", "records": "mine"})", 400, "no records `mine`: expected one of /api/models' `records`");
    refused(R"({"model": "gpt2", "strategy": {"tpp": 2}})", 400, "unknown strategy key `tpp`");
    refused(R"({"model": "gpt2", "strategy": {"tp": 0}})", 400, "`tp` must be from 1 to 1048576");
    refused(R"({"model": "gpt2", "strategy": {"tp": 1.5}})", 400, "`tp` must be a whole number");
    refused(R"({"model": "gpt2", "strategy": {"recompute": "some"}})", 400,
            "`recompute` must be one of none, selective, full");
    refused(R"({"model": "gpt2", "strategy": {"device_gib": -1}})", 400, "`device_gib` must be a number of GiB above 0");
    refused(R"({"model": "gpt2", "strategy": {"tp": 3}})", 422, "--gpus 8 is not a multiple of tp * pp * cp = 3 * 1 * 1");
    refused(R"({"model": "gpt2", "bogus": 1})", 400, "unknown key `bogus`");
    // nlohmann's dump recurses: a config this deep once overflowed the stack.
    const std::string deep = R"({"config": {"model_type": "gpt2", "junk": )" + std::string(100000, '[') +
                             std::string(100000, ']') + "}}";
    refused(deep, 400, "the request nests arrays and objects deeper than 64");
    const serve::Reply big = service.fit(std::string(serve::kMaxBodyBytes + 1, ' '));
    CHECK(big.status == 413);
    const serve::Reply grid = service.sweep(R"({"model": "gpt2", "grid": {"tp": [1,2,3,4,5,6,7,8], "pp": [1,2,3,4,5,6,7,8],
        "mbs": [1,2,3,4,5,6,7,8], "zero": [0,1,2,3], "recompute": ["none", "selective", "full"]}})");
    CHECK(grid.status == 400);
    CHECK(body_of(grid)["error"] == "the grid has 6144 strategies: at most 4096 in one request");
    const serve::Reply null_value = service.sweep(R"({"model": "gpt2", "grid": {"tp": [null]}})");
    CHECK(null_value.status == 400);
    CHECK(body_of(null_value)["error"] == "grid `tp` holds null: list the values to try");
}

TEST_CASE("serve: a sweep point the model cannot price is skipped, not the whole sweep", "[serve]") {
    serve::Service service(service_options());
    // mbs 2^20 at this seq overflows 64 bits; mbs 1 prices.
    const serve::Reply r = service.sweep(R"({"model": "gpt2", "strategy": {"seq": 4194304, "flash_attention": false},
        "grid": {"tp": [1], "pp": [1], "recompute": ["none"], "mbs": [1, 1048576]}})");
    REQUIRE(r.status == 200);
    CHECK(body_of(r)["points"].size() == 1);
    CHECK(body_of(r)["skipped"] == 1);
    const serve::Reply none = service.sweep(R"({"model": "gpt2", "strategy": {"seq": 4194304, "flash_attention": false},
        "grid": {"tp": [1], "pp": [1], "recompute": ["none"], "mbs": [1048576]}})");
    CHECK(none.status == 422);  // nothing priced: why, not an empty list
    // The same where no strategy can run: it once said 200 and no points.
    const serve::Reply odd = service.sweep(R"({"model": "llama-2-7b", "strategy": {"gpus": 8}, "grid": {"tp": [3]}})");
    CHECK(odd.status == 422);
    CHECK(body_of(odd)["error"] == "gpus 8 is not a multiple of tp * pp * cp = 3 * 1 * 1");
}

TEST_CASE("serve: an error of the records themselves is the sweep's answer, not a skipped point", "[serve]") {
    testing::TempDir dir;
    std::string text = testing::read_text(kRoot / "records" / "rank_calibrated.rec");
    const std::string import = "import \"calibrated.rec\"";
    REQUIRE(text.find(import) != std::string::npos);
    text.replace(text.find(import), import.size(), "import \"" + (kRoot / "records" / "calibrated.rec").string() + "\"");
    serve::ServiceOptions o = service_options();
    o.records_file = dir.write("mine.rec", text + "\nterm extra = 1 / (t - 1)\n");
    serve::Service service(o);
    const serve::Reply r = service.sweep(R"({"model": "gpt2", "grid": {"tp": [1, 2], "pp": [1], "recompute": ["none"]}})");
    CHECK(r.status == 422);
    CHECK(body_of(r)["error"].get<std::string>().find("in term `extra` (stage 0, chunk 0): division by zero") !=
          std::string::npos);
}

TEST_CASE("serve: a sweep lists the strategies by peak, each as fit gives it", "[serve]") {
    serve::Service service(service_options());
    const serve::Reply r = service.sweep(R"({"model": "llama-2-7b", "strategy": {"gpus": 8}})");
    REQUIRE(r.status == 200);
    const json points = body_of(r)["points"];
    REQUIRE(points.size() > 10);
    for (std::size_t i = 1; i < points.size(); ++i)
        CHECK(points[i - 1]["peak_bytes"].get<double>() <= points[i]["peak_bytes"].get<double>());
    for (const json& p : {points.front(), points.back()}) {
        const json fit = body_of(service.fit(json{{"model", "llama-2-7b"}, {"strategy", p["strategy"]}}.dump()));
        CHECK(fit["peak_bytes"] == p["peak_bytes"]);
        CHECK(fit["fits"] == p["fits"]);
    }
    CHECK(points.front()["recompute_level"] == 2);  // the least memory recomputes the most
}

TEST_CASE("serve: records given as a file are read again when the file changes", "[serve]") {
    testing::TempDir dir;
    // The shipped set, its relative import made absolute: the copy lives elsewhere.
    std::string text = testing::read_text(kRoot / "records" / "rank_calibrated.rec");
    const std::string import = "import \"calibrated.rec\"";
    REQUIRE(text.find(import) != std::string::npos);
    text.replace(text.find(import), import.size(), "import \"" + (kRoot / "records" / "calibrated.rec").string() + "\"");
    const fs::path file = dir.write("mine.rec", text);
    serve::ServiceOptions o = service_options();
    o.records_file = file;
    serve::Service service(o);
    CHECK(body_of(service.models())["default_records"] == "mine.rec");
    const json before = body_of(service.fit(R"({"model": "gpt2"})"));
    CHECK(!before["stages"][0]["beside"].contains("extra"));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    dir.write("mine.rec", text + "\n# A term of one's own.\nbeside extra = 1000\n");
    const json after = body_of(service.fit(R"({"model": "gpt2"})"));
    CHECK(after["stages"][0]["beside"]["extra"] == 1000);
    CHECK(after["sources"]["extra"]["comment"] == "# A term of one's own.\n");
    // A broken edit is reported, not served stale.
    dir.write("mine.rec", text + "\nbeside = \n");
    const serve::Reply broken = service.fit(R"({"model": "gpt2"})");
    CHECK(broken.status == 422);
    CHECK(body_of(broken)["error"].get<std::string>().find("mine.rec:") != std::string::npos);
}

TEST_CASE("serve: over HTTP, the page and the API, a foreign Host refused, no path out", "[serve]") {
    serve::ServerOptions o;
    o.web_dir = kRoot / "web";
    o.vendor_dir = kRoot / "web" / "node_modules";
    o.service = service_options();
    serve::Server server(o);
    std::promise<std::string> url;
    std::thread running([&] { server.run([&](const std::string& u) { url.set_value(u); }); });
    const std::string base = url.get_future().get();
    REQUIRE(base.starts_with("http://127.0.0.1:"));
    const int port = std::stoi(base.substr(std::string("http://127.0.0.1:").size()));
    httplib::Client client("127.0.0.1", port);

    auto models = client.Get("/api/models");
    REQUIRE(models);
    CHECK(models->status == 200);
    CHECK(json::parse(models->body)["models"].size() > 5);
    auto fit = client.Post("/api/fit", R"({"model": "gpt2"})", "application/json");
    REQUIRE(fit);
    CHECK(fit->status == 200);
    CHECK(json::parse(fit->body).contains("peak_bytes"));
    if (fs::exists(kRoot / "web" / "index.html")) {
        auto page = client.Get("/");
        REQUIRE(page);
        CHECK(page->status == 200);
        CHECK(page->get_header_value("Content-Type").starts_with("text/html"));
    }
    if (fs::exists(kRoot / "web" / "node_modules" / "vega" / "build" / "vega.min.js")) {
        auto vega = client.Get("/vendor/vega.min.js");
        REQUIRE(vega);
        CHECK(vega->status == 200);
    }
    auto outside = client.Get("/../CMakeLists.txt");
    REQUIRE(outside);
    CHECK(outside->status == 404);
    auto not_vendor = client.Get("/vendor/secret.min.js");
    REQUIRE(not_vendor);
    CHECK(not_vendor->status == 404);
    auto foreign = client.Get("/api/models", {{"Host", "attacker.example:80"}});
    REQUIRE(foreign);
    CHECK(foreign->status == 403);
    auto quoted = client.Get("/api/models", {{"Host", "a\"b"}});
    REQUIRE(quoted);
    CHECK(quoted->status == 403);
    CHECK(json::parse(quoted->body)["error"] == "Host `a\"b` refused: serve with --allow-host to accept it");
    auto upper = client.Get("/api/models", {{"Host", "LOCALHOST"}});
    REQUIRE(upper);
    CHECK(upper->status == 200);
    // curl -d's type: httplib alone refused such a body over 8 KiB.
    const std::string padded = R"({"model": "gpt2", "strategy": {"tp": 1)" + std::string(9000, ' ') + "}}";
    auto form = client.Post("/api/fit", padded, "application/x-www-form-urlencoded");
    REQUIRE(form);
    CHECK(form->status == 200);
    // httplib's own refusals are JSON too; a known path asked wrongly, 405.
    // curl -F: httplib once answered 500 (no receiver for the parts).
    auto multipart = client.Post("/api/fit", httplib::MultipartFormDataItems{{"a", "b", "", ""}});
    REQUIRE(multipart);
    CHECK(multipart->status == 415);
    CHECK(json::parse(multipart->body)["error"] == "send the request as JSON, not multipart/form-data");
    auto wrong_method = client.Get("/api/fit");
    REQUIRE(wrong_method);
    CHECK(wrong_method->status == 405);
    CHECK(wrong_method->get_header_value("Allow") == "POST");
    CHECK(json::parse(wrong_method->body)["error"] == "/api/fit answers POST only");
    auto too_big = client.Post("/api/fit", std::string(serve::kMaxBodyBytes + 10, ' '), "application/json");
    REQUIRE(too_big);
    CHECK(too_big->status == 413);
    CHECK(json::parse(too_big->body)["error"] == "the request is larger than 4 MiB");
    auto no_path = client.Get("/api/nothing");
    REQUIRE(no_path);
    CHECK(no_path->status == 404);
    CHECK(json::parse(no_path->body).contains("error"));
    // A second server on the same port is refused (httplib's SO_REUSEPORT once let it start and take
    // half the requests).
    serve::ServerOptions same = o;
    same.port = port;
    serve::Server second(same);
    CHECK_THROWS_WITH(second.run([](const std::string&) {}), "cannot listen on 127.0.0.1:" + std::to_string(port));
    server.stop();
    running.join();
}

TEST_CASE("serve: fit --plot and sweep --budget --plot write the chart as one self-contained file", "[serve][cli]") {
    testing::TempDir dir;
    const fs::path html = dir / "fit.html";
    const std::string config = (kRoot / "examples" / "hf" / "llama-2-7b.json").string();
    const auto r = testing::run_oprec({"fit", config, "--pp", "2", "--plot", html.string()});
    if (!fs::exists(kRoot / "web" / "node_modules" / "vega" / "build" / "vega.min.js")) {
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("run `npm ci` in web/") != std::string::npos);
        CHECK(!fs::exists(html));
        return;
    }
    CHECK(r.exit_code == 0);
    const std::string text = testing::read_text(html);
    CHECK(text.starts_with("<!doctype html>"));
    CHECK(text.find("<script src") == std::string::npos);  // nothing fetched: it opens offline
    // The data drawn is the fit's JSON.
    const std::string from = "const FIT = ", to = ";\nvegaEmbed(";
    const std::size_t start = text.find(from), end = text.find(to);
    REQUIRE(start != std::string::npos);
    REQUIRE(end != std::string::npos);
    const json drawn = json::parse(text.substr(start + from.size(), end - start - from.size()));
    CHECK(drawn == cli_fit("llama-2-7b", {"--pp", "2"}));
    // sweep --budget --plot: the strategies that fit, as the JSON lists them.
    const fs::path sweep_html = dir / "sweep.html";
    const std::vector<std::string> sweep{"sweep", config, "--gpus", "8", "--tp", "1,2", "--pp", "1,2",
                                         "--budget", "80GiB", "--no-progress"};
    std::vector<std::string> plotted = sweep, as_json = sweep;
    plotted.insert(plotted.end(), {"--plot", sweep_html.string()});
    as_json.insert(as_json.end(), {"--format", "json"});
    CHECK(testing::run_oprec(plotted).exit_code == 0);
    const std::string page = testing::read_text(sweep_html);
    const std::string sweep_from = "const SWEEP = ";
    const std::size_t s0 = page.find(sweep_from), s1 = page.find(to);
    REQUIRE(s0 != std::string::npos);
    REQUIRE(s1 != std::string::npos);
    CHECK(json::parse(page.substr(s0 + sweep_from.size(), s1 - s0 - sweep_from.size())) ==
          json::parse(testing::run_oprec(as_json).out));
    // A place it cannot write: an error, no file.
    const auto bad = testing::run_oprec({"fit", config, "--plot", (dir / "no" / "such" / "dir.html").string()});
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--plot") != std::string::npos);
}

// `oprec serve` runs the program oprec-serve in its place, so that the
// HTTP library (and the OpenSSL it brings) is loaded by it alone: every
// other command starts about 6 ms of CPU sooner.
TEST_CASE("serve: `oprec serve` runs oprec-serve with its arguments, and oprec links no HTTP library", "[serve][cli]") {
    const auto help = testing::run_oprec({"serve", "--help"});
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("Usage: oprec serve") != std::string::npos);
    CHECK(help.out.find("--allow-host") != std::string::npos);

    const auto bad_port = testing::run_oprec({"serve", "--port", "70000"});
    CHECK(bad_port.exit_code == 2);
    CHECK(bad_port.err.find("--port") != std::string::npos);
    const auto bad_option = testing::run_oprec({"serve", "--no-such-option"});
    CHECK(bad_option.exit_code == 2);
    CHECK(bad_option.err.find("--no-such-option") != std::string::npos);

    // Serving: the URL line, until the signal (timeout's: 124).
    testing::TempDir dir;
    const std::string out = (dir / "out").string();
    const std::string command = "timeout 5 " + testing::shell_quote(OPREC_BINARY) + " serve --port 0 > " +
                                testing::shell_quote(out) + " 2>&1";
    const int status = std::system(command.c_str());
    CHECK(WEXITSTATUS(status) == 124);
    // Its first line on standard output (a warning of a missing chart library may come before it).
    const std::string said = testing::read_text(out);
    CHECK((said.starts_with("oprec serve: http://127.0.0.1:") ||
           said.find("\noprec serve: http://127.0.0.1:") != std::string::npos));

    // The command may be linked wholly static (CMakeLists.txt), so its
    // symbols are read, not the libraries ldd lists.
    const std::string symbols = (dir / "symbols").string();
    REQUIRE(std::system(("nm -C " + testing::shell_quote(OPREC_BINARY) + " > " + testing::shell_quote(symbols)).c_str()) == 0);
    const std::string defined = testing::read_text(symbols);
    CHECK(defined.find("oprec::cli::add_serve_command") != std::string::npos);  // nm listed the command's own
    CHECK(defined.find("httplib::") == std::string::npos);
    CHECK(defined.find("SSL_") == std::string::npos);
}
