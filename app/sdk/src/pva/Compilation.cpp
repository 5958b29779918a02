// libpva's compilation side: target, graph, tiles' memory, programs,
// compute sets, liveness steps and variables.
#include "ReportData.h"

#include <algorithm>

namespace pva {

namespace detail {

std::vector<Tile> ReportData::tiles() {
    const auto& t = reader.target();
    std::vector<Tile> out;
    for (const auto& m : reader.tileMemory()) {
        Tile tile;
        tile.number_ = m.tile.value();
        tile.ipu_ = t.tilesPerIpu ? m.tile.value() / t.tilesPerIpu : 0;
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

ComputeSet ReportData::computeSet(const tessera::record::ComputeSetRecord& e) {
    ComputeSet cs;
    cs.id_ = e.id.value();
    cs.name_ = e.name;
    cs.vertices_ = e.vertexCount;
    return cs;
}

Variable ReportData::variable(const tessera::reports::VariableEntry& e) {
    Variable v;
    v.id_ = e.id.value();
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
    for (const tessera::record::VariableId id :
         reader.liveVariables(tessera::record::StepId{step})) {
        auto it =
            std::lower_bound(vars.begin(), vars.end(), id,
                             [](const auto& v, tessera::record::VariableId i) { return v.id < i; });
        if (it == vars.end() || it->id != id) {
            continue;
        }
        Variable v = variable(*it);
        if (tile) {
            v.bytes_ = 0;
            for (const auto& [t, bytes] : reader.variableTiles(id)) {
                if (t.value() == *tile) {
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

} // namespace detail

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
            out.push_back(d_->programStep(s.id.value()));
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

} // namespace pva
