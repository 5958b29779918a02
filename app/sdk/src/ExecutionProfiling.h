#pragma once
// Engine::enable/disableExecutionProfiling: a recorder between the engine and
// the profile summary (and the report) that passes on the runs that begin
// while profiling is enabled, numbered 0, 1, ... as they are recorded.
#include "engine/record/Recorder.h"

#include <cstdint>

namespace poplar::detail {

class ProfilingGate : public tessera::record::Recorder {
public:
    explicit ProfilingGate(tessera::record::Recorder* next)
        : next_(next) {}
    void setEnabled(bool enabled) { enabled_ = enabled; }
    bool enabled() const { return enabled_; }
    // After resetExecutionProfile: the next recorded run is run 0 again.
    void restartNumbering() { nextRun_ = 0; }

    void onCompiled(const tessera::record::CompiledRecord& c) override;
    void onRunBegin(const tessera::record::RunBeginRecord& r) override;
    void onStep(const tessera::record::StepExecutionRecord& s) override;
    void onRunEnd(const tessera::record::RunEndRecord& r) override;
    void onVerification(const tessera::record::VerificationRecord& v) override;

private:
    tessera::record::Recorder* next_;
    bool enabled_ = true;
    bool recording_ = false;    // the current run is passed on
    std::uint32_t nextRun_ = 0; // the number the next recorded run gets
};

} // namespace poplar::detail
