// Lightweight-profiling blocks, derived from the executed steps of a report
// and the lightweight-profiling options the capture used (docs/libpva.md):
//
// * instrumented programs: Block programs whose name matches
//   profiler.blocks.filter, and programs whose name matches
//   profiler.programs.filter (both whole-name regular expressions);
// * one execution of an instrumented program is a maximal run of consecutive
//   executed steps inside it (split where its first step starts again, when
//   that step is not inside a loop of the program);
// * it is recorded on every tile that works in it (exchange or compute) and on
//   the first tile of each IPU it uses (the profiled tile, as Poplar's
//   profiler.blocks.tile); a working tile's range runs from the end of the sync
//   of its first step to the end of its own work in its last one, the profiled
//   tile's from the start of the first step to the end of the last;
// * with debug.instrumentExternalExchange, each stream copy is three blocks on
//   each tile it moves data to or from: StreamCopyBegin (the sync with the
//   host), StreamCopyMid (the tile's transfer), StreamCopyEnd (the rest of
//   the step);
// * each tile's buffer holds profiler.blocks.bufferSize / 16 blocks per run;
//   with profiler.blocks.implicitFlush false, blocks past that are dropped and
//   one overflow block covers them; with it true (the default) the buffer is
//   flushed as needed at no cost, so nothing is dropped.
#include "ReportData.h"

#include <algorithm>
#include <regex>

namespace pva::detail {

namespace {

constexpr std::uint64_t kBytesPerBlock = 16;

struct Pending {
    std::uint32_t run = 0;
    Block block;
};

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
    for (const auto& n : nodes) {
        if (n.id < parent.size()) {
            parent[n.id] = n.parent;
        }
    }
    std::vector<std::uint32_t> instrumented;
    if (anyFilter) {
        const std::regex blockRe = compile(options.blocksFilter, "profiler.blocks.filter");
        const std::regex programRe = compile(options.programsFilter, "profiler.programs.filter");
        for (const auto& n : nodes) {
            const std::string& name = byNode[n.id].front()->name();
            const bool asBlock = !options.blocksFilter.empty() && n.kind == ProgramKind::Block &&
                                 std::regex_match(name, blockRe);
            const bool asProgram = !options.programsFilter.empty() && !name.empty() &&
                                   std::regex_match(name, programRe);
            if (asBlock || asProgram) {
                instrumented.push_back(n.id);
            }
        }
    }
    // For each step, the instrumented nodes containing it; for each
    // instrumented node, its first step when that step is not in a loop of it.
    std::map<std::uint32_t, std::vector<std::uint32_t>> containing; // step -> nodes
    std::map<std::uint32_t, std::uint32_t> entryStep;               // node -> step
    for (const auto& s : steps) {
        for (std::uint32_t node : instrumented) {
            bool inLoop = false;
            for (std::uint32_t n = s.node; n != kNone && n < parent.size(); n = parent[n]) {
                if (n == node) {
                    containing[s.id].push_back(node);
                    if (!entryStep.count(node) && !inLoop) {
                        entryStep[node] = s.id;
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
            const auto& st = stepTiles(e.programStep);
            const auto& ps = steps.at(e.programStep);
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
            const auto& inside = containing[e.programStep];
            for (auto& [node, o] : open) {
                if (o.open && std::find(inside.begin(), inside.end(), node) == inside.end()) {
                    close(node);
                }
            }
            for (std::uint32_t node : inside) {
                Open& o = open[node];
                if (o.open && entryStep[node] == e.programStep) {
                    close(node);
                }
                if (!o.open) {
                    o.open = true;
                    o.stepFrom = e.startCycle;
                }
                o.stepTo = e.startCycle + e.cycles;
                o.ipuActive = o.ipuActive || ipuWorks;
                if (works) {
                    if (!o.active) {
                        o.from = workFrom;
                    }
                    o.active = true;
                    o.to = workTo;
                }
            }
            if (options.instrumentExternalExchange &&
                (ps.kind == ProgramKind::StreamToDevice || ps.kind == ProgramKind::StreamToHost) &&
                (st.bytesIn[tile] > 0 || st.bytesOut[tile] > 0)) {
                const auto& phases = byNode[ps.node];
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

    // Time order, an enclosing block before the blocks inside it.
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        if (a.run != b.run) {
            return a.run < b.run;
        }
        if (a.block.cyclesFrom() != b.block.cyclesFrom()) {
            return a.block.cyclesFrom() < b.block.cyclesFrom();
        }
        return a.block.cyclesTo() > b.block.cyclesTo();
    });

    const std::uint64_t capacity = options.bufferSize / kBytesPerBlock;
    std::vector<Block> out;
    std::size_t i = 0;
    while (i < pending.size()) {
        const std::uint32_t run = pending[i].run;
        std::uint64_t kept = 0;
        bool overflowing = false;
        std::uint64_t dropFrom = 0, dropTo = 0;
        for (; i < pending.size() && pending[i].run == run; ++i) {
            const Block& b = pending[i].block;
            if (options.implicitFlush || kept < capacity) {
                out.push_back(b);
                ++kept;
                continue;
            }
            if (!overflowing) {
                overflowing = true;
                dropFrom = b.cyclesFrom();
            }
            dropTo = std::max(dropTo, b.cyclesTo());
        }
        if (overflowing) {
            out.push_back(makeBlock(tile, nullptr, dropFrom, dropTo, 1));
        }
    }
    return out;
}

} // namespace pva::detail
