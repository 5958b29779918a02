// Lightweight-profiling blocks, derived from the executed steps of a report
// and the lightweight-profiling options the capture used (docs/libpva.md):
//
// * instrumented programs: Block programs whose name matches
//   profiler.blocks.filter, and programs whose name matches
//   profiler.programs.filter (both whole-name regular expressions);
// * one execution of an instrumented program is a run of consecutive executed
//   steps inside it: as many as one execution runs when that is fixed (no
//   data-dependent control inside: a loop inside a loop gives one execution
//   per outer iteration); else a maximal run, split where its first step
//   starts again when that step is not inside a loop of the program;
// * it is recorded on every tile that works in it (exchange or compute) and on
//   the first tile of each IPU it uses (the profiled tile, as Poplar's
//   profiler.blocks.tile); a working tile's range runs from the end of the sync
//   of its first step to the end of its own work in its last one, the profiled
//   tile's from the start of the first step to the end of the last;
// * with debug.instrumentExternalExchange, each stream copy is three blocks on
//   each tile it moves data to or from: StreamCopyBegin (the sync with the
//   host), StreamCopyMid (the tile's transfer), StreamCopyEnd (the rest of
//   the step);
// * each tile's buffer holds profiler.blocks.bufferSize / 16 blocks; a block
//   lands in it when it ends. A block flush (the Sync named BlockFlush the
//   SDK's engine runs with profiler.blocks.implicitFlush, app/sdk/src/
//   BlockFlush.h) and the end of a run empty it; blocks that do not fit are
//   dropped and one overflow block covers those dropped between two flushes;
// * with debug.instrumentExternalExchange, each flush is a block-flush block
//   (isBlockFlush) on every tile, over the flush step.
#include "ReportData.h"

#include <algorithm>
#include <optional>
#include <regex>

