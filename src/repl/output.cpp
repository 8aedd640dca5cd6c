#include "repl/output.h"

#include <algorithm>

#include <fmt/format.h>

#include "diag/suggest.h"

namespace oprec::repl {

bool contains(const std::vector<std::string>& known, std::string_view name) {
    return std::find(known.begin(), known.end(), name) != known.end();
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& known) {
    std::optional<std::string> near = closest_name(name, known);
    if (!near && !name.empty()) {
        for (const std::string& k : known) {
            if (k.size() <= name.size() || k.compare(0, name.size(), name) != 0) continue;
            if (near) return "";  // more than one begins so: no guess
            near = k;
        }
    }
    return near ? fmt::format("did you mean `{}`?", *near) : "";
}

namespace {
void labelled(std::ostream& os, bool color, const char* ansi, const char* label, std::string_view message) {
    if (color) os << ansi << label << "\x1b[0m";
    else os << label;
    os << message << '\n';
}
}  // namespace

void Output::error(std::string_view message) const { labelled(err, color, "\x1b[1;31m", "error: ", message); }
void Output::warning(std::string_view message) const { labelled(err, color, "\x1b[1;33m", "warning: ", message); }
void Output::note(std::string_view message) const { labelled(err, color, "\x1b[1;36m", "note: ", message); }

}  // namespace oprec::repl
