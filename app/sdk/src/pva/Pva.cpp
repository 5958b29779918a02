// libpva's object model over reports/' ReportReader: the report, compilation
// and execution handles. Lightweight-profiling blocks are in Blocks.cpp.
#include "ReportData.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace pva {

namespace detail {

namespace {

using tessera::record::ProgramKind;

Program::Type programType(ProgramKind kind) {
    switch (kind) {
    case ProgramKind::Sequence:
        return Program::Type::Sequence;
    case ProgramKind::Execute:
        return Program::Type::OnTileExecute;
    case ProgramKind::Repeat:
        return Program::Type::Repeat;
    case ProgramKind::RepeatWhileTrue:
        return Program::Type::RepeatWhileTrue;
    case ProgramKind::RepeatWhileFalse:
        return Program::Type::RepeatWhileFalse;
    case ProgramKind::If:
        return Program::Type::If;
    case ProgramKind::Copy:
        return Program::Type::DoExchange;
    case ProgramKind::PrintTensor:
        return Program::Type::PrintTensor;
    case ProgramKind::Block:
        return Program::Type::Block;
    case ProgramKind::Sync:
        return Program::Type::Sync;
    case ProgramKind::StreamToDevice: // stream copies are made apart (isStreamCopy)
    case ProgramKind::StreamToHost:
    case ProgramKind::Predicate:
    case ProgramKind::Switch:
    case ProgramKind::Abort:
    case ProgramKind::CycleStamp:
        return Program::Type::Unknown;
    }
    return Program::Type::Unknown;
}

bool isStreamCopy(ProgramKind kind) {
    return kind == ProgramKind::StreamToDevice || kind == ProgramKind::StreamToHost;
}

Version parseVersion(const std::string& text) {
    unsigned parts[3] = {0, 0, 0};
    std::istringstream in(text);
    for (unsigned& p : parts) {
        if (!(in >> p)) {
            break;
        }
        if (in.peek() != '.') {
            break;
        }
        in.get();
    }
    return Version(parts[0], parts[1], parts[2], text);
}

} // namespace

ReportData::ReportData(const std::string& p)
    : reader(p)
    , path(p) {}

void ReportData::loadPrograms() {
    if (programsLoaded) {
        return;
    }
    nodes = reader.programNodes();
    steps = reader.programSteps();
    std::vector<std::string> stepNames(steps.size());
    for (const auto& s : steps) {
        if (s.id < stepNames.size()) {
            stepNames[s.id] = s.name;
        }
    }
    std::map<std::uint32_t, std::string> computeSetNames;
    for (const auto& cs : computeSetEntries()) {
        computeSetNames[cs.id] = cs.name;
    }
    for (const auto& n : nodes) {
        std::string name = n.name;
        if (name.empty() && n.step != kNone && n.step < stepNames.size()) {
            name = stepNames[n.step];
        }
        auto make = [&](Program::Type type) {
            auto p = std::make_shared<Program>();
            p->id_ = n.id;
            p->name_ = name;
            p->type_ = type;
            if (n.computeSet != kNone && computeSetNames.count(n.computeSet)) {
                p->computeSet_ = computeSetNames[n.computeSet];
            }
            byNode[n.id].push_back(p);
            programs.push_back(p);
        };
        if (isStreamCopy(n.kind)) {
            make(Program::Type::StreamCopyBegin);
            make(Program::Type::StreamCopyMid);
            make(Program::Type::StreamCopyEnd);
        } else {
            make(programType(n.kind));
        }
        if (n.parent == kNone) {
            if (roots.size() <= n.programIndex) {
                roots.resize(n.programIndex + 1);
            }
            roots[n.programIndex] = byNode[n.id].front();
        } else if (byNode.count(n.parent)) {
            auto& children = byNode[n.parent].front()->children_;
            for (const auto& p : byNode[n.id]) {
                children.push_back(p);
            }
        }
    }
    programsLoaded = true;
}

std::shared_ptr<Program> ReportData::stepProgram(std::uint32_t step) {
    loadPrograms();
    if (step >= steps.size()) {
        return nullptr;
    }
    auto it = byNode.find(steps[step].node);
    if (it == byNode.end() || it->second.empty()) {
        return nullptr;
    }
    // A stream copy step is its data transfer: StreamCopyMid.
    return it->second.size() == 3 ? it->second[1] : it->second.front();
}

const std::vector<tessera::reports::VariableEntry>& ReportData::variables() {
    if (!variableCache) {
        variableCache = reader.variables();
    }
    return *variableCache;
}

const std::vector<tessera::reports::ComputeSetEntry>& ReportData::computeSetEntries() {
    if (!computeSetCache) {
        computeSetCache = reader.computeSets();
    }
    return *computeSetCache;
}

const tessera::reports::StepTiles& ReportData::stepTiles(std::uint32_t step) {
    auto it = stepTilesCache.find(step);
    if (it == stepTilesCache.end()) {
        it = stepTilesCache.emplace(step, reader.stepTiles(step)).first;
    }
    return it->second;
}

BlockOptions ReportData::blockOptions() const {
    BlockOptions o;
    for (const auto& [key, value] : reader.info().workloadParameters) {
        if (key == "profiler.blocks.filter") {
            o.blocksFilter = value;
        } else if (key == "profiler.programs.filter") {
            o.programsFilter = value;
        } else if (key == "profiler.blocks.implicitFlush") {
            o.implicitFlush = value != "false" && value != "0";
        } else if (key == "debug.instrumentExternalExchange") {
            o.instrumentExternalExchange = value == "true" || value == "1";
        } else if (key == "profiler.blocks.bufferSize") {
            try {
                o.bufferSize = std::stoull(value);
            } catch (const std::exception&) {
                // the engine validated it when capturing; keep the default
            }
        }
    }
    return o;
}

Report ReportData::report() {
    Report r;
    r.d_ = shared_from_this();
    return r;
}

Compilation ReportData::compilation() {
    Compilation c;
    c.d_ = shared_from_this();
    return c;
}

Execution ReportData::execution() {
    Execution e;
    e.d_ = shared_from_this();
    return e;
}

Target ReportData::target() {
    Target t;
    t.d_ = shared_from_this();
    return t;
}

Graph ReportData::graph() {
    Graph g;
    g.d_ = shared_from_this();
    return g;
}

std::vector<Tile> ReportData::tiles() {
    const auto& t = reader.target();
    std::vector<Tile> out;
    for (const auto& m : reader.tileMemory()) {
        Tile tile;
        tile.number_ = m.tile;
        tile.ipu_ = t.tilesPerIpu ? m.tile / t.tilesPerIpu : 0;
        TileMemoryUsage& u = tile.memory_;
        u.total_ = MemoryUsage(m.totalIncludingGaps, m.totalExcludingGaps);
        u.category_.bytes_ = m.bytesByCategory;
        u.alwaysLive_ = m.alwaysLiveBytes;
        u.notAlwaysLive_ = m.notAlwaysLivePeakBytes;
        u.overflow_ = m.overflowBytes;
        for (std::size_t r = 0; r < t.regions.size(); ++r) {
            MemoryRegion region;
            region.name_ = t.regions[r].name;
            region.bytes_ = r < m.bytesByRegion.size() ? m.bytesByRegion[r] : 0;
            (region.name_ == "interleaved" ? u.interleaved_ : u.nonInterleaved_) += region.bytes_;
            u.regions_.push_back(region);
        }
        out.push_back(tile);
    }
    return out;
}

ComputeSet ReportData::computeSet(const tessera::reports::ComputeSetEntry& e) {
    ComputeSet cs;
    cs.id_ = e.id;
    cs.name_ = e.name;
    cs.vertices_ = e.vertexCount;
    return cs;
}

Variable ReportData::variable(const tessera::reports::VariableEntry& e) {
    Variable v;
    v.id_ = e.id;
    v.name_ = e.name;
    v.type_ = e.type;
    v.bytes_ = e.totalBytes;
    v.constant_ = e.isConstant;
    return v;
}

ProgramStep ReportData::programStep(std::uint32_t id) {
    ProgramStep s;
    s.d_ = shared_from_this();
    s.id_ = id;
    return s;
}

NotAlwaysLiveMemory ReportData::notAlwaysLive(std::uint32_t step,
                                              std::optional<std::uint32_t> tile) {
    NotAlwaysLiveMemory m;
    const auto& tiles = stepTiles(step);
    if (tile) {
        if (*tile >= reader.target().numTiles) {
            throw pva::error("pva: no tile " + std::to_string(*tile) + " (the target has " +
                             std::to_string(reader.target().numTiles) + ")");
        }
        m.bytes_ = tiles.notAlwaysLiveBytes.at(*tile);
    } else {
        for (std::uint32_t b : tiles.notAlwaysLiveBytes) {
            m.bytes_ += b;
        }
    }
    const auto& vars = variables();
    for (std::uint32_t id : reader.liveVariables(step)) {
        auto it = std::lower_bound(vars.begin(), vars.end(), id,
                                   [](const auto& v, std::uint32_t i) { return v.id < i; });
        if (it == vars.end() || it->id != id) {
            continue;
        }
        Variable v = variable(*it);
        if (tile) {
            v.bytes_ = 0;
            for (const auto& [t, bytes] : reader.variableTiles(id)) {
                if (t == *tile) {
                    v.bytes_ = bytes;
                }
            }
            if (v.bytes_ == 0) {
                continue;
            }
        }
        m.variables_.push_back(v);
    }
    return m;
}

ExecutionStep ReportData::executionStep(const tessera::reports::ExecutedStep& e) {
    ExecutionStep s;
    s.d_ = shared_from_this();
    s.run_ = e.run;
    s.seq_ = e.sequence;
    s.programStep_ = e.programStep;
    s.from_ = e.startCycle;
    s.cycles_ = e.cycles;
    return s;
}

std::vector<ExecutionStep> ReportData::executedSteps(std::uint32_t run) {
    std::vector<ExecutionStep> out;
    for (const auto& r : reader.runs()) {
        if (r.id == run) {
            for (const auto& e : reader.executedSteps(run, 0, r.steps)) {
                out.push_back(executionStep(e));
            }
        }
    }
    return out;
}

Run ReportData::run(const tessera::reports::RunEntry& e) {
    Run r;
    r.d_ = shared_from_this();
    r.id_ = e.id;
    r.programIndex_ = e.programIndex;
    r.from_ = e.startCycle;
    r.cycles_ = e.cycles;
    r.completed_ = e.completed;
    return r;
}

std::vector<IpuStep> ReportData::ipus(const ExecutionStep& step) {
    const auto& t = reader.target();
    const auto& tiles = stepTiles(step.programStep_);
    std::vector<IpuStep> out;
    for (std::uint32_t ipu = 0; ipu < t.numIpus; ++ipu) {
        IpuStep s;
        s.ipu_ = ipu;
        s.cycles_ = step.cycles_;
        std::uint64_t max = 0;
        std::uint64_t sum = 0;
        for (std::uint32_t i = 0; i < t.tilesPerIpu; ++i) {
            const std::uint32_t tile = ipu * t.tilesPerIpu + i;
            const std::uint64_t busy =
                std::uint64_t(tiles.computeCycles[tile]) + tiles.exchangeCycles[tile];
            max = std::max(max, busy);
            sum += busy;
            s.activeTiles_ += busy > 0 ? 1 : 0;
            s.dataIn_ += tiles.bytesIn[tile];
            s.dataOut_ += tiles.bytesOut[tile];
        }
        if (max > 0) {
            s.tileBalance_ = double(sum) / (double(max) * t.tilesPerIpu);
            s.activeTileBalance_ = double(sum) / (double(max) * s.activeTiles_);
        }
        out.push_back(s);
    }
    return out;
}

} // namespace detail

