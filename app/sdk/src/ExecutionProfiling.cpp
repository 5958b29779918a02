#include "ExecutionProfiling.h"

namespace poplar::detail {

using namespace tessera::record;

void ProfilingGate::onCompiled(const CompiledRecord& c) {
    next_->onCompiled(c);
}

void ProfilingGate::onRunBegin(const RunBeginRecord& r) {
    recording_ = enabled_;
    if (recording_) {
        RunBeginRecord out = r;
        out.run = nextRun_;
        next_->onRunBegin(out);
    }
}

void ProfilingGate::onStep(const StepExecutionRecord& s) {
    if (recording_) {
        StepExecutionRecord out = s;
        out.run = nextRun_;
        next_->onStep(out);
    }
}

void ProfilingGate::onRunEnd(const RunEndRecord& r) {
    if (recording_) {
        RunEndRecord out = r;
        out.run = nextRun_++;
        next_->onRunEnd(out);
    }
    recording_ = false;
}

void ProfilingGate::onVerification(const VerificationRecord& v) {
    next_->onVerification(v);
}

} // namespace poplar::detail
