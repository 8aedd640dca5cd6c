// Formatting through `oprec fmt`'s library function: one edit replacing the
// whole text, so the client's cursor mapping stays simple.
#include "format/format.h"
#include "lsp/features.h"

namespace oprec::lsp {

json formatting(const Text& text, const std::string& path) {
    const format::Formatted out = format::format_source(text.str(), path);
    json edits = json::array();
    if (!out.ok() || *out.text == text.str()) return edits;
    edits.push_back({{"range", to_json(Range{{0, 0}, text.end()})}, {"newText", *out.text}});
    return edits;
}

}  // namespace oprec::lsp
