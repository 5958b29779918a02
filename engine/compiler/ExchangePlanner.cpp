// Decides where every vertex field points and which bytes each step moves.
// A field whose tensor is one contiguous run on the vertex's tile points
// straight at it; anything else gets a slot in the step's exchange buffer on
// that tile, filled before compute and written back after it.
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"

#include <algorithm>
#include <limits>
#include <span>

namespace tessera::compiler {

namespace {

class Planner {
public:
    explicit Planner(CompiledGraph& out)
        : out_(out)
        , graph_(*out.graph) {}

    void run() {
        for (const StepId s : record::idRange<StepId>(out_.steps.size())) {
            StepPlan& step = out_.steps[s.value()];
            checkTensor(step.source, step);
            checkTensor(step.destination, step);
            switch (step.kind) {
            case record::ProgramKind::Execute:
                planExecute(s, step);
                break;
            case record::ProgramKind::Copy:
                planCopy(step);
                break;
            case record::ProgramKind::StreamToDevice:
                checkStream(step, step.destination, true);
                planHost(step, step.destination);
                addVars(step.writes, step.destination);
                break;
            case record::ProgramKind::StreamToHost:
                checkStream(step, step.source, false);
                planHost(step, step.source);
                addVars(step.reads, step.source);
                break;
            case record::ProgramKind::PrintTensor:
            case record::ProgramKind::Predicate:
                planHost(step, step.source);
                addVars(step.reads, step.source);
                break;
            default:
                break;
            }
            dedupe(step.reads);
            dedupe(step.writes);
        }
    }

private:
    void checkTensor(const Tensor& t, const StepPlan& step) const {
        if (t.valid() && &t.graph() != &graph_) {
            throw ValidationError("program step '" + step.name + "': tensor " + t.describe() +
                                  " belongs to another graph");
        }
    }

    // A stream copy must name a stream of this graph that fits the tensor (a
    // DataStream of another graph would leave the runtime without a buffer).
    void checkStream(const StepPlan& step, const Tensor& t, bool toDevice) const {
        auto it = graph_.streams().find(step.stream);
        if (it == graph_.streams().end()) {
            throw ValidationError("program step '" + step.name + "': stream '" + step.stream +
                                  "' is not a stream of this graph");
        }
        const DataStream& s = it->second;
        if (s.toDevice != toDevice || s.type != t.elementType() ||
            s.numElements != t.numElements()) {
            throw ValidationError("program step '" + step.name + "': stream '" + step.stream +
                                  "' of this graph does not match tensor " + t.describe() +
                                  " in direction, type or size (a stream of another graph?)");
        }
    }

    static void addVars(std::vector<VariableId>& list, const Tensor& t) {
        for (const VariableRegion& r : t.regions()) {
            list.push_back(r.var);
        }
    }
    static void dedupe(std::vector<VariableId>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
    }

    // The step's exchange buffer on `tile` (made on first use) grown by `bytes`.
    Location exchangeSlot(StepId s, TileId tile, std::uint64_t bytes) {
        if (bufferStep_ != s) {
            bufferStep_ = s;
            bufferOf_.assign(graph_.getTarget().numTiles(), kNoBlock);
        }
        BlockId& block = bufferOf_.at(tile.value());
        if (block == kNoBlock) {
            block = static_cast<BlockId>(out_.blocks.size());
            DataBlock b;
            b.tile = tile;
            b.step = s;
            b.alwaysLive = false;
            b.firstStep = b.lastStep = s;
            out_.blocks.push_back(b);
        }
        DataBlock& b = out_.blocks[block];
        const std::uint64_t offset = alignUp(b.bytes, 8);
        b.bytes = withinTileAddresses(graph_.getTarget(), tile, offset + bytes);
        return {block, inBlock(offset)};
    }

