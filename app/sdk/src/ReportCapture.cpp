#include "ReportCapture.h"

#include "reports/ReportWriter.h"

#include <poplar/exceptions.hpp>
#include <unistd.h>

#include <atomic>
#include <filesystem>

namespace poplar::detail {

using namespace tessera::record;

void CaptureRecorder::onCompiled(const CompiledRecord& c) {
    compiled_ = c;
    if (next_) {
        next_->onCompiled(c);
    }
}

void CaptureRecorder::onRunBegin(const RunBeginRecord& r) {
    runs_.push_back(r);
    if (next_) {
        next_->onRunBegin(r);
    }
}

void CaptureRecorder::onStep(const StepExecutionRecord& s) {
    steps_.push_back(s);
    if (next_) {
        next_->onStep(s);
    }
}

void CaptureRecorder::onRunEnd(const RunEndRecord& r) {
    runEnds_.push_back(r);
    if (next_) {
        next_->onRunEnd(r);
    }
}

void CaptureRecorder::discardRuns() {
    runs_.clear();
    steps_.clear();
    runEnds_.clear();
}

void CaptureRecorder::onVerification(const VerificationRecord& v) {
    verifications_.push_back(v);
    if (next_) {
        next_->onVerification(v);
    }
}

pva::Report
CaptureRecorder::report(bool execution, const std::string& toolVersion, const std::string& workload,
                        const std::vector<std::pair<std::string, std::string>>& parameters) const {
    if (!compiled_) {
        throw poplar_error("Engine::getReport: the engine has not compiled its programs");
    }
    namespace fs = std::filesystem;
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    const fs::path path =
        fs::temp_directory_path(ec) / ("tessera-getReport-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(counter++) + ".pop");
    tessera::reports::WriterOptions wo;
    wo.toolVersion = toolVersion;
    wo.workload = workload;
    wo.workloadParameters = parameters;
    try {
        {
            tessera::reports::ReportWriter writer(path, wo);
            writer.onCompiled(*compiled_);
            if (execution) {
                std::size_t step = 0;
                for (const RunBeginRecord& run : runs_) {
                    writer.onRunBegin(run);
                    RunEndRecord end;
                    end.run = run.run;
                    end.completed = false;
                    end.error = "still running when the report was taken";
                    for (; step < steps_.size() && steps_[step].run == run.run; ++step) {
                        writer.onStep(steps_[step]);
                        ++end.steps;
                        end.cycles += steps_[step].cycles;
                    }
                    for (const RunEndRecord& e : runEnds_) {
                        if (e.run == run.run) {
                            end = e;
                        }
                    }
                    writer.onRunEnd(end);
                }
            }
            for (const VerificationRecord& v : verifications_) {
                writer.onVerification(v);
            }
            writer.finish();
        }
        pva::Report report = pva::openReport(path.string());
        fs::remove(path, ec); // the open report keeps reading the unlinked file
        return report;
    } catch (const pva::error&) {
        fs::remove(path, ec);
        throw;
    } catch (const std::exception& e) {
        fs::remove(path, ec);
        throw poplar_error(std::string("Engine::getReport: ") + e.what());
    }
}

} // namespace poplar::detail
