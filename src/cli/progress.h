// What a long command shows and hears while it runs: a progress bar on
// standard error, and Ctrl-C asking it to stop after the item at hand
// (oprec sweep's strategies).
#pragma once

#include <chrono>
#include <csignal>
#include <signal.h>
#include <cstddef>
#include <iostream>

#include <fmt/format.h>

namespace oprec::cli {

namespace detail {
// The one piece of global state: what the signal handler may touch (the signal).
inline volatile std::sig_atomic_t g_interrupted = 0;
extern "C" inline void on_interrupt(int signal) { g_interrupted = signal; }
}  // namespace detail

// Ctrl-C (SIGINT) or SIGTERM (a job's time limit, `kill`) stops the sweep
// after the strategy being priced, and what was priced is written; the old
// handlers come back when the sweep ends.
class InterruptGuard {
public:
    InterruptGuard() {
        detail::g_interrupted = 0;
        struct sigaction action {};
        action.sa_handler = detail::on_interrupt;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &previous_);
        sigaction(SIGTERM, &action, &previous_term_);
    }
    ~InterruptGuard() {
        sigaction(SIGINT, &previous_, nullptr);
        sigaction(SIGTERM, &previous_term_, nullptr);
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;
    bool interrupted() const { return detail::g_interrupted != 0; }
    // The shell's status for the signal that stopped it: 130 for SIGINT, 143 for SIGTERM.
    int exit_status() const { return 128 + static_cast<int>(detail::g_interrupted); }

private:
    struct sigaction previous_ {};
    struct sigaction previous_term_ {};
};

// A progress bar on standard error when it is a terminal, redrawn at most
// ten times a second.
class Progress {
public:
    Progress(std::size_t total, bool show, const char* what = "strategies") : total_(total), show_(show), what_(what) {}
    void update(std::size_t done) {
        if (!show_) return;
        const auto now = std::chrono::steady_clock::now();
        if (done < total_ && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        constexpr std::size_t width = 30;
        const std::size_t filled = total_ == 0 ? width : done * width / total_;
        std::cerr << fmt::format("\r  [{}{}] {}/{} {}", std::string(filled, '#'), std::string(width - filled, '.'),
                                 done, total_, what_)
                  << std::flush;
    }
    void clear() {
        if (show_) std::cerr << "\r\033[K" << std::flush;
    }

private:
    std::size_t total_;
    bool show_;
    const char* what_;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace oprec::cli
