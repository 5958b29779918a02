// Cost of every step on every tile (docs/engine.md gives the formulas):
//   compute:  vertices list-scheduled on the tile's worker contexts; a worker
//             issues every numWorkerContexts cycles, so tile cycles =
//             contexts x the busiest worker's thread cycles;
//   exchange: latency + max(bytes in, bytes out) / exchangeBytesPerCycle, a
//             byte sent to several tiles counted once in its sender's bytes out
//             + on-tile copies / onTileCopyBytesPerCycle
//             + for a tile using the IPU-Links: inter-IPU latency + the busier
//               direction of its IPU's link traffic / ipuLinkBytesPerCycle
//             + for a tile in a host transfer: latency + its IPU's host bytes
//               / hostBytesPerCycle (links are shared by all tiles of an IPU);
//   sync:     one per step: host sync for host transfers, global when the
//             step spans IPUs; a Sync or cycle stamp with a scope costs its
//             scope's sync (internal, external = all IPUs, global = + host);
//   step:     sync + slowest exchange + slowest compute (BSP).
#include "engine/compiler/Introspector.h"
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"
#include "engine/core/ExceptionText.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

namespace tessera::compiler {

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) {
    return (a + b - 1) / b;
}

std::uint32_t clamp32(std::uint64_t v) {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(v, 0xffffffffu));
}

// The sync before a step that is not a host transfer.
std::uint64_t syncCycles(const StepPlan& step, const Target& target, bool spansIpus) {
    using program::SyncScope;
    std::optional<SyncScope> scope = step.syncScope;
    if (!scope) { // the default: a plain Sync waits for all IPUs of a multi-IPU target
        const bool allIpus = target.numIPUs > 1 && step.kind == record::ProgramKind::Sync;
        scope = allIpus ? SyncScope::External : SyncScope::Internal;
    }
    if (spansIpus && *scope == SyncScope::Internal) {
        scope = SyncScope::External; // data crosses the IPU-Links
    }
    switch (*scope) {
    case SyncScope::Internal:
        return target.ipuSyncCycles;
    case SyncScope::External:
        return target.globalSyncCycles;
    case SyncScope::Global:
        return target.hostSyncCycles;
    }
    return target.ipuSyncCycles;
}

// A byte range of a block sent to another tile of the same IPU.
struct SentRange {
    BlockId block;
    std::uint64_t begin, end;
};

// `ranges` ordered by block, then by begin. Many ranges over few blocks (a
// matMul's operand rows sent to every tile of their row): bucketed by block
// in two passes, each block's few ranges sorted alone, instead of one sort
// of them all.
void orderByBlock(LargeVector<SentRange>& ranges, std::size_t blocks) {
    const auto less = [](const SentRange& a, const SentRange& b) {
        return a.block != b.block ? a.block < b.block : a.begin < b.begin;
    };
    if (std::is_sorted(ranges.begin(), ranges.end(), less)) { // often already in order
        return;
    }
    if (ranges.size() < blocks / 4) { // the buckets would cost more than the sort
        std::sort(ranges.begin(), ranges.end(), less);
        return;
    }
    std::vector<std::size_t> start(blocks + 1, 0);
    for (const SentRange& r : ranges) {
        ++start[r.block + 1];
    }
    for (std::size_t b = 0; b < blocks; ++b) {
        start[b + 1] += start[b];
    }
    LargeVector<SentRange> bucketed(ranges.size());
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (const SentRange& r : ranges) {
        bucketed[next[r.block]++] = r;
    }
    for (std::size_t b = 0; b < blocks; ++b) {
        const auto first = bucketed.begin() + static_cast<std::ptrdiff_t>(start[b]);
        const auto last = bucketed.begin() + static_cast<std::ptrdiff_t>(start[b + 1]);
        if (!std::is_sorted(first, last, less)) {
            std::sort(first, last, less);
        }
    }
    ranges = std::move(bucketed);
}

// The ranges merged where they overlap or touch, per block.
LargeVector<SentRange> unionOf(LargeVector<SentRange> ranges, std::size_t blocks) {
    orderByBlock(ranges, blocks);
    LargeVector<SentRange> merged;
    merged.reserve(ranges.size());
    for (const SentRange& r : ranges) {
        if (!merged.empty() && merged.back().block == r.block && r.begin <= merged.back().end) {
            merged.back().end = std::max(merged.back().end, r.end);
        } else {
            merged.push_back(r);
        }
    }
    return merged;
}

} // namespace

PerfEstimate estimateVertex(const Graph& graph, VertexId id) {
    const VertexData& v = graph.vertex(id);
    PerfEstimate e;
    const PerfEstimator& estimator = graph.estimatorFor(*v.codelet);
    if (estimator) {
        try {
            e = estimator(Introspector(graph, id), graph.getTarget());
        } catch (const Error&) {
            throw;
        } catch (...) { // user code: say which vertex it was estimating
            throw CodeletError(graph.vertexName(id) + ": the cycle estimator of codelet '" +
                               v.codelet->name + "' threw " + currentExceptionText());
        }
    }
    if (const auto fixed = graph.perfEstimate(id)) {
        e.cycles = *fixed;
    }
    return e;
}

