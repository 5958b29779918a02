#pragma once
// Engine::printProfileSummary: target, graph, memory and execution sections.
#include "engine/record/Recorder.h"

#include <cstdint>
#include <iosfwd>
#include <vector>

namespace poplar::detail {

// Keeps what the summary needs and forwards every record to `next` (the
// autoReport writer), if any.
class SummaryRecorder : public tessera::record::Recorder {
public:
    explicit SummaryRecorder(tessera::record::Recorder* next)
        : next_(next) {}
    void onCompiled(const tessera::record::CompiledRecord& c) override;
    void onRunBegin(const tessera::record::RunBeginRecord& r) override;
    void onStep(const tessera::record::StepExecutionRecord& s) override;
    void onRunEnd(const tessera::record::RunEndRecord& r) override;
    void onVerification(const tessera::record::VerificationRecord& v) override;
    // Engine::resetExecutionProfile: forget the runs recorded so far.
    void resetExecution();

    tessera::record::CompiledRecord compiled;
    std::vector<tessera::record::RunBeginRecord> runs;
    std::vector<tessera::record::RunEndRecord> runEnds;
    std::vector<std::uint64_t> stepExecutions; // per program step: times executed
    std::vector<std::uint64_t> stepCycles;     // per program step: cycles over all executions

private:
    tessera::record::Recorder* next_;
};

void printSummary(std::ostream& os, const SummaryRecorder& r, bool showExecutionSteps);

} // namespace poplar::detail
