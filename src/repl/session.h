// A REPL session: the records (reloaded as their files change), one layer
// being edited, and the commands that query and edit them. Independent of
// any terminal: lines in, text out, so scripts and tests drive it as a
// person at a prompt does.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "check/loader.h"
#include "model/layer.h"
#include "model/evaluator.h"
#include "oprec/records.h"
#include "repl/completion.h"
#include "repl/file_watch.h"
#include "repl/output.h"

namespace oprec::repl {

struct SessionOptions {
    std::filesystem::path records;
    LoadOptions load;
    // How `fit` loads the whole-rank records (data_dir, search path); the op
    // profiles are added.
    RecordsOptions fit_records = {};
};

class Session {
public:
    // Loads the records (printing any warnings to `out.err`); throws LoadError
    // when they do not load: there is nothing yet to go on with.
    Session(SessionOptions options, const Output& out);

    const Program& program() const { return *program_; }
    const LayerDoc& layer() const { return layer_; }
    void set_layer(LayerDoc layer) { layer_ = std::move(layer); }
    // The layer to begin with (`oprec repl --layer F --set ... --switch ...`):
    // the document (none: an empty layer), then the edits over it. Throws
    // std::invalid_argument (CommandError, for the file) naming what is wrong.
    void start(const std::string& layer_file, const std::vector<std::string>& sets,
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
    void load_layer(std::string_view file);
    void check_slot(std::string_view name) const;

    SessionOptions options_;
    // The records that last loaded, and the engine pricing them: made once
    // per load, kept for every command until the records reload.
    void adopt(Program program);
    std::unique_ptr<const Program> program_;
    std::unique_ptr<const RecordsEvaluator> engine_;  // refers to *program_
    FileWatch watch_;                 // the files of the last load, good or bad
    LayerDoc layer_;
    std::map<std::string, Records> fit_records_;  // by `records=` name, loaded once (again after :reload)
    bool done_ = false;
};

}  // namespace oprec::repl
