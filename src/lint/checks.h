// The linter's checks, each over the whole index, each adding its warnings
// to a Sink. One file each: check_NAME.cpp.
#pragma once

#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "lint/index.h"

namespace oprec::lint {

class Sink {
public:
    Diagnostic& warn(const char* code, const Span& span, std::string message) {
        out_.push_back({Severity::Warning, code, span, std::move(message), {}, {}});
        return out_.back();
    }
    std::vector<Diagnostic>& diagnostics() { return out_; }

private:
    std::vector<Diagnostic> out_;
};

void check_names(const Index& index, Sink& sink);       // W0101 W0107 W0116
void check_usage(const Index& index, Sink& sink);       // W0102 W0103 W0104 W0105 W0106
void check_needs(const Index& index, Sink& sink);       // W0108
void check_divisors(const Index& index, Sink& sink);    // W0109
void check_conditions(const Index& index, Sink& sink);  // W0110 W0111 W0112
void check_linear(const Index& index, Sink& sink);      // W0113

}  // namespace oprec::lint
