// A REPL session: the records (reloaded as their files change), one layer
// being edited, and the commands that query and edit them, all through the
// public API (include/oprec). Independent of any terminal: lines in, text
// out, so scripts and tests drive it as a person at a prompt does.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/layer.h"
#include "oprec/records.h"
#include "repl/completion.h"
#include "repl/file_watch.h"
#include "repl/output.h"

namespace oprec::repl {

struct SessionOptions {
    std::filesystem::path records;
    // How the records load (the data dir, import folders); `fit` loads the
    // whole-rank records the same way, with the op profiles.
    RecordsOptions load = {};
};

class Session {
public:
    // Loads the records; throws RecordsError when they do not load: there is
    // nothing yet to go on with.
    explicit Session(SessionOptions options);

    const Records& records() const { return *records_; }
    const Layer& layer() const { return *layer_; }
    // A layer of these records (Records::layer) to go on with.
    void set_layer(Layer layer) { layer_ = std::move(layer); }
    // The layer to begin with (`oprec repl --layer F --set ... --switch ...`):
    // the document (none: an empty layer), then the edits over it. Throws
    // std::invalid_argument (CommandError, for the file) naming what is
    // wrong, the layer left as it was. Returns warnings: the document's
    // fields that nothing reads.
    std::vector<std::string> start(const std::string& layer_file, const std::vector<std::string>& sets,
               const std::vector<std::string>& switches);

    // A line as typed: reload the records first if one of their files
    // changed, then run it. False when the command or the reload failed.
    bool handle(std::string_view line, const Output& out);
    // Runs one command (a blank line or a `#` comment does nothing).
    bool execute(std::string_view line, const Output& out);
    // Reloads when a watched file changed since the last load; false when
    // the new text does not load (the last records stay).
    bool reload_if_changed(const Output& out);
    bool reload(const Output& out, const std::string& why);

    bool done() const { return done_; }  // after :quit
    Completion complete(std::string_view before_cursor) const;

private:
    bool run(std::string_view word, std::string_view rest, const Output& out);
    bool switch_command(std::string_view rest, const Output& out);
    bool diff_command(std::string_view rest, const Output& out);
    bool fit_command(std::string_view rest, const Output& out);
    bool slot_command(std::string_view slot, std::string_view rest, const Output& out);
    bool expression(std::string_view text, const Output& out);
    std::vector<std::string> load_layer(std::string_view file);  // its warnings
    void check_slot(std::string_view name) const;

    SessionOptions options_;
    std::optional<Records> records_;  // the records that last loaded
    std::optional<Layer> layer_;      // bound to records_
    std::string layer_name_ = "<layer>";  // the file it came from, for messages
    FileWatch watch_;                 // the files of the last load, good or bad
    std::map<std::string, Records> fit_records_;  // by `records=` name, loaded once (again after :reload)
    bool done_ = false;
};

}  // namespace oprec::repl
