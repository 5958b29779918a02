// Capture around the run (issue 17): what `tessera-cli capture` does (build,
// compile, make inputs, run, verify, write the report), timed as a whole and by
// phase, with its peak memory, in a forked child so one capture cannot see
// another's memory.
#include "Bench.h"
#include "engine/core/Error.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/Workload.h"
#include "reports/ReportWriter.h"

#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>

namespace tessera::bench {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Seconds since the capture started at which each phase ended; written by the
// child into memory shared with the parent.
struct Phases {
    double compiled = 0; // graph built and compiled (the memory verdict)
    double written = 0;  // the compiled graph handed to the report writer
    double runBegin = 0; // tile memory prepared, inputs written
    double runEnd = 0;   // Engine::run
    double verified = 0; // host reference compared
    double total = 0;    // report written
    bool outOfMemory = false;
    bool passed = false;
};

// Forwards to the report writer, noting when each phase ends.
class PhaseRecorder : public record::Recorder {
public:
    PhaseRecorder(record::Recorder& inner, Phases& phases, Clock::time_point start)
        : inner_(inner)
        , phases_(phases)
        , start_(start) {}
    void onCompiled(const record::CompiledRecord& c) override {
        phases_.compiled = now();
        inner_.onCompiled(c);
        phases_.written = now();
    }
    void onRunBegin(const record::RunBeginRecord& r) override {
        phases_.runBegin = now();
        inner_.onRunBegin(r);
    }
    void onStep(const record::StepExecutionRecord& s) override { inner_.onStep(s); }
    void onRunEnd(const record::RunEndRecord& r) override {
        inner_.onRunEnd(r);
        phases_.runEnd = now();
    }
    void onVerification(const record::VerificationRecord& v) override {
        phases_.verified = now();
        inner_.onVerification(v);
    }

private:
    double now() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
    record::Recorder& inner_;
    Phases& phases_;
    Clock::time_point start_;
};

struct Capture {
    Phases phases;
    std::size_t peakBytes = 0;
};

// As `tessera-cli capture WORKLOAD --target TARGET --set ... -o FILE`.
Capture capture(const std::string& workload, const std::string& target,
                const std::map<std::string, std::string>& params, bool allowOutOfMemory,
                const fs::path& report) {
    void* shared =
        mmap(nullptr, sizeof(Phases), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        throw std::runtime_error("mmap failed");
    }
    auto* phases = new (shared) Phases;
    Capture result;
    result.peakBytes = peakResidentOfChild([&] {
        const auto start = Clock::now();
        reports::ReportWriter writer(report);
        PhaseRecorder recorder(writer, *phases, start);
        EngineOptions options;
        options.recorder = &recorder;
        options.allowOutOfMemory = allowOutOfMemory;
        try {
            phases->passed =
                workloads::run(workloads::find(workload), Target::preset(target), params, options)
                    .verification.passed;
        } catch (const OutOfMemoryError&) {
            phases->outOfMemory = true;
        }
        writer.finish();
        phases->total = std::chrono::duration<double>(Clock::now() - start).count();
    });
    result.phases = *phases;
    munmap(shared, sizeof(Phases));
    std::error_code ec;
    fs::remove(report, ec);
    if (!result.phases.outOfMemory && !result.phases.passed) {
        throw std::runtime_error(workload + " failed verification in the capture benchmark");
    }
    return result;
}

std::string describe(const std::map<std::string, std::string>& params) {
    std::string out;
    for (const auto& [key, value] : params) {
        out += "_" + key + "=" + value;
    }
    return out;
}

// Each phase's share of the capture, against 1; the report's share is what
// follows the check (finish(): the last commit and the rename), as the
// compiled graph and the steps are written during the phases before it.
void printShares(const std::string& name, const Phases& p) {
    printResult(name + ".build_compile_share", p.compiled / p.total, "fraction", 1);
    printResult(name + ".write_compiled_share", (p.written - p.compiled) / p.total, "fraction", 1);
    printResult(name + ".prepare_inputs_share", (p.runBegin - p.written) / p.total, "fraction", 1);
    printResult(name + ".run_share", (p.runEnd - p.runBegin) / p.total, "fraction", 1);
    printResult(name + ".verify_share", (p.verified - p.runEnd) / p.total, "fraction", 1);
    printResult(name + ".finish_share", (p.total - p.verified) / p.total, "fraction", 1);
}

// Wall time against a budget (seconds), peak memory against a budget (bytes),
// and where the time went (each phase's share of the capture, against 1).
void timedCapture(const std::string& workload, const std::string& target,
                  const std::map<std::string, std::string>& params, bool allowOutOfMemory,
                  double secondsBudget, double bytesBudget, const fs::path& dir) {
    const Capture c = capture(workload, target, params, allowOutOfMemory, dir / "capture.tsr");
    const Phases& p = c.phases;
    const std::string name = "capture." + workload + "_" + target + describe(params);
    printResult(name + ".wall_time", p.total, "s", secondsBudget);
    printResult(name + ".peak_memory", static_cast<double>(c.peakBytes), "bytes", bytesBudget);
    printShares(name, p);
}

// The run's share of a matmul capture: value the capture's wall time,
// reference Engine::run's time in it (goal: ratio <= 2, the run at least half).
void matmulRunShare(std::size_t size, const std::string& target, const fs::path& dir) {
    const std::string s = std::to_string(size);
    const Capture c =
        capture("matmul", target, {{"m", s}, {"k", s}, {"n", s}}, false, dir / "matmul.tsr");
    const Phases& p = c.phases;
    const std::string name = "capture.matmul_" + s + "_" + target;
    printResult(name + ".wall_time_over_run", p.total, "s", p.runEnd - p.runBegin);
    printResult(name + ".peak_memory", static_cast<double>(c.peakBytes), "bytes",
                3.0 * double(size) * double(size) * sizeof(float));
    printShares(name, p);
}

// An elementwise program whose inputs fit the target's memory but whose
// working set does not: the time to the out-of-memory verdict, against the
// time to make its three inputs on the host (what came before the verdict).
void outOfMemoryVerdict(std::size_t n, const std::string& target, const fs::path& dir) {
    const Capture c =
        capture("elementwise", target, {{"n", std::to_string(n)}}, false, dir / "oom.tsr");
    if (!c.phases.outOfMemory) {
        throw std::runtime_error("the oversized elementwise fitted: the OOM benchmark is stale");
    }
    const double inputs = bestSeconds(
        [&] {
            for (std::uint32_t seed : {11u, 12u, 13u}) {
                const auto values = workloads::randomValues(n, seed, Type::Float);
                if (values.size() != n) {
                    throw std::runtime_error("randomValues");
                }
            }
        },
        1);
    const std::string name = "capture.elementwise_oom_" + target + "_n=" + std::to_string(n);
    printResult(name + ".verdict_time", c.phases.total, "s", inputs);
    printResult(name + ".peak_memory", static_cast<double>(c.peakBytes), "bytes",
                3.0 * double(n) * sizeof(float));
}

struct ScratchDirectory {
    ScratchDirectory()
        : path(fs::temp_directory_path() / ("tessera-bench-capture-" + std::to_string(getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~ScratchDirectory() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    fs::path path;
};

} // namespace

void runCaptureBenchmarks(const Options& options) {
    const ScratchDirectory dir;
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    // --match TEXT keeps the captures whose workload name contains TEXT.
    auto wanted = [&](const std::string& workload) {
        return options.match.empty() || workload.find(options.match) != std::string::npos;
    };
    if (options.quick) {
        if (wanted("elementwise")) {
            timedCapture("elementwise", "tiles:16", {{"n", "100000"}, {"type", "half"}}, false, 5,
                         3 * kGiB, dir.path);
        }
        if (wanted("attention")) {
            timedCapture("attention", "tiles:16", {{"sequence", "64"}, {"dmodel", "64"}}, false, 20,
                         3 * kGiB, dir.path);
        }
        if (wanted("matmul")) {
            matmulRunShare(128, "tiles:16", dir.path);
        }
        if (wanted("elementwise_oom")) {
            outOfMemoryVerdict(122000, "tiles:4", dir.path);
        }
        return;
    }
    // 1e8 elements is the largest elementwise the engine takes (1 GiB of tile
    // memory): half, and more than an mk2 holds, hence allowOutOfMemory.
    if (wanted("elementwise")) {
        timedCapture("elementwise", "mk2", {{"n", "100000000"}, {"type", "half"}}, true, 5,
                     3 * kGiB, dir.path);
    }
    // Attention 2048 needs about twice an mk2's memory: recorded, and run anyway.
    if (wanted("attention")) {
        timedCapture("attention", "mk2", {{"sequence", "2048"}, {"dmodel", "2048"}}, true, 20,
                     3 * kGiB, dir.path);
    }
    if (wanted("matmul")) {
        matmulRunShare(2048, "mk2", dir.path);
    }
    if (wanted("elementwise_oom")) {
        outOfMemoryVerdict(45000000, "mk2", dir.path);
    }
}

} // namespace tessera::bench
