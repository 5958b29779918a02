#pragma once
// Engine::getReport(): keeps every record the engine emits (forwarding each to
// the next recorder) so that a report of what ran so far can be written at any
// time, and opens that report with libpva.
#include "engine/record/Recorder.h"

#include <pva/pva.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace poplar::detail {

class CaptureRecorder : public tessera::record::Recorder {
public:
    explicit CaptureRecorder(tessera::record::Recorder* next)
        : next_(next) {}
    void onCompiled(const tessera::record::CompiledRecord& c) override;
    void onRunBegin(const tessera::record::RunBeginRecord& r) override;
    void onStep(const tessera::record::StepExecutionRecord& s) override;
    void onRunEnd(const tessera::record::RunEndRecord& r) override;
    void onVerification(const tessera::record::VerificationRecord& v) override;

    // Forgets the runs recorded so far (resetExecutionProfile).
    void discardRuns();

    // Writes the records so far as a report (runs included when
    // `execution`), opens it with libpva and removes the file.
    pva::Report report(bool execution, const std::string& toolVersion, const std::string& workload,
                       const std::vector<std::pair<std::string, std::string>>& parameters) const;

private:
    tessera::record::Recorder* next_;
    std::optional<tessera::record::CompiledRecord> compiled_;
    std::vector<tessera::record::RunBeginRecord> runs_;
    std::vector<tessera::record::StepExecutionRecord> steps_;
    std::vector<tessera::record::RunEndRecord> runEnds_;
    std::vector<tessera::record::VerificationRecord> verifications_;
};

} // namespace poplar::detail
