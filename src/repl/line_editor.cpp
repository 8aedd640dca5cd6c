#include "repl/line_editor.h"

#include <histedit.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

namespace oprec::repl {

namespace fs = std::filesystem;

struct LineEditor::Impl {
    std::string prompt;
    std::optional<fs::path> history_file;
    Completer complete;
    EditLine* el = nullptr;
    History* history = nullptr;
    HistEvent event{};
    bool cancelled = false;

    static Impl& of(EditLine* el) {
        void* self = nullptr;
        el_get(el, EL_CLIENTDATA, &self);
        return *static_cast<Impl*>(self);
    }

    static char* prompt_of(EditLine* el) { return of(el).prompt.data(); }

    // Ctrl-C: drop the line and start a new one. The terminal sends the key
    // to us (its interrupt character is off while editing), so no signal
    // interrupts libedit midway.
    static unsigned char cancel(EditLine* el, int) {
        Impl& self = of(el);
        self.cancelled = true;
        std::fputs("^C\n", stdout);
        std::fflush(stdout);
        return CC_NEWLINE;
    }

    // Tab: complete the word before the cursor, or list what it may become.
    static unsigned char tab(EditLine* el, int) {
        Impl& self = of(el);
        const LineInfo* line = el_line(el);
        const std::string_view before(line->buffer, static_cast<std::size_t>(line->cursor - line->buffer));
        const Completion c = self.complete(before);
        if (c.candidates.empty()) return CC_REFRESH_BEEP;
        const std::size_t typed = before.size() - std::min(c.start, before.size());
        auto insert = [&](const std::string& text) {
            if (!text.empty()) el_insertstr(el, text.c_str());
        };
        if (c.candidates.size() == 1) {
            insert(c.candidates[0].substr(typed) + c.suffix);
            return CC_REFRESH;
        }
        const std::string common = common_prefix(c.candidates);
        if (common.size() > typed) {
            insert(common.substr(typed));
            return CC_REFRESH;
        }
        list(c.candidates);
        return CC_REDISPLAY;
    }

    // The candidates in columns, below the line.
    static void list(const std::vector<std::string>& candidates) {
        std::size_t width = 80;
        winsize ws{};
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) width = ws.ws_col;
        std::size_t longest = 0;
        for (const std::string& c : candidates) longest = std::max(longest, c.size());
        const std::size_t column = longest + 2;
        const std::size_t columns = std::max<std::size_t>(1, width / column);
        const std::size_t rows = (candidates.size() + columns - 1) / columns;
        std::string out = "\n";
        for (std::size_t r = 0; r < rows; ++r) {
            std::string row;
            for (std::size_t col = 0; col < columns; ++col) {
                const std::size_t i = col * rows + r;
                if (i >= candidates.size()) break;
                row += candidates[i];
                if (col + 1 < columns && i + rows < candidates.size()) row.append(column - candidates[i].size(), ' ');
            }
            out += row + "\n";
        }
        std::fputs(out.c_str(), stdout);
        std::fflush(stdout);
    }
};

LineEditor::LineEditor(std::string prompt, std::optional<fs::path> history, Completer complete)
    : impl_(std::make_unique<Impl>()) {
    Impl& s = *impl_;
    s.prompt = std::move(prompt);
    s.history_file = std::move(history);
    s.complete = std::move(complete);

    s.history = history_init();
    ::history(s.history, &s.event, H_SETSIZE, 1000);
    ::history(s.history, &s.event, H_SETUNIQUE, 1);
    if (s.history_file) ::history(s.history, &s.event, H_LOAD, s.history_file->c_str());

    s.el = el_init("oprec", stdin, stdout, stderr);
    el_set(s.el, EL_CLIENTDATA, &s);
    el_set(s.el, EL_EDITOR, "emacs");
    el_set(s.el, EL_SIGNAL, 1);
    el_set(s.el, EL_PROMPT, &Impl::prompt_of);
    el_set(s.el, EL_HIST, ::history, s.history);
    el_set(s.el, EL_ADDFN, "oprec-complete", "Complete the word", &Impl::tab);
    el_set(s.el, EL_BIND, "^I", "oprec-complete", nullptr);
    el_set(s.el, EL_ADDFN, "oprec-cancel", "Cancel the line", &Impl::cancel);
    el_set(s.el, EL_BIND, "^C", "oprec-cancel", nullptr);
    el_set(s.el, EL_SETTY, "-d", "-isig", nullptr);  // Ctrl-C comes as a key while editing
    el_source(s.el, nullptr);                         // the user's ~/.editrc
}

LineEditor::~LineEditor() {
    if (impl_->el != nullptr) el_end(impl_->el);
    if (impl_->history != nullptr) history_end(impl_->history);
}

std::optional<std::string> LineEditor::read() {
    Impl& s = *impl_;
    s.cancelled = false;
    int count = 0;
    const char* line = el_gets(s.el, &count);
    if (s.cancelled) return std::string();
    if (line == nullptr || count <= 0) {
        if (count < 0 && errno == EINTR) return std::string();  // a signal while reading: a new line
        return std::nullopt;
    }
    std::string text(line, static_cast<std::size_t>(count));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

void LineEditor::remember(const std::string& line) {
    Impl& s = *impl_;
    const auto first = line.find_first_not_of(" \t");
    if (first == std::string::npos) return;
    const std::string entry = line.substr(first, line.find_last_not_of(" \t") + 1 - first);
    ::history(s.history, &s.event, H_ENTER, entry.c_str());
    if (!s.history_file) return;
    std::error_code ec;
    fs::create_directories(s.history_file->parent_path(), ec);
    ::history(s.history, &s.event, H_SAVE, s.history_file->c_str());  // unwritable: no history, no error
}

}  // namespace oprec::repl