// ---- handles -------------------------------------------------------------------

Report openReport(const std::string& reportPath, const std::string&) {
    try {
        auto d = std::make_shared<detail::ReportData>(reportPath);
        return d->report();
    } catch (const std::exception& e) {
        std::string what = std::string("pva: cannot open report: ") + e.what();
        if (std::filesystem::path(reportPath).extension() == ".pop" &&
            what.find("not a database") != std::string::npos) {
            what += " (a profile.pop written by Graphcore's Poplar is PopVision's own format, "
                    "which Tessera does not read; Tessera reads the profile.pop its SDK writes)";
        }
        throw error(what);
    }
}

Version Report::version() const {
    const auto& info = d_->reader.info();
    return Version(unsigned(info.schemaMajor), unsigned(info.schemaMinor), 0, info.schemaVersion);
}

Version Report::poplarVersion() const {
    return detail::parseVersion(d_->reader.info().toolVersion);
}

Compilation Report::compilation() const {
    return d_->compilation();
}

Execution Report::execution() const {
    return d_->execution();
}

std::string Report::path() const {
    return d_->path;
}

std::string Target::type() const {
    return "IPU";
}
std::string Target::name() const {
    return d_->reader.target().name;
}
std::uint64_t Target::numIPUs() const {
    return d_->reader.target().numIpus;
}
std::uint64_t Target::tilesPerIpu() const {
    return d_->reader.target().tilesPerIpu;
}
std::uint64_t Target::numTiles() const {
    return d_->reader.target().numTiles;
}
std::uint64_t Target::bytesPerTile() const {
    return d_->reader.target().bytesPerTile;
}
std::uint64_t Target::bytesPerIPU() const {
    return bytesPerTile() * tilesPerIpu();
}
std::uint64_t Target::totalMemory() const {
    return bytesPerTile() * numTiles();
}
double Target::clockFrequency() const {
    return d_->reader.target().clockHz;
}
std::uint64_t Target::numReplicas() const {
    return 1; // Tessera does not replicate graphs
}
std::uint64_t Target::ipusPerReplica() const {
    return numIPUs();
}
std::uint64_t Target::tilesPerReplica() const {
    return numTiles();
}
std::uint64_t Target::memoryPerReplica() const {
    return totalMemory();
}

