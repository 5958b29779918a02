#include "Progress.h"

#include <unistd.h>

#include <cstdio>

namespace tessera::cli {

namespace {

constexpr auto kQuietFor = std::chrono::seconds(1);
constexpr auto kRedrawEvery = std::chrono::milliseconds(200);

} // namespace

bool ProgressRecorder::stderrIsTerminal() {
    return isatty(STDERR_FILENO) == 1;
}

ProgressRecorder::ProgressRecorder(record::Recorder& inner, std::string label, bool enabled)
    : inner_(inner)
    , label_(std::move(label))
    , start_(std::chrono::steady_clock::now()) {
    if (enabled) {
        ticker_ = std::thread([this] { tick(); });
    }
}

ProgressRecorder::~ProgressRecorder() {
    stop();
}

void ProgressRecorder::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (ticker_.joinable()) {
        ticker_.join();
    }
    if (drawn_) {
        std::fputs("\r\033[K", stderr); // erase the status line
        std::fflush(stderr);
        drawn_ = false;
    }
}

void ProgressRecorder::tick() {
    std::unique_lock lock(mutex_);
    if (wake_.wait_until(lock, start_ + kQuietFor, [this] { return stopping_; })) {
        return; // finished within a second: print nothing
    }
    while (!stopping_) {
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        char line[160];
        switch (phase_.load()) {
        case Phase::Compiling:
            std::snprintf(line, sizeof line, "%s: building and compiling... %.1f s", label_.c_str(),
                          seconds);
            break;
        case Phase::Running:
            std::snprintf(line, sizeof line, "%s: run %u, %llu steps, %llu cycles... %.1f s",
                          label_.c_str(), run_.load(),
                          static_cast<unsigned long long>(steps_.load()),
                          static_cast<unsigned long long>(cycles_.load()), seconds);
            break;
        case Phase::Verifying:
            std::snprintf(line, sizeof line, "%s: %llu steps run, verifying... %.1f s",
                          label_.c_str(), static_cast<unsigned long long>(steps_.load()), seconds);
            break;
        }
        std::fprintf(stderr, "\r\033[K%s", line);
        std::fflush(stderr);
        drawn_ = true;
        wake_.wait_for(lock, kRedrawEvery, [this] { return stopping_; });
    }
}

void ProgressRecorder::onCompiled(const record::CompiledRecord& compiled) {
    inner_.onCompiled(compiled);
}

void ProgressRecorder::onRunBegin(const record::RunBeginRecord& run) {
    run_.store(run.run, std::memory_order_relaxed);
    phase_.store(Phase::Running);
    inner_.onRunBegin(run);
}

void ProgressRecorder::onStep(const record::StepExecutionRecord& step) {
    inner_.onStep(step);
    steps_.fetch_add(1, std::memory_order_relaxed);
    cycles_.fetch_add(step.cycles, std::memory_order_relaxed);
}

void ProgressRecorder::onRunEnd(const record::RunEndRecord& run) {
    inner_.onRunEnd(run);
    phase_.store(Phase::Verifying);
}

void ProgressRecorder::onVerification(const record::VerificationRecord& verification) {
    inner_.onVerification(verification);
}

} // namespace tessera::cli