void estimateCycles(CompiledGraph& out) {
    const Graph& graph = *out.graph;
    const Target& target = graph.getTarget();
    const std::uint32_t tiles = target.numTiles();
    const std::uint32_t contexts = target.numWorkerContexts;
    // Each worker context's busy time on the tile being scheduled, a
    // min-heap, reused from tile to tile (a graph has tiles × steps of them).
    std::vector<std::uint64_t> workers;
    for (StepPlan& step : out.steps) {
        step.computeCycles.assign(tiles, 0);
        step.exchangeCycles.assign(tiles, 0);
        step.bytesIn.assign(tiles, 0);
        step.bytesOut.assign(tiles, 0);
        std::vector<std::uint64_t> remoteIn(tiles, 0), remoteOut(tiles, 0), local(tiles, 0);
        std::vector<std::uint64_t> ipuIn(tiles, 0), ipuOut(tiles, 0), host(tiles, 0);
        std::vector<bool> active(tiles, false);

        // Compute: estimate each vertex, then list-schedule per tile.
        for (std::size_t i = 0; i < step.vertices.size();) {
            const TileId tile = step.vertices[i].tile;
            workers.assign(contexts, 0); // all free: a heap already
            for (; i < step.vertices.size() && step.vertices[i].tile == tile; ++i) {
                const VertexPlan& vp = step.vertices[i];
                const PerfEstimate e = estimateVertex(graph, vp.vertex);
                step.flops += e.flops;
                // The vertex goes to the worker free first.
                std::pop_heap(workers.begin(), workers.end(), std::greater<>{});
                workers.back() += e.cycles;
                std::push_heap(workers.begin(), workers.end(), std::greater<>{});
            }
            const std::uint64_t makespan = *std::max_element(workers.begin(), workers.end());
            step.computeCycles[tile.value()] = clamp32(makespan * contexts);
            active[tile.value()] = true;
        }

        // Exchange: tally bytes per tile from the transfers. On chip, a tile
        // sends each byte once however many tiles receive it (the exchange is
        // time-scheduled: receivers listen in the same cycles), so a tile's
        // bytes out are the union of the ranges it sends.
        LargeVector<SentRange> sent;
        sent.reserve(step.gather.size() + step.scatter.size());
        auto tally = [&](const Transfer& t) {
            const TileId srcTile = out.blocks[t.source.block].tile;
            const TileId dstTile = out.blocks[t.destination.block].tile;
            const std::size_t src = srcTile.value(), dst = dstTile.value();
            active[src] = active[dst] = true;
            if (src == dst) {
                local[dst] += t.bytes;
            } else if (target.ipuOfTile(srcTile) != target.ipuOfTile(dstTile)) {
                ipuOut[src] += t.bytes;
                ipuIn[dst] += t.bytes;
            } else {
                sent.push_back({t.source.block, t.source.offset, t.source.offset + t.bytes});
                remoteIn[dst] += t.bytes;
            }
        };
        std::for_each(step.gather.begin(), step.gather.end(), tally);
        std::for_each(step.scatter.begin(), step.scatter.end(), tally);
        for (const SentRange& r : unionOf(std::move(sent), out.blocks.size())) {
            remoteOut[out.blocks[r.block].tile.value()] += r.end - r.begin;
        }
        for (const HostTransfer& h : step.host) {
            const std::size_t tile = out.blocks[h.device.block].tile.value();
            host[tile] += h.bytes;
            active[tile] = true;
        }

        // The IPU-Links and the host link are shared by all tiles of an IPU.
        std::vector<std::uint64_t> linkIn(target.numIPUs, 0), linkOut(target.numIPUs, 0),
            hostBytes(target.numIPUs, 0);
        for (std::uint32_t t = 0; t < tiles; ++t) {
            const std::uint32_t ipu = target.ipuOfTile(TileId{t});
            linkIn[ipu] += ipuIn[t];
            linkOut[ipu] += ipuOut[t];
            hostBytes[ipu] += host[t];
        }
        bool spansIpus = false;
        std::uint32_t firstIpu = kNoIndex;
        for (std::uint32_t t = 0; t < tiles; ++t) {
            const std::uint32_t ipu = target.ipuOfTile(TileId{t});
            std::uint64_t cycles = 0;
            if (remoteIn[t] || remoteOut[t] || local[t]) {
                cycles +=
                    target.exchangeLatencyCycles +
                    ceilDiv(std::max(remoteIn[t], remoteOut[t]), target.exchangeBytesPerCycle) +
                    ceilDiv(local[t], target.onTileCopyBytesPerCycle);
            }
            if (ipuIn[t] || ipuOut[t]) {
                cycles += target.interIpuLatencyCycles +
                          ceilDiv(std::max(linkIn[ipu], linkOut[ipu]), target.ipuLinkBytesPerCycle);
                spansIpus = true;
            }
            if (host[t]) {
                cycles += target.exchangeLatencyCycles +
                          ceilDiv(hostBytes[ipu], target.hostBytesPerCycle);
            }
            step.exchangeCycles[t] = clamp32(cycles);
            const bool toDevice = step.kind == record::ProgramKind::StreamToDevice;
            step.bytesIn[t] = clamp32(remoteIn[t] + ipuIn[t] + (toDevice ? host[t] : 0));
            step.bytesOut[t] = clamp32(remoteOut[t] + ipuOut[t] + (toDevice ? 0 : host[t]));
            if (active[t]) {
                spansIpus = spansIpus || (firstIpu != kNoIndex && ipu != firstIpu);
                firstIpu = firstIpu == kNoIndex ? ipu : firstIpu;
            }
            step.computePhaseCycles =
                std::max<std::uint64_t>(step.computePhaseCycles, step.computeCycles[t]);
            step.exchangePhaseCycles =
                std::max<std::uint64_t>(step.exchangePhaseCycles, step.exchangeCycles[t]);
        }
        step.crossesIpus = spansIpus;
        const bool hostStep = step.kind == record::ProgramKind::StreamToDevice ||
                              step.kind == record::ProgramKind::StreamToHost ||
                              step.kind == record::ProgramKind::PrintTensor;
        step.syncCycles = hostStep ? target.hostSyncCycles : syncCycles(step, target, spansIpus);
    }
}

} // namespace tessera::compiler