std::uint64_t Graph::numComputeSets() const {
    return detail::guarded([&] { return std::uint64_t(d_->computeSetEntries().size()); });
}
std::uint64_t Graph::numVertices() const {
    return detail::guarded([&] {
        std::uint64_t n = 0;
        for (const auto& cs : d_->computeSetEntries()) {
            n += cs.vertexCount;
        }
        return n;
    });
}
std::uint64_t Graph::numEdges() const {
    throw unsupported("Graph::numEdges");
}
std::uint64_t Graph::numVariables() const {
    return detail::guarded([&] {
        std::uint64_t n = 0;
        for (const auto& v : d_->variables()) {
            n += v.isExchangeBuffer ? 0 : 1;
        }
        return n;
    });
}

Target Compilation::target() const {
    return d_->target();
}
Graph Compilation::graph() const {
    return d_->graph();
}
std::vector<Tile> Compilation::tiles() const {
    return detail::guarded([&] { return d_->tiles(); });
}
std::vector<std::shared_ptr<Program>> Compilation::programs() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        return d_->programs;
    });
}
std::vector<std::shared_ptr<Program>> Compilation::controlPrograms() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        return d_->roots;
    });
}
std::vector<ComputeSet> Compilation::computeSets() const {
    return detail::guarded([&] {
        std::vector<ComputeSet> out;
        for (const auto& e : d_->computeSetEntries()) {
            out.push_back(d_->computeSet(e));
        }
        return out;
    });
}
std::vector<ProgramStep> Compilation::livenessProgramSteps() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        std::vector<ProgramStep> out;
        for (const auto& s : d_->steps) {
            out.push_back(d_->programStep(s.id));
        }
        return out;
    });
}
std::vector<Variable> Compilation::alwaysLiveVariables() const {
    return detail::guarded([&] {
        std::vector<Variable> out;
        for (const auto& v : d_->variables()) {
            if (v.alwaysLive && !v.isExchangeBuffer) {
                out.push_back(d_->variable(v));
            }
        }
        return out;
    });
}

