#include "engine/runtime/Engine.h"

#include "engine/core/Error.h"
#include "engine/core/ExceptionText.h"
#include "engine/runtime/PreparedEngine.h"
#include "engine/runtime/StepGroups.h"
#include "engine/runtime/TensorPrinter.h"
#include "engine/runtime/TileCopies.h"
#include "engine/runtime/TileStores.h"
#include "engine/runtime/VertexPrint.h"
#include "engine/runtime/WarmPages.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <new>
#include <utility>

namespace tessera {

using compiler::Instruction;
using compiler::Location;
using compiler::Op;
using compiler::StepId;
using compiler::StepPlan;
using record::ProgramKind;

namespace runtime {

void runCompute(const Graph& graph, const Instance& inst, StepId step, const StepPlan& plan) {
    bool completed = false;
    try {
        completed = inst.codelet->compute(inst.object);
    } catch (...) {
        throw CodeletError(graph.vertexName(inst.vertex) + ": compute() of codelet '" +
                           inst.codelet->name + "' threw " + currentExceptionText() +
                           " during step " + std::to_string(step.value()) + " '" + plan.name + "'");
    }
    if (!completed) {
        throw Error("compute() returned false in " + graph.vertexName(inst.vertex) +
                    " during step '" + plan.name + "'");
    }
}

} // namespace runtime

using runtime::copyLists;
using runtime::CopyOp;
using runtime::Instance;
using runtime::PreparedStep;
using runtime::runCompute;
using runtime::TileCopyLists;

struct Engine::StreamState {
    DataStream stream;
    std::byte* begin = nullptr;
    std::byte* end = nullptr;
    std::size_t position = 0;
    std::function<void(void*)> callback;
};

Engine::Engine(const Graph& graph, const program::Program& program, EngineOptions options)
    : Engine(graph, std::vector<program::Program>{program}, options) {}

Engine::Engine(const Graph& graph, const std::vector<program::Program>& programs,
               EngineOptions options)
    : graph_(graph)
    , options_(options)
    , warmPages_(runtime::WarmPages::forGraph(graph, programs))
    , compiled_(std::make_unique<compiler::CompiledGraph>(compiler::compile(graph, programs)))
    , pool_(options.threads) {
    if (options_.recorder) {
        options_.recorder->onCompiled(compiled_->record);
    }
    if (compiled_->outOfMemory && !options_.allowOutOfMemory) {
        const auto& tiles = compiled_->record.tileMemory;
        auto worst = std::max_element(tiles.begin(), tiles.end(), [](const auto& a, const auto& b) {
            return a.overflowBytes < b.overflowBytes;
        });
        const auto over = std::count_if(tiles.begin(), tiles.end(),
                                        [](const auto& t) { return t.overflowBytes > 0; });
        throw OutOfMemoryError("out of memory: " + std::to_string(over) +
                               " tile(s) over capacity; tile " +
                               std::to_string(worst->tile.value()) + " needs " +
                               std::to_string(worst->totalIncludingGaps) + " bytes of " +
                               std::to_string(graph.getTarget().bytesPerTile));
    }
    prepare();
    for (const auto& [name, stream] : graph_.streams()) {
        auto state = std::make_unique<StreamState>();
        state->stream = stream;
        streams_.push_back(std::move(state));
    }
}

Engine::~Engine() = default;

std::byte* Engine::pointer(const Location& l) const {
    return prepared_->memory.block(l.block) + l.offset;
}

std::uint64_t Engine::verticesJoined(StepId step) const {
    return prepared_->steps.at(step.value()).verticesJoined;
}

std::uint64_t Engine::bytesReadInPlace(StepId step) const {
    return prepared_->steps.at(step.value()).bytesReadInPlace;
}

std::uint64_t Engine::replicaBytesNotCopied(StepId step) const {
    return prepared_->steps.at(step.value()).replicaBytesNotCopied;
}

std::size_t Engine::hostMemoryBytes() const {
    return prepared_->memory.usedBytes();
}

void Engine::run(unsigned programIndex) {
    beginRun(programIndex);
    try {
        while (!nextStep().isNone()) {
            const std::size_t grouped =
                prepared_->groups ? prepared_->groups->stepsFrom(program_, pc_) : 0;
            if (grouped > 0) {
                runGroup(grouped);
            } else {
                runStep(false, false);
            }
        }
    } catch (const std::exception& e) {
        endRun(e.what());
        throw;
    }
    endRun();
}

void Engine::beginRun(unsigned programIndex) {
    if (programIndex >= compiled_->programs.size()) {
        throw Error("run: program index " + std::to_string(programIndex) +
                    " out of range (the engine has " + std::to_string(compiled_->programs.size()) +
                    " programs)");
    }
    if (active_) {
        throw Error("run: a run of program " + std::to_string(program_) + " is still in progress");
    }
    currentRun_ = runCount_++;
    sequence_ = 0;
    runTotals_ = {};
    runTotals_.run = currentRun_;
    if (options_.recorder) {
        options_.recorder->onRunBegin({currentRun_, programIndex, cycle_});
    }
    runStart_ = cycle_;
    program_ = programIndex;
    pc_ = 0;
    loops_.clear();
    insideStep_ = false;
    active_ = true;
    settle();
}

// Runs control instructions until the next one that executes a step.
void Engine::settle() {
    const std::vector<Instruction>& code = compiled_->programs[program_];
    while (pc_ < code.size()) {
        const Instruction& in = code[pc_];
        switch (in.op) {
        case Op::Step:
        case Op::JumpIfNot:
            return;
        case Op::LoopInit:
            if (in.count == 0) {
                pc_ = in.target;
            } else {
                loops_.push_back(in.count);
                ++pc_;
            }
            break;
        case Op::LoopNext:
            if (--loops_.back() > 0) {
                pc_ = in.target;
            } else {
                loops_.pop_back();
                ++pc_;
            }
            break;
        case Op::Jump:
            pc_ = in.target;
            break;
        case Op::JumpIfEqual:
            pc_ = predicateValues_[in.step.value()] == in.value ? in.target : pc_ + 1;
            break;
        }
    }
}

StepId Engine::nextStep() const {
    if (!active_) {
        return StepId::none();
    }
    const std::vector<Instruction>& code = compiled_->programs[program_];
    return pc_ < code.size() ? code[pc_].step : StepId::none();
}

void Engine::advance(bool exchangeOnly) {
    runStep(exchangeOnly, true);
}

void Engine::runStep(bool exchangeOnly, bool everyReplica) {
    const StepId id = nextStep();
    if (id.isNone()) {
        throw Error("advance: no step left to run");
    }
    const Instruction& in = compiled_->programs[program_][pc_];
    if (!insideStep_) {
        exchangePhase(id, everyReplica);
        if (exchangeOnly && compiled_->step(id).kind == ProgramKind::Execute) {
            insideStep_ = true;
            return;
        }
    }
    insideStep_ = false;
    completeStep(id);
    pc_ = in.op == Op::JumpIfNot && predicateFlags_[in.step.value()] != in.expect ? in.target
                                                                                  : pc_ + 1;
    settle();
}

void Engine::endRun(const std::string& error) {
    if (!active_) {
        return;
    }
    active_ = false;
    insideStep_ = false;
    runTotals_.completed = error.empty();
    runTotals_.error = error;
    runTotals_.cycles = cycle_ - runStart_;
    if (options_.recorder) {
        options_.recorder->onRunEnd(runTotals_);
    }
}

namespace {

void runCopies(ThreadPool& pool, const TileCopyLists& copies) {
    const auto copy = copies.streamed ? runtime::streamRuns : runtime::copyRuns;
    pool.parallelFor(copies.byTile.size(), [&](std::size_t b, std::size_t e) {
        for (std::size_t g = b; g < e; ++g) {
            copy(copies.byTile[g]);
        }
    });
}

} // namespace

// The exchange into a step: remote and rearranged inputs land in its buffers.
void Engine::exchangePhase(StepId id, bool everyReplica) {
    const StepPlan& plan = compiled_->step(id);
    PreparedStep& p = prepared_->steps[id.value()];
    if (plan.kind != ProgramKind::Execute && plan.kind != ProgramKind::Copy) {
        return;
    }
    if (everyReplica && p.replicaBytesNotCopied > 0) {
        if (!p.everyReplica) { // made when the debugger first steps over the copy
            std::vector<std::vector<CopyOp>> byTile(compiled_->storeBytes.size());
            p.everyReplica = copyLists(*compiled_, prepared_->memory, plan.gather, nullptr, byTile);
        }
        runCopies(pool_, *p.everyReplica);
        return;
    }
    runCopies(pool_, p.gather);
}

// Everything after the exchange: compute, write-back, host transfers, and
// the step's record.
void Engine::completeStep(StepId id) {
    const StepPlan& plan = compiled_->step(id);
    const PreparedStep& p = prepared_->steps[id.value()];
    switch (plan.kind) {
    case ProgramKind::Execute:
    case ProgramKind::Copy: {
        // What vertices print, per tile, written in tile order (even when a
        // vertex fails: what ran before it printed).
        std::vector<std::string> printed(p.compute.size());
        try {
            pool_.parallelFor(p.compute.size(), [&](std::size_t b, std::size_t e) {
                for (std::size_t g = b; g < e; ++g) {
                    runtime::VertexPrintCapture capture(printed[g]);
                    for (const Instance& inst : p.compute[g]) {
                        runCompute(graph_, inst, id, plan);
                    }
                }
            });
        } catch (...) {
            writeVertexPrints(printed);
            throw;
        }
        writeVertexPrints(printed);
        runCopies(pool_, p.scatter);
        break;
    }
    case ProgramKind::StreamToDevice:
    case ProgramKind::StreamToHost: {
        auto it = std::find_if(streams_.begin(), streams_.end(),
                               [&](const auto& s) { return s->stream.name == plan.stream; });
        StreamState& s = **it;
        const std::size_t bytes = s.stream.numElements * sizeOf(s.stream.type);
        std::vector<std::byte> staging(bytes);
        if (s.callback) {
            if (plan.kind == ProgramKind::StreamToDevice) {
                s.callback(staging.data());
                copyHostToDevice(plan, staging.data());
            } else {
                copyDeviceToHost(plan, staging.data());
                s.callback(staging.data());
            }
            break;
        }
        if (!s.begin) {
            throw Error("stream '" + s.stream.name + "' used by step '" + plan.name +
                        "' is not connected (call connectStream first)");
        }
        const auto capacity = static_cast<std::size_t>(s.end - s.begin);
        // Walk the circular buffer, wrapping at its end.
        auto circular = [&](auto&& move) {
            for (std::size_t done = 0; done < bytes;) {
                const std::size_t n = std::min(bytes - done, capacity - s.position);
                move(done, n);
                done += n;
                s.position = (s.position + n) % capacity;
            }
        };
        if (plan.kind == ProgramKind::StreamToDevice) {
            circular([&](std::size_t done, std::size_t n) {
                std::memcpy(staging.data() + done, s.begin + s.position, n);
            });
            copyHostToDevice(plan, staging.data());
        } else {
            copyDeviceToHost(plan, staging.data());
            circular([&](std::size_t done, std::size_t n) {
                std::memcpy(s.begin + s.position, staging.data() + done, n);
            });
        }
        break;
    }
    case ProgramKind::PrintTensor:
        printTensor(plan);
        break;
    case ProgramKind::Predicate: {
        std::vector<std::byte> value(sizeOf(plan.source.elementType()));
        copyDeviceToHost(plan, value.data());
        const double v = loadAsDouble(plan.source.elementType(), value.data());
        predicateFlags_[id.value()] = v != 0.0;
        predicateValues_[id.value()] = static_cast<std::int64_t>(v);
        break;
    }
    default:
        break;
    }
    finishStep(id, plan);
}

// The step's record, cycles and what it does after its work: a cycle stamp,
// an abort.
void Engine::finishStep(StepId id, const StepPlan& plan) {
    const std::uint64_t cycles = plan.totalCycles();
    if (options_.recorder) {
        options_.recorder->onStep({currentRun_, sequence_, id, cycle_, cycles});
    }
    ++sequence_;
    ++runTotals_.steps;
    runTotals_.computeCycles += plan.computePhaseCycles;
    runTotals_.exchangeCycles += plan.exchangePhaseCycles;
    runTotals_.syncCycles += plan.syncCycles;
    const std::uint64_t start = cycle_;
    cycle_ += cycles;
    if (plan.cycleStamp) {
        writeCycleStamp(plan, start);
    }
    if (!plan.abortMessage.empty() &&
        (plan.kind != ProgramKind::Predicate || predicateFlags_[id.value()])) {
        throw AbortError(plan.abortMessage);
    }
}

// A lone stamp holds the cycle at which its step ends; a stamp with a start
// stamp holds the cycles between the end of that one and the start of this one.
void Engine::writeCycleStamp(const compiler::StepPlan& plan, std::uint64_t stepStart) {
    std::uint64_t value = cycle_;
    if (plan.source.valid()) {
        const std::vector<std::uint32_t> words = read<std::uint32_t>(plan.source);
        const std::uint64_t from = words[0] | (std::uint64_t(words[1]) << 32);
        value = stepStart >= from ? stepStart - from : 0;
    }
    const std::uint32_t words[2] = {static_cast<std::uint32_t>(value),
                                    static_cast<std::uint32_t>(value >> 32)};
    write<std::uint32_t>(plan.destination, std::span<const std::uint32_t>(words, 2));
}

void Engine::copyHostToDevice(const StepPlan& step, const std::byte* host) {
    for (const compiler::HostTransfer& h : step.host) {
        std::memcpy(pointer(h.device), host + h.hostOffset, h.bytes);
    }
}

void Engine::copyDeviceToHost(const StepPlan& step, std::byte* host) const {
    for (const compiler::HostTransfer& h : step.host) {
        std::memcpy(host + h.hostOffset, pointer(h.device), h.bytes);
    }
}

void Engine::printTensor(const StepPlan& step) const {
    std::ostream& os = options_.printStream ? *options_.printStream : std::cout;
    printTensorValues(os, step.name, step.source.elementType(), step.source.shape(),
                      readValues(step.source));
}

void Engine::writeVertexPrints(const std::vector<std::string>& printed) const {
    std::ostream* os = nullptr; // looked up only when something was printed
    for (const std::string& text : printed) {
        if (!text.empty()) {
            os = os ? os : (options_.printStream ? options_.printStream : &std::cout);
            *os << text;
        }
    }
    if (os) {
        os->flush();
    }
}

const Tensor& Engine::hostTensor(const std::string& handle, bool forWrite) const {
    const auto& handles = forWrite ? graph_.hostWrites() : graph_.hostReads();
    auto it = handles.find(handle);
    if (it == handles.end()) {
        throw Error(std::string(forWrite ? "writeTensor" : "readTensor") + ": no host " +
                    (forWrite ? "write" : "read") + " handle named '" + handle + "'");
    }
    return it->second;
}

void Engine::writeTensor(const std::string& handle, const void* begin, const void* end) {
    const Tensor& t = hostTensor(handle, true);
    const auto* b = static_cast<const std::byte*>(begin);
    writeTensor(t, std::span<const std::byte>(b, static_cast<const std::byte*>(end)));
}

void Engine::readTensor(const std::string& handle, void* begin, void* end) const {
    const Tensor& t = hostTensor(handle, false);
    auto* b = static_cast<std::byte*>(begin);
    readTensor(t, std::span<std::byte>(b, static_cast<std::byte*>(end)));
}

namespace {

// A tensor the engine can access: of its graph, and made before it compiled.
void requireCompiledTensor(const Graph& graph, const compiler::CompiledGraph& compiled,
                           const Tensor& t, const char* operation) {
    if (&t.graph() != &graph) {
        throw Error(std::string(operation) + ": tensor " + t.describe() +
                    " belongs to another graph");
    }
    for (const VariableRegion& r : t.regions()) {
        if (record::index(r.var) >= compiled.placements.size()) {
            throw Error(std::string(operation) + ": tensor " + t.describe() +
                        " was added to the graph after the engine was created");
        }
    }
}

} // namespace

void Engine::writeTensor(const Tensor& t, std::span<const std::byte> bytes) {
    requireCompiledTensor(graph_, *compiled_, t, "writeTensor");
    const std::size_t size = sizeOf(t.elementType());
    if (bytes.size() != t.numElements() * size) {
        throw Error("writeTensor: tensor " + t.describe() + " holds " +
                    std::to_string(t.numElements() * size) + " bytes but " +
                    std::to_string(bytes.size()) + " were given");
    }
    std::size_t offset = 0;
    for (const compiler::Run& r : compiled_->runsOf(t)) {
        std::memcpy(pointer(r.location), bytes.data() + offset, r.elements * size);
        offset += r.elements * size;
    }
}

void Engine::readTensor(const Tensor& t, std::span<std::byte> bytes) const {
    requireCompiledTensor(graph_, *compiled_, t, "readTensor");
    const std::size_t size = sizeOf(t.elementType());
    if (bytes.size() != t.numElements() * size) {
        throw Error("readTensor: tensor " + t.describe() + " holds " +
                    std::to_string(t.numElements() * size) + " bytes but the buffer has " +
                    std::to_string(bytes.size()));
    }
    std::size_t offset = 0;
    for (const compiler::Run& r : compiled_->runsOf(t)) {
        std::memcpy(bytes.data() + offset, pointer(r.location), r.elements * size);
        offset += r.elements * size;
    }
}

// The same walk as the const one; the engine's own memory is writable.
void Engine::forEachRun(const Tensor& t,
                        const std::function<void(std::size_t, std::span<std::byte>)>& fn) {
    std::as_const(*this).forEachRun(t, [&](std::size_t first, std::span<const std::byte> bytes) {
        fn(first, {const_cast<std::byte*>(bytes.data()), bytes.size()});
    });
}

void Engine::forEachRun(
    const Tensor& t, const std::function<void(std::size_t, std::span<const std::byte>)>& fn) const {
    requireCompiledTensor(graph_, *compiled_, t, "forEachRun");
    const std::size_t size = sizeOf(t.elementType());
    std::size_t first = 0;
    for (const compiler::Run& r : compiled_->runsOf(t)) {
        fn(first, {pointer(r.location), r.elements * size});
        first += r.elements;
    }
}

std::vector<double> Engine::readValues(const Tensor& t) const {
    const std::size_t size = sizeOf(t.elementType());
    std::vector<std::byte> raw(t.numElements() * size);
    readTensor(t, raw);
    std::vector<double> values(t.numElements());
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = loadAsDouble(t.elementType(), raw.data() + i * size);
    }
    return values;
}

