#include "cli/option_checks.h"

#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

namespace oprec::cli {

std::int64_t parse_whole(const std::string& text, std::string_view option, std::int64_t least) {
    std::int64_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range)
        throw std::invalid_argument(fmt::format("--{} {}: beyond 64 bits", option, text));
    if (ec != std::errc() || ptr != text.data() + text.size() || v < least)
        throw std::invalid_argument(fmt::format("--{} {}: expected a whole number, at least {}", option, text, least));
    return v;
}

CLI::Validator whole_number(std::int64_t least) {
    return CLI::Validator(
        [least](std::string& text) -> std::string {
            try {
                parse_whole(text, "", least);
                return {};
            } catch (const std::invalid_argument& e) {  // CLI11 puts "--OPTION: " in front
                if (std::string(e.what()).find("beyond 64 bits") != std::string::npos)
                    return fmt::format("{} is beyond 64 bits", text);
                return fmt::format("expected a whole number, at least {}, not `{}`", least, text);
            }
        },
        fmt::format("INT>={}", least));
}

CLI::Validator not_empty() {
    return CLI::Validator([](std::string& text) -> std::string { return text.empty() ? "needs a value, not \"\"" : ""; },
                          "TEXT");
}

std::vector<std::string> list_items(const std::vector<std::string>& texts, std::string_view option) {
    std::vector<std::string> out;
    for (const std::string& text : texts) {
        std::size_t start = 0;
        for (;;) {
            const std::size_t comma = text.find(',', start);
            std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (item.empty()) throw std::invalid_argument(fmt::format("--{} {}: an empty value", option, text));
            out.push_back(std::move(item));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return out;
}

}  // namespace oprec::cli