std::shared_ptr<Program> ProgramStep::program() const {
    return detail::guarded([&] { return d_->stepProgram(id_); });
}
NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemory() const {
    return detail::guarded([&] { return d_->notAlwaysLive(id_, std::nullopt); });
}
NotAlwaysLiveMemory ProgramStep::notAlwaysLiveMemoryForTile(unsigned tile) const {
    return detail::guarded([&] { return d_->notAlwaysLive(id_, tile); });
}

std::shared_ptr<Program> ExecutionStep::program() const {
    return detail::guarded([&] { return d_->stepProgram(programStep_); });
}
std::vector<std::uint64_t> ExecutionStep::cyclesByTile() const {
    return detail::guarded([&] {
        const auto& tiles = d_->stepTiles(programStep_);
        std::vector<std::uint64_t> out(tiles.computeCycles.size());
        for (std::size_t t = 0; t < out.size(); ++t) {
            out[t] = std::uint64_t(tiles.computeCycles[t]) + tiles.exchangeCycles[t];
        }
        return out;
    });
}
std::vector<ComputeSet> ExecutionStep::computeSets() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        std::vector<ComputeSet> out;
        if (programStep_ < d_->steps.size() &&
            d_->steps[programStep_].computeSet != detail::kNone) {
            for (const auto& e : d_->computeSetEntries()) {
                if (e.id == d_->steps[programStep_].computeSet) {
                    out.push_back(d_->computeSet(e));
                }
            }
        }
        return out;
    });
}
std::vector<IpuStep> ExecutionStep::ipus() const {
    return detail::guarded([&] { return d_->ipus(*this); });
}