    void planExecute(StepId s, StepPlan& step) {
        const ComputeSetData& cs = graph_.computeSet(step.computeSet);
        // Vertices by tile; mostly made tile by tile already, so mostly not copied.
        const auto byTile = [&](VertexId a, VertexId b) {
            return graph_.vertex(a).tile < graph_.vertex(b).tile;
        };
        std::span<const VertexId> order(cs.vertices.data(), cs.vertices.size());
        LargeVector<VertexId> sorted;
        if (!std::is_sorted(order.begin(), order.end(), byTile)) {
            sorted = cs.vertices;
            std::stable_sort(sorted.begin(), sorted.end(), byTile);
            order = {sorted.data(), sorted.size()};
        }
        step.vertices.reserve(order.size());
        // An entry a field is the usual case (vector lists grow the array):
        // reserved so the array does not grow through small pages.
        if (!order.empty()) {
            step.entries.reserve(order.size() * graph_.vertex(order[0]).codelet->fields.size());
        }
        readMark_.resize(graph_.variables().size(), StepId::none());
        runHints_.resize(graph_.variables().size(), 0);
        writeMark_.resize(graph_.variables().size(), StepId::none());
        // Each variable once (run() sorts the lists): marked with the step.
        auto note = [s](std::vector<VariableId>& list, std::vector<StepId>& mark, VariableId var) {
            if (mark[var.value()] != s) {
                mark[var.value()] = s;
                list.push_back(var);
            }
        };
        for (VertexId id : order) {
            const VertexData& v = graph_.vertex(id);
            step.vertices.push_back(
                {id, v.tile, narrow(step.entries.size(), "a step's field entries", id)});
            for (std::uint32_t f = 0; f < v.codelet->fields.size(); ++f) {
                const FieldInfo& info = v.codelet->fields[f];
                for (std::size_t e = 0, n = graph_.entryCount(id, f); e < n; ++e) {
                    const Connection c = graph_.connection(id, f, e);
                    const std::size_t count = c.numElements();
                    const Location l = bind(s, step, v.tile, info.direction, info.type, c, count);
                    step.entries.push_back({narrow(l.offset, "a field's offset in its block", id),
                                            l.block, narrow(count, "a field's element count", id)});
                    for (const VariableRegion& r : c.regions) {
                        if (reads(info.direction)) {
                            note(step.reads, readMark_, r.var);
                        } else {
                            note(step.writes, writeMark_, r.var);
                        }
                        if (info.direction == FieldDirection::InOut) {
                            note(step.writes, writeMark_, r.var);
                        }
                    }
                }
            }
        }
    }

    // Fails by name when a field entry (or a step's entry count) outgrows 32 bits.
    std::uint32_t narrow(std::uint64_t value, const char* what, VertexId id) const {
        if (value > std::numeric_limits<std::uint32_t>::max()) {
            throw ValidationError("not supported by Tessera: " + std::string(what) + " of " +
                                  std::to_string(value) + " (over 2^32 - 1) in " +
                                  graph_.vertexName(id));
        }
        return static_cast<std::uint32_t>(value);
    }

    Location bind(StepId s, StepPlan& step, TileId tile, FieldDirection dir, Type type,
                  const Connection& c, std::size_t count) {
        runs_.clear();
        out_.appendRuns(c.regions, runs_, &runHints_);
        const LargeVector<Run>& runs = runs_;
        if (runs.size() == 1 && runs[0].tile == tile) {
            return runs[0].location;
        }
        const std::size_t size = sizeOf(type);
        const Location slot = exchangeSlot(s, tile, count * size);
        std::uint64_t pos = slot.offset;
        for (const Run& r : runs) {
            const Location local{slot.block, inBlock(pos)};
            const std::uint32_t bytes = inBlock(r.elements * size);
            if (reads(dir)) {
                step.gather.push_back({r.location, local, bytes});
            }
            if (writes(dir)) {
                step.scatter.push_back({local, r.location, bytes});
            }
            pos += bytes;
        }
        return slot;
    }

