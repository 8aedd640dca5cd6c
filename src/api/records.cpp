// Records: loading, the vocabulary, and making layers.
#include <dlfcn.h>

#include <cctype>
#include <fstream>
#include <sstream>

#include "diag/read_file.h"
#include "api/state.h"
#include "check/loader.h"
#include "convert/convert.h"
#include "diag/diagnostic.h"
#include "hf/load.h"
#include "model/field_check.h"
#include "model/layer.h"  // kContextValues

namespace oprec {

namespace fs = std::filesystem;

namespace {

// Each diagnostic as the public Problem.
std::vector<Problem> problems(const std::vector<Diagnostic>& diagnostics, const SourceMap& sources) {
    std::vector<Problem> problems;
    for (const Diagnostic& d : diagnostics) {
        Problem p;
        p.severity = static_cast<Problem::Severity>(d.severity);
        p.code = d.code;
        p.message = d.message;
        p.where = detail::position(d.span, sources);
        p.rendered = render(d, sources);
        p.rendered_color = render(d, sources, /*color=*/true);
        problems.push_back(std::move(p));
    }
    return problems;
}

}  // namespace

RecordsError detail::records_error(const std::vector<Diagnostic>& diagnostics, const SourceMap& sources,
                                   std::vector<std::filesystem::path> files) {
    return RecordsError(render_all(diagnostics, sources), problems(diagnostics, sources), std::move(files));
}

namespace {

LoadOptions load_options(const RecordsOptions& options) {
    LoadOptions out;
    out.search_path.push_back((options.data_dir.empty() ? Records::default_data_dir() : options.data_dir) / "stdlib");
    for (const fs::path& dir : options.search_path) out.search_path.push_back(dir);
    out.unsaved = options.unsaved;
    return out;
}

Records make(LoadResult loaded, std::string source, RunTier tier) {
    if (!loaded.program) throw detail::records_error(loaded.diagnostics, loaded.sources, std::move(loaded.files));
    auto state = std::make_shared<detail::RecordsState>();
    state->source = std::move(source);
    state->program = std::move(*loaded.program);
    state->modules = std::move(loaded.modules);
    state->files = std::move(loaded.files);
    for (const FieldInfo& f : state->program.fields) {
        state->schema.push_back({f.name, f.types, f.optional, f.context});
        if (!f.context) state->readable.insert(f.name);
    }
    state->readable.insert(state->program.names.begin(), state->program.names.end());
    state->readable.erase("total");
    state->readable.erase("kv_shards");
    auto evaluator = std::make_unique<RecordsEvaluator>(state->program);
    evaluator->set_tier(tier);
    state->evaluator = std::move(evaluator);
    for (const RecordInfo& r : state->program.records) state->record_names.push_back(r.name);
    for (const SlotInfo& s : state->program.slots) state->slot_names.push_back(s.name);
    return detail::Access::records(std::move(state));
}

// A shipped record set's name ("calibrated"), or a path.
fs::path resolve(const fs::path& path_or_name, const RecordsOptions& options) {
    const std::string text = path_or_name.string();
    if (!text.empty() && text.find('/') == std::string::npos && !path_or_name.has_extension()) {
        const fs::path shipped =
            (options.data_dir.empty() ? Records::default_data_dir() : options.data_dir) / "records" / (text + ".rec");
        std::error_code ec;
        if (fs::exists(shipped, ec)) return shipped;
    }
    return path_or_name;
}

}  // namespace

fs::path Records::default_data_dir() {
    std::error_code ec;
    // Beside the library (or the program linking it), installed anywhere:
    // PREFIX/lib/liboprec.so or PREFIX/bin/oprec with PREFIX/share/oprec; or
    // the Python package's extension, site-packages/oprec/_oprec.so, with
    // the data pip installed beside it in oprec/data (setup.py).
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&Records::default_data_dir), &info) != 0 && info.dli_fname != nullptr) {
        const fs::path dir = fs::path(info.dli_fname).parent_path();
        const fs::path package = dir / "data";
        if (fs::exists(package / "stdlib", ec)) return package;
        const fs::path beside = dir.parent_path() / "share" / "oprec";
        if (fs::exists(beside / "stdlib", ec)) return beside;
    }
    // A build tree's library reads the source tree's data, so an edit to
    // records/ needs no install, whatever an earlier install left in the prefix.
    const fs::path source = OPREC_SOURCE_DIR;
    if (fs::exists(source / "stdlib", ec)) return source;
    return OPREC_INSTALL_DATADIR;
}

const std::vector<std::string>& context_names() {
    static const std::vector<std::string> names(kContextValues.begin(), kContextValues.end());
    return names;
}

Records Records::shipped(const RecordsOptions& options) { return load("op_records", options); }

Records detail::load_records(const fs::path& path_or_name, const RecordsOptions& options, RunTier tier) {
    const fs::path path = resolve(path_or_name, options);
    const LoadOptions load = load_options(options);
    return make(options.profiles ? hf::load_with_profiles(path, *options.profiles, load) : load_file(path, load),
                path.string(), tier);
}

Records Records::load(const fs::path& path_or_name, const RecordsOptions& options) {
    return detail::load_records(path_or_name, options, RunTier::Auto);
}

Records Records::from_text(std::string text, std::string name, const RecordsOptions& options) {
    std::string source = name;
    return make(load_text(std::move(text), std::move(name), load_options(options)), std::move(source), RunTier::Auto);
}