std::shared_ptr<Program> Run::program() const {
    return detail::guarded([&] {
        d_->loadPrograms();
        return programIndex_ < d_->roots.size() ? d_->roots[programIndex_] : nullptr;
    });
}
std::vector<ExecutionStep> Run::steps() const {
    return detail::guarded([&] { return d_->executedSteps(id_); });
}

std::vector<Run> Execution::runs() const {
    return detail::guarded([&] {
        std::vector<Run> out;
        for (const auto& r : d_->reader.runs()) {
            out.push_back(d_->run(r));
        }
        return out;
    });
}
std::vector<ExecutionStep> Execution::steps() const {
    return detail::guarded([&] {
        std::vector<ExecutionStep> out;
        for (const auto& r : d_->reader.runs()) {
            auto steps = d_->executedSteps(r.id);
            out.insert(out.end(), steps.begin(), steps.end());
        }
        return out;
    });
}
std::uint64_t Execution::totalCycles() const {
    return detail::guarded([&] {
        std::uint64_t n = 0;
        for (const auto& r : d_->reader.runs()) {
            n += r.cycles;
        }
        return n;
    });
}
std::vector<Block> Execution::blocks(unsigned tile) const {
    return detail::guarded([&] { return d_->blocks(tile); });
}

void Program::accept(ProgramVisitor& v) const {
    switch (type_) {
    case Type::Empty:
        return v.visitEmpty(*this);
    case Type::Sequence:
        return v.visitSequence(*this);
    case Type::Repeat:
        return v.visitRepeat(*this);
    case Type::RepeatWhileTrue:
        return v.visitRepeatWhileTrue(*this);
    case Type::RepeatWhileFalse:
        return v.visitRepeatWhileFalse(*this);
    case Type::If:
        return v.visitIf(*this);
    case Type::Switch:
        return v.visitSwitch(*this);
    case Type::OnTileExecute:
        return v.visitOnTileExecute(*this);
    case Type::DoExchange:
        return v.visitDoExchange(*this);
    case Type::GlobalExchange:
        return v.visitGlobalExchange(*this);
    case Type::StreamCopyBegin:
        return v.visitStreamCopyBegin(*this);
    case Type::StreamCopyMid:
        return v.visitStreamCopyMid(*this);
    case Type::StreamCopyEnd:
        return v.visitStreamCopyEnd(*this);
    case Type::Sync:
        return v.visitSync(*this);
    case Type::Call:
        return v.visitCall(*this);
    case Type::Block:
        return v.visitBlock(*this);
    case Type::PrintTensor:
        return v.visitPrintTensor(*this);
    case Type::Unknown:
        break;
    }
    v.visitProgram(*this);
}

const char* typeName(Program::Type type) {
    switch (type) {
    case Program::Type::Unknown:
        return "Unknown";
    case Program::Type::Empty:
        return "Empty";
    case Program::Type::Sequence:
        return "Sequence";
    case Program::Type::Repeat:
        return "Repeat";
    case Program::Type::RepeatWhileTrue:
        return "RepeatWhileTrue";
    case Program::Type::RepeatWhileFalse:
        return "RepeatWhileFalse";
    case Program::Type::If:
        return "If";
    case Program::Type::Switch:
        return "Switch";
    case Program::Type::OnTileExecute:
        return "OnTileExecute";
    case Program::Type::DoExchange:
        return "DoExchange";
    case Program::Type::GlobalExchange:
        return "GlobalExchange";
    case Program::Type::StreamCopyBegin:
        return "StreamCopyBegin";
    case Program::Type::StreamCopyMid:
        return "StreamCopyMid";
    case Program::Type::StreamCopyEnd:
        return "StreamCopyEnd";
    case Program::Type::Sync:
        return "Sync";
    case Program::Type::Call:
        return "Call";
    case Program::Type::Block:
        return "Block";
    case Program::Type::PrintTensor:
        return "PrintTensor";
    }
    return "Unknown";
}

} // namespace pva
