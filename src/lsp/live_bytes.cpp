#include "lsp/live_bytes.h"

#include <filesystem>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <regex>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "value/bytes_text.h"

namespace oprec::lsp {

namespace fs = std::filesystem;

namespace {

std::string bytes_text(const Number& n) { return human_bytes(n.to_double()); }

std::string elements_text(const Number& n) {
    const double d = n.to_double();
    return d == static_cast<double>(static_cast<long long>(d)) && std::abs(d) < 1e15 ? fmt::format("{}", static_cast<long long>(d))
                                                                                      : fmt::format("{:.6g}", d);
}

LayerNumbers price(const Records& records, const Layer& layer, const std::string& path, const std::function<void()>& poll) {
    LayerNumbers out;
    out.layer = path;
    try {
        out.parts = layer.parts();
        out.total = layer.total();
    } catch (const PricingError& e) {
        out.error = e.what();
    }
    // Whether each slot holds comes with the pricing of all; when one slot
    // raises, each is priced alone and counted as held.
    std::vector<SlotBytes> all;
    try {
        all = layer.slots();
    } catch (const PricingError&) {
    }
    for (std::size_t i = 0; i < records.slots().size(); ++i) {
        poll();
        SlotNumbers s;
        s.name = records.slots()[i];
        s.held = i < all.size() ? all[i].held : true;
        try {
            s.bytes = layer.slot(s.name);
            s.entries = layer.entries(s.name);
            double sum = 0;
            bool any = false;
            for (const EntryBytes& e : s.entries)
                if (e.kept) {
                    sum += e.elements.to_double();
                    any = true;
                }
            s.elements = Number::real(any ? sum : 0);
        } catch (const PricingError& e) {
            s.error = e.what();
        }
        out.slots.push_back(std::move(s));
    }
    return out;
}

// Where a hint goes: the end of a line, as LSP counts.
Pos end_of(const Text& text, std::uint32_t line_1based) {
    const std::uint32_t l = line_1based == 0 ? 0 : line_1based - 1;
    return {l, utf16_length(text.line(l))};
}

// Where a slot's numbers go: its header's line and each entry's (1-based).
struct SlotAnchor {
    std::string name;
    std::uint32_t line = 0;
    std::vector<std::pair<std::string, std::uint32_t>> entries;  // op, line
};

// From the AST, when the text parses.
std::vector<SlotAnchor> anchors_of(const Analysis& a) {
    std::vector<SlotAnchor> out;
    for (const ast::Module& m : a.load.modules) {
        if (!a.root || m.file != *a.root) continue;
        for (const ast::Decl& d : m.decls) {
            const auto* slot = std::get_if<ast::SlotDecl>(&d);
            if (!slot) continue;
            SlotAnchor anchor{slot->name.text, slot->name.span.line, {}};
            for (const ast::SlotEntry& e : slot->entries)
                if (e.target.text != "bytes") anchor.entries.emplace_back(e.target.text, e.target.span.line);
            out.push_back(std::move(anchor));
        }
    }
    return out;
}

// From the text's lines, as the formatter lays slots out, while the text
// mid-edit does not parse: the last good numbers stay beside their lines.
std::vector<SlotAnchor> anchors_of(const Text& text) {
    static const std::regex slot_head(R"(^slot\s+([A-Za-z_]\w*)\b)"), entry(R"(^\s+([A-Za-z_]\w*)\s*=[^=])");
    std::vector<SlotAnchor> out;
    bool in_slot = false;
    for (std::uint32_t l = 0; l < text.line_count(); ++l) {
        const std::string_view line = text.line(l);
        if (line.size() > 4096) continue;  // (std::regex recurses per character)
        std::cmatch m;
        if (std::regex_search(line.begin(), line.end(), m, slot_head)) {
            out.push_back({m[1].str(), l + 1, {}});
            in_slot = true;
        } else if (!line.empty() && line[0] == '}') {
            in_slot = false;
        } else if (in_slot && std::regex_search(line.begin(), line.end(), m, entry) && m[1].str() != "bytes") {
            out.back().entries.emplace_back(m[1].str(), l + 1);
        }
    }
    return out;
}

json hint(Pos at, std::string label, std::string tooltip) {
    return {{"position", to_json(at)}, {"label", "  " + label}, {"paddingLeft", true}, {"tooltip", std::move(tooltip)}};
}

}  // namespace

std::optional<std::string> layer_directive(const Text& text) {
    static const std::regex directive(R"(^\s*#\s*rec:\s*layer\s+(\S+)\s*$)");
    for (std::uint32_t l = 0; l < text.line_count(); ++l) {
        const std::string_view line = text.line(l);
        if (line.find("rec:") == std::string_view::npos || line.size() > 4096) continue;  // (std::regex recurses per character)
        std::cmatch m;
        if (std::regex_match(line.begin(), line.end(), m, directive)) return m[1].str();
    }
    return std::nullopt;
}

std::string read_layer_file(const std::string& path) {
    // Opened without blocking (a FIFO's open waits for a writer), then
    // asked what it is: the answer is about the file opened, not a name
    // that may have changed since.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw std::runtime_error("cannot read `" + path + "`: " + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st{};
    if (::fstat(fd, &st) != 0) throw std::runtime_error("cannot read `" + path + "`: " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw std::runtime_error("`" + path + "` is a directory, not a layer document");
    if (!S_ISREG(st.st_mode))
        throw std::runtime_error("`" + path + "` is not a regular file (a FIFO, socket or device): the server reads only files");
    if (static_cast<std::uint64_t>(st.st_size) > kMaxLayerBytes)
        throw std::runtime_error(fmt::format("`{}` is larger than {} MiB: not a layer document", path, kMaxLayerBytes >> 20));
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw std::runtime_error("cannot read `" + path + "`: " + std::strerror(errno));
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > kMaxLayerBytes)  // it grew while read
            throw std::runtime_error(fmt::format("`{}` is larger than {} MiB: not a layer document", path, kMaxLayerBytes >> 20));
    }
    return text;
}