void Engine::writeValues(const Tensor& t, std::span<const double> values) {
    const std::size_t size = sizeOf(t.elementType());
    if (values.size() != t.numElements()) {
        throw Error("writeValues: tensor " + t.describe() + " has " +
                    std::to_string(t.numElements()) + " elements but " +
                    std::to_string(values.size()) + " values were given");
    }
    std::vector<std::byte> raw(values.size() * size);
    for (std::size_t i = 0; i < values.size(); ++i) {
        storeFromDouble(t.elementType(), raw.data() + i * size, values[i]);
    }
    writeTensor(t, raw);
}

void Engine::connectStream(const std::string& name, void* begin, void* end) {
    auto it = std::find_if(streams_.begin(), streams_.end(),
                           [&](const auto& s) { return s->stream.name == name; });
    if (it == streams_.end()) {
        throw Error("connectStream: no stream named '" + name + "'");
    }
    auto* b = static_cast<std::byte*>(begin);
    auto* e = static_cast<std::byte*>(end);
    if (!b || e <= b) {
        throw Error("connectStream: empty buffer for stream '" + name + "'");
    }
    (*it)->begin = b;
    (*it)->end = e;
    (*it)->position = 0;
    (*it)->callback = nullptr;
}

void Engine::connectStream(const std::string& name, void* buffer) {
    const DataStream& s = graph_.stream(name);
    connectStream(name, buffer, static_cast<std::byte*>(buffer) + s.numElements * sizeOf(s.type));
}

void Engine::connectStreamToCallback(const std::string& name, std::function<void(void*)> callback) {
    auto it = std::find_if(streams_.begin(), streams_.end(),
                           [&](const auto& s) { return s->stream.name == name; });
    if (it == streams_.end()) {
        throw Error("connectStreamToCallback: no stream named '" + name + "'");
    }
    (*it)->callback = std::move(callback);
    (*it)->begin = (*it)->end = nullptr;
}

} // namespace tessera
