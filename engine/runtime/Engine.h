#pragma once
// Runs compiled programs on simulated tiles: each tile's data lives in its
// own store; steps exchange (real copies between stores), then compute
// (vertices on their tile's data, tiles in parallel), as in Poplar's Engine.
#include "engine/compiler/Compiled.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/ThreadPool.h"

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera {

namespace runtime {
class WarmPages;
}

struct EngineOptions {
    unsigned threads = 0;                // 0: one per hardware thread
    bool allowOutOfMemory = false;       // run (and record) even when tiles overflow
    std::ostream* printStream = nullptr; // PrintTensor output; std::cout when null
    record::Recorder* recorder = nullptr;
};

class Engine {
public:
    Engine(const Graph& graph, const std::vector<program::Program>& programs,
           EngineOptions options = {});
    Engine(const Graph& graph, const program::Program& program, EngineOptions options = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void run(unsigned programIndex = 0);

    // Running step by step (the debugger's view of run()): beginRun, then
    // advance() while !nextStep().isNone(), then endRun().
    void beginRun(unsigned programIndex);
    bool runActive() const { return active_; }
    compiler::StepId nextStep() const; // none() when the run has no step left
    // Runs the next step; with exchangeOnly and an Execute step, only its
    // exchange (insideStep() is then true until the next advance()).
    void advance(bool exchangeOnly = false);
    bool insideStep() const { return insideStep_; }
    void endRun(const std::string& error = {}); // error: why the run stopped early

    // Host access by handle (Graph::createHostWrite / createHostRead).
    void writeTensor(const std::string& handle, const void* begin, const void* end);
    void readTensor(const std::string& handle, void* begin, void* end) const;
    // Direct access to any tensor's current contents, for tests and debugging.
    void writeTensor(const Tensor& t, std::span<const std::byte> bytes);
    void readTensor(const Tensor& t, std::span<std::byte> bytes) const;
    std::vector<double> readValues(const Tensor& t) const;
    // The tensor's contents in place, run by run in its element order: fn(first
    // element of the run, the run's bytes). Lets a host fill or check a large
    // tensor without a host copy of it.
    void forEachRun(const Tensor& t,
                    const std::function<void(std::size_t, std::span<std::byte>)>& fn);
    void forEachRun(const Tensor& t,
                    const std::function<void(std::size_t, std::span<const std::byte>)>& fn) const;
    void writeValues(const Tensor& t, std::span<const double> values);
    template <typename T>
    std::vector<T> read(const Tensor& t) const {
        std::vector<T> out(t.numElements());
        readTensor(t, std::as_writable_bytes(std::span<T>(out)));
        return out;
    }
    template <typename T>
    void write(const Tensor& t, std::span<const T> values) {
        writeTensor(t, std::as_bytes(values));
    }

    // Streams: a circular host buffer whose position carries across runs.
    void connectStream(const std::string& name, void* begin, void* end);
    void connectStream(const std::string& name, void* buffer); // one transfer's worth
    void connectStreamToCallback(const std::string& name, std::function<void(void*)> callback);

    // Where PrintTensor steps and vertices' printf print from now on
    // (std::cout when null).
    void setPrintStream(std::ostream* stream) { options_.printStream = stream; }

    const compiler::CompiledGraph& compiled() const { return *compiled_; }
    std::uint64_t cyclesSoFar() const { return cycle_; }
    unsigned threads() const { return pool_.size(); }
    std::size_t hostMemoryBytes() const; // tile memory a run touches (runtime/HostLayout.h)
    // Of a step's exchange, the bytes its vertices read where the exchange
    // reads them instead of from a copy (runtime/InPlaceReads.h).
    std::uint64_t bytesReadInPlace(compiler::StepId step) const;
    // Of a Copy step's bytes, those run() does not copy: replicas of bytes
    // another tile's replica holds for the same readers (runtime/SharedReplicas.h).
    std::uint64_t replicaBytesNotCopied(compiler::StepId step) const;
    // Of a step's vertices, those run inside another's compute() call
    // (runtime/JoinedVertices.h).
    std::uint64_t verticesJoined(compiler::StepId step) const;

private:
    struct Prepared;
    struct StreamState;
    void prepare();
    void settle();
    // One step (or its exchange); run() leaves replicas others hold uncopied,
    // advance() (the debugger) makes every one.
    void runStep(bool exchangeOnly, bool everyReplica);
    void exchangePhase(compiler::StepId step, bool everyReplica);
    void completeStep(compiler::StepId step);
    void finishStep(compiler::StepId id, const compiler::StepPlan& plan);
    void runGroup(std::size_t steps);
    struct GroupWork;
    GroupWork makeGroupWork(std::size_t steps, const std::vector<std::uint32_t>& units) const;
    void copyHostToDevice(const compiler::StepPlan& step, const std::byte* host);
    void copyDeviceToHost(const compiler::StepPlan& step, std::byte* host) const;
    void printTensor(const compiler::StepPlan& step) const;
    // What vertices printed during a step, per tile, to the print stream.
    void writeVertexPrints(const std::vector<std::string>& printed) const;
    void writeCycleStamp(const compiler::StepPlan& plan, std::uint64_t stepStart);
    std::byte* pointer(const compiler::Location& l) const;
    const Tensor& hostTensor(const std::string& handle, bool forWrite) const;

    const Graph& graph_;
    EngineOptions options_;
    // Tile-store pages faulted in while compiled_ is made (WarmPages.h):
    // declared before it, so it starts first; handed to the stores in prepare().
    std::unique_ptr<runtime::WarmPages> warmPages_;
    std::unique_ptr<compiler::CompiledGraph> compiled_;
    ThreadPool pool_;
    std::unique_ptr<Prepared> prepared_; // the tiles' memory and the vertex instances
    std::vector<std::unique_ptr<StreamState>> streams_;
    std::vector<bool> predicateFlags_;
    std::vector<std::int64_t> predicateValues_; // Switch controls
    std::uint64_t cycle_ = 0;
    std::uint32_t runCount_ = 0;
    std::uint64_t sequence_ = 0;
    std::uint32_t currentRun_ = 0;
    record::RunEndRecord runTotals_;
    bool active_ = false;
    bool insideStep_ = false;
    unsigned program_ = 0;
    std::size_t pc_ = 0;
    std::vector<std::uint64_t> loops_;
    std::uint64_t runStart_ = 0;
};

} // namespace tessera
