#pragma once
// Writes a report (.tsr) while the engine runs: a record::Recorder that puts
// every record into SQLite inside transactions with prepared statements.
//
// It writes to "<output>.partial" in the same directory and renames it onto
// the output path in finish(), so the output path never holds a half-written
// file. Destroyed without finish() (an exception unwound the capture), it
// deletes the partial file, or, with keepIncomplete, closes it as a report
// marked incomplete and renames that into place. A killed process leaves only
// the ".partial" file behind.
//
// Its calls come from one thread (the engine's), but onCompiled hands a copy
// of the compiled graph to a thread of its own that writes it while the engine
// prepares and runs; steps arriving meanwhile wait in memory, and every other
// call (and finish()) waits for that thread first and rethrows its error.
#include "engine/record/Recorder.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tessera::reports {

struct WriterOptions {
    std::string toolVersion; // meta.tool_version
    std::string workload;    // meta.workload, when captured from one
    std::vector<std::pair<std::string, std::string>> workloadParameters;
    bool keepIncomplete = false; // see the class comment
    std::uint64_t stepsPerTransaction = 8192;
    // Tiles per group in the LOD tables; on several IPUs, its gcd with the tiles
    // per IPU (so no group spans two IPUs).
    std::uint32_t lodGroupTiles = 16;
};

class ReportWriter : public record::Recorder {
public:
    // Creates the partial file (replacing a stale one). Throws ReportError.
    explicit ReportWriter(std::filesystem::path output, WriterOptions options = {});
    ~ReportWriter() override;
    ReportWriter(const ReportWriter&) = delete;
    ReportWriter& operator=(const ReportWriter&) = delete;

    void onCompiled(const record::CompiledRecord& compiled) override;
    void onRunBegin(const record::RunBeginRecord& run) override;
    void onStep(const record::StepExecutionRecord& step) override;
    void onRunEnd(const record::RunEndRecord& run) override;
    void onVerification(const record::VerificationRecord& verification) override;

    // Removes every run written so far (Poplar's resetExecutionProfile): their
    // rows in runs, executed_steps and the LOD tables; a run still open is
    // dropped too. The compiled graph stays. Throws ReportError.
    void discardRuns();

    // Marks the report complete, closes it and renames it onto the output
    // path. Throws ReportError; after a throw the destructor cleans up.
    void finish();

    const std::filesystem::path& outputPath() const;
    std::filesystem::path partialPath() const;
    std::uint64_t stepsWritten() const;

private:
    struct State;
    std::unique_ptr<State> s_;
};

} // namespace tessera::reports