    void planCopy(StepPlan& step) {
        addVars(step.reads, step.source);
        addVars(step.writes, step.destination);
        if (checkOverlap(step)) {
            return; // a copy onto itself moves nothing
        }
        src_.clear();
        dst_.clear();
        out_.appendRuns(step.source.regions(), src_);
        out_.appendRuns(step.destination.regions(), dst_);
        const LargeVector<Run>& src = src_;
        const LargeVector<Run>& dst = dst_;
        const std::size_t size = sizeOf(step.source.elementType());
        step.gather.reserve(src.size() + dst.size()); // each copy ends a run of either
        std::size_t i = 0, j = 0, usedSrc = 0, usedDst = 0;
        while (i < src.size() && j < dst.size()) {
            const std::size_t n = std::min(src[i].elements - usedSrc, dst[j].elements - usedDst);
            step.gather.push_back(
                {{src[i].location.block, inBlock(src[i].location.offset + usedSrc * size)},
                 {dst[j].location.block, inBlock(dst[j].location.offset + usedDst * size)},
                 inBlock(n * size)});
            usedSrc += n;
            usedDst += n;
            if (usedSrc == src[i].elements) {
                ++i;
                usedSrc = 0;
            }
            if (usedDst == dst[j].elements) {
                ++j;
                usedDst = 0;
            }
        }
    }

    // True when the copy is onto itself; throws for any other overlap.
    bool checkOverlap(const StepPlan& step) const {
        const auto sourceRegions = step.source.regions();
        const auto destinationRegions = step.destination.regions();
        // Most copies read one variable and write another: nothing to sort.
        std::vector<VariableId> written;
        for (const VariableRegion& r : destinationRegions) {
            if (written.empty() || written.back() != r.var) {
                written.push_back(r.var);
            }
        }
        std::sort(written.begin(), written.end());
        if (std::none_of(sourceRegions.begin(), sourceRegions.end(), [&](const VariableRegion& r) {
                return std::binary_search(written.begin(), written.end(), r.var);
            })) {
            return false;
        }
        std::vector<VariableRegion> a(sourceRegions.begin(), sourceRegions.end());
        std::vector<VariableRegion> b(destinationRegions.begin(), destinationRegions.end());
        auto less = [](const VariableRegion& x, const VariableRegion& y) {
            return x.var != y.var ? x.var < y.var : x.begin < y.begin;
        };
        std::sort(a.begin(), a.end(), less);
        std::sort(b.begin(), b.end(), less);
        std::size_t i = 0, j = 0;
        while (i < a.size() && j < b.size()) {
            if (a[i].var == b[j].var && a[i].begin < b[j].end && b[j].begin < a[i].end) {
                if (step.source == step.destination) {
                    return true;
                }
                throw ValidationError("Copy '" + step.name + "': source " + step.source.describe() +
                                      " and destination " + step.destination.describe() +
                                      " overlap in tensor '" + graph_.variable(a[i].var).name +
                                      "'");
            }
            if (less(a[i], b[j])) {
                ++i;
            } else {
                ++j;
            }
        }
        return false;
    }

    void planHost(StepPlan& step, const Tensor& t) {
        const std::size_t size = sizeOf(t.elementType());
        std::uint64_t host = 0;
        for (const Run& r : out_.runsOf(t)) {
            step.host.push_back({r.location, host, r.elements * size});
            host += r.elements * size;
        }
    }

    CompiledGraph& out_;
    const Graph& graph_;
    StepId bufferStep_ = StepId::none();
    std::vector<BlockId> bufferOf_;            // per tile: bufferStep_'s exchange buffer
    LargeVector<Run> runs_, src_, dst_;        // scratch of bind() and planCopy()
    std::vector<std::uint32_t> runHints_;      // appendRuns' last interval per variable
    std::vector<StepId> readMark_, writeMark_; // per variable: the last step listing it
};

} // namespace

void planExchanges(CompiledGraph& out) {
    Planner(out).run();
}

} // namespace tessera::compiler
