// SARIF 2.1.0: one run of `oprec lint` over every file it was given, the
// rules being every code it knows. Columns count Unicode code points.
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "diag/codes.h"
#include "lint/output.h"

namespace oprec::lint {

namespace {

using nlohmann::ordered_json;

// A path as a URI reference: relative paths stay relative, absolute ones
// become file: URIs; anything but unreserved characters and `/` is escaped.
std::string uri_of(const std::string& path) {
    std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

const char* level_of(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "warning";
}

class Log {
public:
    ordered_json location(const Span& span, const SourceMap& sources) {
        ordered_json loc = ordered_json::object();
        if (!span.known() || span.file >= sources.size()) return loc;  // no place: no file either
        ordered_json physical{{"artifactLocation", artifact(sources.file(span.file).path())}};
        if (auto r = range_of(span, sources)) physical["region"] = region(*r);
        loc["physicalLocation"] = std::move(physical);
        return loc;
    }

    ordered_json artifact(const std::string& path) {
        const std::string uri = uri_of(path);
        auto [it, fresh] = artifact_index_.emplace(uri, artifacts_.size());
        if (fresh) artifacts_.push_back({{"location", {{"uri", uri}}}});
        return {{"uri", uri}, {"index", it->second}};
    }

    static ordered_json region(const Range& r) {
        return {{"startLine", r.line}, {"startColumn", r.column}, {"endLine", r.end_line}, {"endColumn", r.end_column}};
    }

    std::size_t rule(const std::string& code, Severity severity) {
        auto [it, fresh] = rule_index_.emplace(code, rules_.size());
        if (fresh) {
            const CodeInfo* info = find_code(code);
            ordered_json r{{"id", code}};
            if (info != nullptr) {
                r["name"] = std::string(info->name);
                r["shortDescription"] = {{"text", std::string(info->summary)}};
            }
            r["defaultConfiguration"] = {{"level", level_of(info != nullptr ? info->severity : severity)}};
            rules_.push_back(std::move(r));
        }
        return it->second;
    }

    ordered_json result(const Diagnostic& d, const SourceMap& sources) {
        ordered_json res;
        res["ruleId"] = d.code;
        res["ruleIndex"] = rule(d.code, d.severity);
        res["level"] = level_of(d.severity);
        res["message"] = {{"text", d.message}};
        ordered_json loc = location(d.span, sources);
        res["locations"] = loc.empty() ? ordered_json::array() : ordered_json::array({loc});
        if (!d.notes.empty()) {
            ordered_json related = ordered_json::array();
            int id = 1;
            for (const Note& n : d.notes) {
                ordered_json l = location(n.span, sources);
                l["id"] = id++;
                l["message"] = {{"text", n.message}};
                related.push_back(std::move(l));
            }
            res["relatedLocations"] = std::move(related);
        }
        if (d.fix && d.fix->span.file < sources.size()) {
            if (auto r = range_of(d.fix->span, sources)) {
                const std::string text = d.fix->message.empty()
                                             ? fmt::format("did you mean `{}`?", d.fix->replacement)
                                             : d.fix->message;
                ordered_json change{{"artifactLocation", artifact(sources.file(d.fix->span.file).path())},
                                    {"replacements", ordered_json::array({{{"deletedRegion", region(*r)},
                                                                           {"insertedContent",
                                                                            {{"text", d.fix->replacement}}}}})}};
                res["fixes"] = ordered_json::array(
                    {{{"description", {{"text", text}}}, {"artifactChanges", ordered_json::array({change})}}});
            }
        }
        return res;
    }

    ordered_json rules() const { return rules_; }
    ordered_json artifacts() const { return artifacts_; }

private:
    std::map<std::string, std::size_t> artifact_index_, rule_index_;
    ordered_json artifacts_ = ordered_json::array();
    ordered_json rules_ = ordered_json::array();
};

}  // namespace

ordered_json sarif_output(const std::vector<Report>& reports) {
    Log log;
    // Every known code is a rule, in code order, so indexes are stable.
    for (const CodeInfo& c : all_codes()) log.rule(std::string(c.code), c.severity);
    ordered_json results = ordered_json::array();
    bool ran = true;
    for (const Report& r : reports) {
        ran = ran && !r.could_not_run;
        for (const Diagnostic& d : r.diagnostics) results.push_back(log.result(d, r.sources));
    }
    ordered_json driver{{"name", "oprec lint"},
                        {"version", "0.1.0"},
                        {"rules", log.rules()}};
    ordered_json run{{"tool", {{"driver", std::move(driver)}}},
                     {"invocations", ordered_json::array({{{"executionSuccessful", ran}}})},
                     {"columnKind", "unicodeCodePoints"},
                     {"artifacts", log.artifacts()},
                     {"results", std::move(results)}};
    return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
            {"version", "2.1.0"},
            {"runs", ordered_json::array({std::move(run)})}};
}

}  // namespace oprec::lint
