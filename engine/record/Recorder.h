#pragma once
// Where the engine sends what it records. The report writer implements this;
// tests use InMemoryRecorder.
#include "engine/record/Records.h"

namespace tessera::record {

class Recorder {
public:
    virtual ~Recorder() = default;
    virtual void onCompiled(const CompiledRecord& compiled) = 0;
    virtual void onRunBegin(const RunBeginRecord& run) = 0;
    virtual void onStep(const StepExecutionRecord& step) = 0;
    virtual void onRunEnd(const RunEndRecord& run) = 0;
    virtual void onVerification(const VerificationRecord& verification) = 0;
};

// Keeps everything in memory, for tests and small tools.
class InMemoryRecorder : public Recorder {
public:
    void onCompiled(const CompiledRecord& c) override { compiled = c; }
    void onRunBegin(const RunBeginRecord& r) override { runs.push_back(r); }
    void onStep(const StepExecutionRecord& s) override { steps.push_back(s); }
    void onRunEnd(const RunEndRecord& r) override { runEnds.push_back(r); }
    void onVerification(const VerificationRecord& v) override { verifications.push_back(v); }

    CompiledRecord compiled;
    std::vector<RunBeginRecord> runs;
    std::vector<StepExecutionRecord> steps;
    std::vector<RunEndRecord> runEnds;
    std::vector<VerificationRecord> verifications;
};

} // namespace tessera::record