namespace pva::detail {

namespace {

constexpr std::uint64_t kBytesPerBlock = 16;

struct Pending {
    std::uint32_t run = 0;
    Block block;
    bool flush = false; // a block flush: empties the buffer (shown when the block is)
    bool shown = true;
};

// When a block lands in the buffer: when it ends (a flush, when it starts).
std::uint64_t recordedAt(const Pending& p) {
    return p.flush ? p.block.cyclesFrom() : p.block.cyclesTo();
}

std::regex compile(const std::string& pattern, const char* option) {
    try {
        return std::regex(pattern);
    } catch (const std::regex_error& e) {
        throw pva::error(std::string("pva: ") + option + " '" + pattern +
                         "' is not a regular expression: " + e.what());
    }
}

using tessera::record::ProgramKind;

bool isLoop(ProgramKind kind) {
    return kind == ProgramKind::Repeat || kind == ProgramKind::RepeatWhileTrue ||
           kind == ProgramKind::RepeatWhileFalse;
}

// The number of steps one execution of a node runs, when its control flow
// does not depend on data (Sequence, Repeat, Block over steps); else nullopt.
std::optional<std::uint64_t>
stepsPerExecution(std::uint32_t node, const std::vector<tessera::record::ProgramNodeRecord>& nodes,
                  const std::vector<std::vector<std::uint32_t>>& children) {
    if (node >= nodes.size()) {
        return std::nullopt;
    }
    const auto& n = nodes[node];
    if (n.kind == ProgramKind::Sequence || n.kind == ProgramKind::Block ||
        n.kind == ProgramKind::Repeat) {
        std::uint64_t sum = 0;
        for (std::uint32_t c : children[node]) {
            const auto steps = stepsPerExecution(c, nodes, children);
            if (!steps) {
                return std::nullopt;
            }
            sum += *steps;
        }
        return n.kind == ProgramKind::Repeat ? sum * n.repeatCount : sum;
    }
    const bool oneStep = n.kind == ProgramKind::Execute || n.kind == ProgramKind::Copy ||
                         n.kind == ProgramKind::StreamToDevice ||
                         n.kind == ProgramKind::StreamToHost || n.kind == ProgramKind::Sync ||
                         n.kind == ProgramKind::PrintTensor;
    if (oneStep && !n.step.isNone() && children[node].empty()) {
        return 1;
    }
    return std::nullopt;
}

} // namespace

Block ReportData::makeBlock(unsigned tile, std::shared_ptr<Program> program, std::uint64_t from,
                            std::uint64_t to, int kind) {
    Block b;
    b.tile_ = tile;
    b.program_ = std::move(program);
    b.from_ = from;
    b.to_ = to;
    b.kind_ = kind;
    return b;
}

std::vector<Block> ReportData::blocks(std::uint32_t tile) {
    const auto& target = reader.target();
    if (tile >= target.numTiles) {
        throw pva::error("pva: no tile " + std::to_string(tile) + " (the target has " +
                         std::to_string(target.numTiles) + ")");
    }
    loadPrograms();
    const BlockOptions options = blockOptions();
    const bool anyFilter = !options.blocksFilter.empty() || !options.programsFilter.empty();
    if (!anyFilter && !options.instrumentExternalExchange) {
        return {};
    }

    // Instrumented nodes, and for each the steps inside it.
    std::vector<std::uint32_t> parent(nodes.size(), kNone);
    std::vector<std::vector<std::uint32_t>> children(nodes.size());
    for (const auto& n : nodes) {
        if (n.id.value() < parent.size()) {
            parent[n.id.value()] = n.parent.value();
            if (n.parent.value() < children.size()) {
                children[n.parent.value()].push_back(n.id.value());
            }
        }
    }
    std::vector<std::uint32_t> instrumented;
    if (anyFilter) {
        const std::regex blockRe = compile(options.blocksFilter, "profiler.blocks.filter");
        const std::regex programRe = compile(options.programsFilter, "profiler.programs.filter");
        for (const auto& n : nodes) {
            const std::string& name = byNode[n.id.value()].front()->name();
            const bool asBlock = !options.blocksFilter.empty() && n.kind == ProgramKind::Block &&
                                 std::regex_match(name, blockRe);
            const bool asProgram = !options.programsFilter.empty() && !name.empty() &&
                                   std::regex_match(name, programRe);
            if (asBlock || asProgram) {
                instrumented.push_back(n.id.value());
            }
        }
    }
    // For each step, the instrumented nodes containing it. An execution of an
    // instrumented node ends after its steps per execution when that is
    // fixed; else when its first step starts again, if that step is not in a
    // loop of the node (the node itself included).
    std::map<std::uint32_t, std::vector<std::uint32_t>> containing; // step -> nodes
    std::map<std::uint32_t, std::uint32_t> entryStep;               // node -> step
    std::map<std::uint32_t, std::optional<std::uint64_t>> length;   // node -> steps
    for (std::uint32_t node : instrumented) {
        length[node] = stepsPerExecution(node, nodes, children);
    }
    for (const auto& s : steps) {
        for (std::uint32_t node : instrumented) {
            bool inLoop = isLoop(nodes[node].kind);
            for (std::uint32_t n = s.node.value(); n != kNone && n < parent.size(); n = parent[n]) {
                if (n == node) {
                    containing[s.id.value()].push_back(node);
                    if (!entryStep.count(node) && !inLoop) {
                        entryStep[node] = s.id.value();
                    } else if (!entryStep.count(node)) {
                        entryStep[node] = kNone;
                    }
                    break;
                }
                inLoop = inLoop || isLoop(nodes[n].kind);
            }
        }
    }

    const std::uint32_t firstTileOfIpu = target.tilesPerIpu ? tile - tile % target.tilesPerIpu : 0;
    const bool profiledTile = tile == firstTileOfIpu;
    const std::uint32_t ipuEnd = firstTileOfIpu + target.tilesPerIpu;

    std::vector<Pending> pending;
    struct Open {
        bool open = false;
        bool active = false; // this tile worked in it
        bool ipuActive = false;
        std::uint64_t stepsSeen = 0;
        std::uint64_t from = 0, to = 0, stepFrom = 0, stepTo = 0;
    };
    for (const auto& run : reader.runs()) {
        std::map<std::uint32_t, Open> open; // node -> the execution in progress
        auto close = [&](std::uint32_t node) {
            Open& o = open[node];
            if (o.open && (o.active || (profiledTile && o.ipuActive))) {
                const bool own = o.active;
                pending.push_back(
                    {run.id, makeBlock(tile, byNode[node].front(), own ? o.from : o.stepFrom,
                                       own ? o.to : o.stepTo, 0)});
            }
            o = Open{};
        };
        for (const auto& e : reader.executedSteps(run.id, 0, run.steps)) {
            const auto& st = stepTiles(e.programStep.value());
            const auto& ps = steps.at(e.programStep.value());
            const bool works = st.computeCycles[tile] > 0 || st.exchangeCycles[tile] > 0;
            bool ipuWorks = false;
            for (std::uint32_t t = firstTileOfIpu; t < ipuEnd && !ipuWorks; ++t) {
                ipuWorks = st.computeCycles[t] > 0 || st.exchangeCycles[t] > 0;
            }
            const std::uint64_t workFrom = e.startCycle + ps.syncCycles;
            const std::uint64_t workTo =
                st.computeCycles[tile] > 0
                    ? workFrom + ps.exchangePhaseCycles + st.computeCycles[tile]
                    : workFrom + st.exchangeCycles[tile];
            const auto& inside = containing[e.programStep.value()];
            for (auto& [node, o] : open) {
                if (o.open && std::find(inside.begin(), inside.end(), node) == inside.end()) {
                    close(node);
                }
            }
            for (std::uint32_t node : inside) {
                Open& o = open[node];
                const bool ended = length[node] ? o.stepsSeen == *length[node]
                                                : entryStep[node] == e.programStep.value();
                if (o.open && ended) {
                    close(node);
                }
                if (!o.open) {
                    o.open = true;
                    o.stepFrom = e.startCycle;
                }
                o.stepTo = e.startCycle + e.cycles;
                ++o.stepsSeen;
                o.ipuActive = o.ipuActive || ipuWorks;
                if (works) {
                    if (!o.active) {
                        o.from = workFrom;
                    }
                    o.active = true;
                    o.to = workTo;
                }
            }
            if (ps.kind == ProgramKind::Sync &&
                byNode[ps.node.value()].front()->name() == kBlockFlushName) {
                Pending flush{run.id,
                              makeBlock(tile, byNode[ps.node.value()].front(), e.startCycle,
                                        e.startCycle + e.cycles, 2),
                              true, options.instrumentExternalExchange};
                pending.push_back(flush);
            }
            if (options.instrumentExternalExchange &&
                (ps.kind == ProgramKind::StreamToDevice || ps.kind == ProgramKind::StreamToHost) &&
                (st.bytesIn[tile] > 0 || st.bytesOut[tile] > 0)) {
                const auto& phases = byNode[ps.node.value()];
                const std::uint64_t midTo = workFrom + st.exchangeCycles[tile];
                pending.push_back(
                    {run.id, makeBlock(tile, phases.at(0), e.startCycle, workFrom, 3)});
                pending.push_back({run.id, makeBlock(tile, phases.at(1), workFrom, midTo, 3)});
                pending.push_back(
                    {run.id, makeBlock(tile, phases.at(2), midTo, e.startCycle + e.cycles, 3)});
            }
        }
        for (auto& [node, o] : open) {
            if (o.open) {
                close(node);
            }
        }
    }

    // The buffer, in the order blocks land in it: each tile's holds
    // bufferSize / 16 blocks; a flush (and the end of a run) empties it;
    // blocks that do not fit are dropped, and one overflow block covers those
    // dropped between two flushes.
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        if (a.run != b.run) {
            return a.run < b.run;
        }
        if (recordedAt(a) != recordedAt(b)) {
            return recordedAt(a) < recordedAt(b);
        }
        return !a.flush && b.flush;
    });
    const std::uint64_t capacity = options.bufferSize / kBytesPerBlock;
    std::vector<Pending> out;
    std::uint64_t kept = 0;
    bool overflowing = false;
    std::uint64_t dropFrom = 0, dropTo = 0;
    auto empty = [&](std::uint32_t run) {
        if (overflowing) {
            out.push_back({run, makeBlock(tile, nullptr, dropFrom, dropTo, 1)});
        }
        kept = 0;
        overflowing = false;
        dropFrom = dropTo = 0;
    };
    for (std::size_t i = 0; i < pending.size(); ++i) {
        const Pending& p = pending[i];
        if (p.flush) {
            empty(p.run);
            if (p.shown) {
                out.push_back(p);
            }
        } else if (kept < capacity) {
            out.push_back(p);
            ++kept;
        } else {
            dropFrom =
                overflowing ? std::min(dropFrom, p.block.cyclesFrom()) : p.block.cyclesFrom();
            dropTo = std::max(dropTo, p.block.cyclesTo());
            overflowing = true;
        }
        if (i + 1 == pending.size() || pending[i + 1].run != p.run) {
            empty(p.run);
        }
    }

    // Time order, an enclosing block before the blocks inside it.
    std::stable_sort(out.begin(), out.end(), [](const Pending& a, const Pending& b) {
        if (a.run != b.run) {
            return a.run < b.run;
        }
        if (a.block.cyclesFrom() != b.block.cyclesFrom()) {
            return a.block.cyclesFrom() < b.block.cyclesFrom();
        }
        return a.block.cyclesTo() > b.block.cyclesTo();
    });
    std::vector<Block> blocks;
    for (const Pending& p : out) {
        blocks.push_back(p.block);
    }
    return blocks;
}

} // namespace pva::detail