const std::string& Records::source() const { return state_->source; }
const std::vector<std::string>& Records::slots() const { return state_->slot_names; }
const std::vector<std::string>& Records::ops() const { return state_->record_names; }
const std::vector<std::string>& Records::switches() const { return state_->program.switches; }
const std::vector<std::string>& Records::parts() const { return state_->program.layer_parts; }
const std::vector<std::string>& Records::names() const { return state_->program.names; }

Named<Number> Records::defaults() const {
    Named<Number> out;
    const Program& p = state_->program;
    for (std::size_t id = 0; id < p.names.size(); ++id)
        if (p.defaults[id]) out.emplace_back(p.names[id], detail::to_number(*p.defaults[id]));
    return out;
}

namespace {

// The source lines of a slot: the comments just above it, then from its
// header to the brace that closes it.
std::vector<std::uint32_t> slot_lines(const SourceFile& file, std::uint32_t header) {
    std::vector<std::uint32_t> lines;
    std::uint32_t first = header;
    while (first > 1) {
        std::string_view above = file.line(first - 1);
        const auto text = above.find_first_not_of(" \t");
        if (text == std::string_view::npos || above[text] != '#') break;
        --first;
    }
    for (std::uint32_t l = first; l < header; ++l) lines.push_back(l);
    int depth = 0;
    bool opened = false;
    for (std::uint32_t l = header; l <= file.line_count(); ++l) {
        lines.push_back(l);
        std::string_view text = file.line(l);
        text = text.substr(0, text.find('#'));
        for (char c : text) {
            if (c == '{') {
                ++depth;
                opened = true;
            } else if (c == '}') {
                --depth;
            }
        }
        if (opened && depth <= 0) break;
    }
    return lines;
}

// The condition of a slot's `when` as written, from its header line
// (`slot NAME in PART when COND {`, a comment after it aside); the whole
// header line when the condition cannot be told apart, never nothing.
std::optional<std::string> when_text(const Program& program, const SlotInfo& s) {
    if (!s.when) return std::nullopt;
    if (!s.span.known()) return std::string("?");
    std::string line(program.sources.file(s.span.file).line(s.span.line));
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    const auto is_word = [&](std::size_t at) {
        const auto name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
        return (at == 0 || !name(line[at - 1])) && (at + 4 >= line.size() || !name(line[at + 4]));
    };
    std::size_t at = line.find("when", s.span.col - 1 + s.span.len);
    while (at != std::string::npos && !is_word(at)) at = line.find("when", at + 4);
    std::string cond = at == std::string::npos ? line : line.substr(at + 4);
    if (const auto brace = cond.rfind('{'); brace != std::string::npos) cond.resize(brace);
    const auto first = cond.find_first_not_of(" \t");
    const auto last = cond.find_last_not_of(" \t");
    return first == std::string::npos ? line : cond.substr(first, last - first + 1);
}

// f()'s id, an unknown name raising as the public PricingError.
template <class F>
auto found(const Program& p, F&& f) {
    try {
        return f();
    } catch (const EvalError& e) {
        throw detail::pricing_error(e, p.sources);
    }
}

}  // namespace

SlotDecl Records::slot_decl(std::string_view slot) const {
    const Program& p = state_->program;
    const SlotInfo& s = p.slots[found(p, [&] { return state_->evaluator->slot_id(slot); })];
    SlotDecl out;
    out.name = s.name;
    out.part = p.layer_parts[s.layer_part];
    out.when = when_text(p, s);
    for (const SlotEntryInfo& e : s.entries) out.entries.push_back(p.records[e.record].name);
    out.where = detail::position(s.span, p.sources);
    if (s.span.known()) {
        const SourceFile& file = p.sources.file(s.span.file);
        for (std::uint32_t l : slot_lines(file, s.span.line)) {
            if (out.lines.empty()) out.first_line = l;
            out.lines.emplace_back(file.line(l));
        }
    }
    return out;
}

OpDecl Records::op_decl(std::string_view op) const {
    const Program& p = state_->program;
    const RecordInfo& r = p.records[found(p, [&] { return state_->evaluator->record_id(op); })];
    OpDecl out{r.name, std::nullopt, std::nullopt};
    if (r.switch_id) out.switch_name = p.switches[*r.switch_id];
    if (r.part_of) out.part_of = p.records[*r.part_of].name;
    return out;
}

const std::vector<FieldDecl>& Records::schema() const { return state_->schema; }
const std::vector<std::filesystem::path>& Records::files() const { return state_->files; }

std::string Records::to_yaml() const { return yaml::yaml_from_rec(state_->modules, state_->program, state_->source); }

bool Records::has_profiles() const { return !state_->program.profiles.families.empty(); }

Layer Records::layer(std::string_view json_text, std::string_view source_name) const {
    LayerDoc doc;
    try {
        doc = parse_layer_doc_text(json_text, source_name);
        check_field_types(doc.fields, state_->program, source_name);
    } catch (const LayerDocError& e) {
        throw LayerError(e.what());
    }
    return detail::Access::layer(std::make_unique<detail::LayerState>(state_, std::string(source_name), std::move(doc)));
}

Layer Records::layer(const Layer& other) const {
    const detail::LayerState& from = detail::Access::state(other);
    try {
        check_field_types(from.doc.fields, state_->program, from.source);
    } catch (const LayerDocError& e) {
        throw LayerError(e.what());
    }
    return detail::Access::layer(std::make_unique<detail::LayerState>(state_, from.source, from.doc));
}

Layer Records::layer_file(const fs::path& path) const {
    std::string why;
    std::optional<std::string> text = read_file_capped(path, kMaxDocumentBytes, why);
    if (!text) throw LayerError("cannot read `" + path.string() + "`: " + why);
    return layer(*text, path.string());
}

}  // namespace oprec
