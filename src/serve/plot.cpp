#include "serve/plot.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "serve/vendor.h"

namespace oprec::serve {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> slurp(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Text inside <script>: only `</script` would end the element early (the
// libraries hold none; a term's name in the JSON might), and `<\/` means
// the same inside a JS string or regular expression.
std::string script_safe(std::string text) {
    for (std::size_t at = 0; (at = text.find("</", at)) != std::string::npos; at += 3) {
        std::string next = text.substr(at + 2, 6);
        for (char& c : next) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (next == "script") text.replace(at, 2, "<\\/");
    }
    return text;
}

std::string html_escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '&') out += "&amp;";
        else out += c;
    }
    return out;
}

}  // namespace

namespace {

// A page holding the chart library, web/chart.js, the data as `const NAME`
// and a script drawing `chart` (a call of oprecCharts) into #chart.
std::optional<std::string> chart_html(const std::string& title, const std::string& name, const std::string& data,
                                      const std::string& chart, const fs::path& web_dir, const fs::path& vendor_dir,
                                      std::string& why) {
    std::string scripts;
    for (const char* file_name : {"vega.min.js", "vega-lite.min.js", "vega-embed.min.js"}) {
        const auto file = vendor_file(vendor_dir, file_name);
        const auto text = file ? slurp(*file) : std::nullopt;
        if (!text) {
            why = fmt::format("the chart library's {} is missing (run `npm ci` in web/)", file_name);
            return std::nullopt;
        }
        scripts += "<script>" + script_safe(*text) + "</script>\n";
    }
    const auto charts = slurp(web_dir / "chart.js");
    if (!charts) {
        why = fmt::format("{} is missing", (web_dir / "chart.js").string());
        return std::nullopt;
    }
    scripts += "<script>" + script_safe(*charts) + "</script>\n";
    return fmt::format(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n{1}"
        "<style>body {{ font-family: system-ui, sans-serif; margin: 2em; }}</style>\n</head>\n<body>\n"
        "<h1>{0}</h1>\n<div id=\"chart\"></div>\n<script>\nconst {2} = {3};\n"
        "vegaEmbed('#chart', {4}, {{actions: false}});\n</script>\n</body>\n</html>\n",
        html_escape(title), scripts, name, script_safe(data), chart);
}

}  // namespace

std::optional<std::string> fit_plot_html(const std::string& title, const std::string& fit_json,
                                         const fs::path& web_dir, const fs::path& vendor_dir, std::string& why) {
    return chart_html(title, "FIT", fit_json, "oprecCharts.stages(FIT)", web_dir, vendor_dir, why);
}

std::optional<std::string> sweep_plot_html(const std::string& title, const std::string& sweep_json,
                                           const fs::path& web_dir, const fs::path& vendor_dir, std::string& why) {
    // The sweep's rows as the page's sweep points (docs/serve.md, /api/sweep).
    const std::string points =
        "oprecCharts.sweep(SWEEP.fits.map(f => ({strategy: f, peak_bytes: f.peak_bytes, peak_stage: f.peak_stage, "
        "fits: true, recompute_level: ['none', 'selective', 'full'].indexOf(f.recompute)})), SWEEP.budget_bytes)";
    return chart_html(title, "SWEEP", sweep_json, points, web_dir, vendor_dir, why);
}

}  // namespace oprec::serve
