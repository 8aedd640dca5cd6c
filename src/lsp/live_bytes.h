// Live bytes: the shipped pricing run on the document's own records for one
// layer, shown beside each slot and entry (inlay hints) and as the layer's
// parts (a code lens at the top). Recomputed on each change that loads; a
// change that does not keeps the last good numbers and says why.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lsp/analysis.h"
#include "lsp/protocol.h"
#include "lsp/text.h"
#include "oprec/records.h"

namespace oprec::lsp {

// `# rec: layer PATH` in the text, PATH as written.
std::optional<std::string> layer_directive(const Text& text);

// A layer document's text, read without blocking: a FIFO, a device, a
// directory or a file over kMaxLayerBytes is refused (std::runtime_error
// saying which), never opened for a read that could wait forever.
inline constexpr std::size_t kMaxLayerBytes = std::size_t{16} << 20;
std::string read_layer_file(const std::string& path);

struct SlotNumbers {
    std::string name;
    bool held = false;
    std::optional<Number> bytes;  // none: the slot raised (error says why)
    std::optional<Number> elements;  // the kept entries' sum
    std::vector<EntryBytes> entries;
    std::string error;
};

struct LayerNumbers {
    std::string layer;  // the layer document's path
    Named<Number> parts;
    std::optional<Number> total;
    std::vector<SlotNumbers> slots;
    std::string error;  // the layer raised as a whole
};

class LiveBytes {
public:
    // `setting`: the client's oprec.layer (absolute, or relative to `root_dir`).
    // `poll` is called between the pricing's steps, and may throw to stop it
    // (Server::poll); the last numbers are then kept.
    void update(const Analysis& a, const Text& text, const std::optional<std::string>& setting,
                const std::string& root_dir, const RecordsOptions& options, const std::function<void()>& poll = [] {});
    json inlay_hints(const Analysis& a, const Text& text, const Range& range) const;
    json code_lenses() const;
    const std::optional<LayerNumbers>& numbers() const { return last_good_; }
    const std::string& stale_reason() const { return why_not_; }

private:
    std::optional<LayerNumbers> last_good_;
    std::string why_not_;  // empty: the numbers are of the current text
};

}  // namespace oprec::lsp