void LiveBytes::update(const Analysis& a, const Text& text, const std::optional<std::string>& setting,
                       const std::string& root_dir, const RecordsOptions& options, const std::function<void()>& poll) {
    std::string layer_path;
    if (const auto d = layer_directive(text)) {
        layer_path = (fs::path(a.path).parent_path() / *d).lexically_normal().string();
    } else if (setting && !setting->empty()) {
        layer_path = fs::path(*setting).is_absolute() ? *setting : (fs::path(root_dir) / *setting).lexically_normal().string();
    } else {
        last_good_.reset();
        why_not_ = "no layer chosen: add `# rec: layer PATH` or set oprec.layer";
        return;
    }
    if (!a.load.ok()) {
        why_not_ = "the records do not load";
        for (const Diagnostic& d : a.diagnostics)
            if (d.severity == Severity::Error) {
                why_not_ = fmt::format("{}:{}: {} [{}]", d.span.line, d.span.col, d.message, d.code);
                break;
            }
        return;
    }
    if (a.unpriced) {
        why_not_ = *a.unpriced;
        return;
    }
    try {
        const std::string document = read_layer_file(layer_path);
        poll();
        const Records records = Records::from_text(text.str(), a.path, options);
        poll();
        const Layer layer = records.layer(document, layer_path);
        last_good_ = price(records, layer, layer_path, poll);
        why_not_.clear();
    } catch (const std::exception& e) {
        // A layer that cannot be read, records the API refuses: keep the
        // last numbers, say why.
        why_not_ = e.what();
        if (const auto nl = why_not_.find('\n'); nl != std::string::npos) why_not_.resize(nl);
    }
}

json LiveBytes::inlay_hints(const Analysis& a, const Text& text, const Range& range) const {
    json out = json::array();
    if (!last_good_) return out;
    const std::string stale = why_not_.empty() ? "" : " (last good: " + why_not_ + ")";
    for (const SlotAnchor& anchor : a.parsed ? anchors_of(a) : anchors_of(text)) {
        const auto it = std::find_if(last_good_->slots.begin(), last_good_->slots.end(),
                                     [&](const SlotNumbers& s) { return s.name == anchor.name; });
        if (it == last_good_->slots.end()) continue;
        const Pos head = end_of(text, anchor.line);
        if (!it->error.empty())
            out.push_back(hint(head, "raises", it->error));
        else if (it->bytes)
            out.push_back(hint(head, fmt::format("{}{} = {} elements", it->held ? "" : "not held: ", bytes_text(*it->bytes),
                                                 elements_text(*it->elements)),
                               fmt::format("slot {} on {}: {} bytes{}", it->name, last_good_->layer, it->bytes->repr(), stale)));
        // The slot's entries in order, matched to the numbers' by op.
        std::size_t k = 0;
        for (const auto& [op, line] : anchor.entries) {
            while (k < it->entries.size() && it->entries[k].op != op) ++k;
            if (k == it->entries.size()) break;
            const EntryBytes& e = it->entries[k++];
            out.push_back(hint(end_of(text, line),
                               fmt::format("{}{} = {} elements", e.kept ? "" : "dropped: ", bytes_text(e.bytes), elements_text(e.elements)),
                               fmt::format("{} in {}: {} bytes alone{}", e.op, it->name, e.bytes.repr(), stale)));
        }
    }
    // Only the hints in the range asked for.
    json kept = json::array();
    for (json& h : out) {
        const std::uint32_t line = h["position"]["line"].get<std::uint32_t>();
        if (line >= range.start.line && line <= range.end.line) kept.push_back(std::move(h));
    }
    return kept;
}

json LiveBytes::code_lenses() const {
    std::string title;
    if (last_good_) {
        title = fs::path(last_good_->layer).filename().string() + ":";
        for (const auto& [part, bytes] : last_good_->parts) title += fmt::format(" {} {},", part, bytes_text(bytes));
        if (last_good_->total) title += " layer " + bytes_text(*last_good_->total);
        if (!last_good_->error.empty()) title += " raises: " + last_good_->error;
        if (!why_not_.empty()) title += " (stale: " + why_not_ + ")";
    } else {
        title = "live bytes: " + why_not_;
    }
    json lens = {{"range", to_json(Range{})}, {"command", {{"title", title}, {"command", ""}}}};
    return json::array({lens});
}

}  // namespace oprec::lsp
