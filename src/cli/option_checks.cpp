#include "cli/option_checks.h"

#include <charconv>
#include <string>

#include <fmt/format.h>

namespace oprec::cli {

CLI::Validator whole_number(std::int64_t least) {
    return CLI::Validator(
        [least](std::string& text) -> std::string {
            std::int64_t v = 0;
            const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
            if (ec == std::errc::result_out_of_range) return fmt::format("{} is beyond 64 bits", text);
            if (ec != std::errc() || ptr != text.data() + text.size() || v < least)
                return fmt::format("expected a whole number, at least {}, not `{}`", least, text);
            return {};
        },
        fmt::format("INT>={}", least));
}

}  // namespace oprec::cli
