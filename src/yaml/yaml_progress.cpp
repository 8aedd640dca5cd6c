#include "yaml/yaml_progress.h"

#include <cstddef>
#include <sstream>
#include <string>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

namespace oprec::yaml {

namespace {

struct Stalled {
    YAML::Mark mark;
};

// Counts events; past the budget, throws where the last one was.
class EventBudget final : public YAML::EventHandler {
public:
    explicit EventBudget(std::size_t budget) : left_(budget) {}

    void OnDocumentStart(const YAML::Mark& m) override { tick(m); }
    void OnDocumentEnd() override { tick(last_); }
    void OnNull(const YAML::Mark& m, YAML::anchor_t) override { tick(m); }
    void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { tick(m); }
    void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { tick(m); }
    void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        tick(m);
    }
    void OnSequenceEnd() override { tick(last_); }
    void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        tick(m);
    }
    void OnMapEnd() override { tick(last_); }

private:
    void tick(const YAML::Mark& m) {
        last_ = m;
        if (left_-- == 0) throw Stalled{m};
    }
    std::size_t left_;
    YAML::Mark last_ = YAML::Mark::null_mark();
};

}  // namespace

std::optional<YAML::Mark> where_parser_stalls(std::string_view text) {
    // A token yields at most a few events (a key and its empty value, a
    // collection's start and end): four per byte is far beyond any document.
    EventBudget budget(4 * text.size() + 64);
    std::istringstream in{std::string(text)};
    try {
        YAML::Parser parser(in);
        while (parser.HandleNextDocument(budget)) {
        }
    } catch (const Stalled& s) {
        return s.mark;
    } catch (const YAML::Exception&) {  // a syntax error: the load reports it
    }
    return std::nullopt;
}

}  // namespace oprec::yaml
