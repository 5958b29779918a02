#pragma once
// Capture progress on a terminal: a Recorder that forwards every record to the
// report writer and counts steps, plus a ticker thread that, once the capture
// has taken a second, redraws one status line on stderr a few times a second.
// Nothing is printed when stderr is not a terminal or the capture is quick.
#include "engine/record/Recorder.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace tessera::cli {

class ProgressRecorder : public record::Recorder {
public:
    // `enabled` false: forward only, never print.
    ProgressRecorder(record::Recorder& inner, std::string label, bool enabled);
    ~ProgressRecorder() override;
    ProgressRecorder(const ProgressRecorder&) = delete;
    ProgressRecorder& operator=(const ProgressRecorder&) = delete;

    void onCompiled(const record::CompiledRecord& compiled) override;
    void onRunBegin(const record::RunBeginRecord& run) override;
    void onStep(const record::StepExecutionRecord& step) override;
    void onRunEnd(const record::RunEndRecord& run) override;
    void onVerification(const record::VerificationRecord& verification) override;

    // Stops the ticker and clears its line; later output starts on a clean line.
    void stop();
    std::uint64_t steps() const { return steps_.load(std::memory_order_relaxed); }

    // True when stderr is a terminal (progress makes sense there).
    static bool stderrIsTerminal();

private:
    enum class Phase { Compiling, Running, Verifying };
    void tick();

    record::Recorder& inner_;
    std::string label_;
    std::chrono::steady_clock::time_point start_;
    std::atomic<Phase> phase_{Phase::Compiling};
    std::atomic<std::uint64_t> steps_{0};
    std::atomic<std::uint64_t> cycles_{0};
    std::atomic<std::uint32_t> run_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool drawn_ = false;
    std::thread ticker_;
};

} // namespace tessera::cli
