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

// The program tree by node.
struct Tree {
    std::vector<std::uint32_t> parent;
    std::vector<std::vector<std::uint32_t>> children;
};

Tree treeOf(const std::vector<tessera::record::ProgramNodeRecord>& nodes) {
    Tree t{std::vector<std::uint32_t>(nodes.size(), kNone),
           std::vector<std::vector<std::uint32_t>>(nodes.size())};
    for (const auto& n : nodes) {
        if (n.id.value() < t.parent.size()) {
            t.parent[n.id.value()] = n.parent.value();
            if (n.parent.value() < t.children.size()) {
                t.children[n.parent.value()].push_back(n.id.value());
            }
        }
    }
    return t;
}

// The nodes the filters instrument: Block programs matching the blocks
// filter, named programs matching the programs filter.
std::vector<std::uint32_t> instrumentedNodes(ReportData& data, const BlockOptions& options) {
    std::vector<std::uint32_t> instrumented;
    if (options.blocksFilter.empty() && options.programsFilter.empty()) {
        return instrumented;
    }
    const std::regex blockRe = compile(options.blocksFilter, "profiler.blocks.filter");
    const std::regex programRe = compile(options.programsFilter, "profiler.programs.filter");
    for (const auto& n : data.nodes) {
        const std::string& name = data.byNode[n.id.value()].front()->name();
        const bool asBlock = !options.blocksFilter.empty() && n.kind == ProgramKind::Block &&
                             std::regex_match(name, blockRe);
        const bool asProgram =
            !options.programsFilter.empty() && !name.empty() && std::regex_match(name, programRe);
        if (asBlock || asProgram) {
            instrumented.push_back(n.id.value());
        }
    }
    return instrumented;
}

// For each step, the instrumented nodes containing it. An execution of an
// instrumented node ends after its steps per execution when that is fixed;
// else when its first step starts again, if that step is not in a loop of
// the node (the node itself included).
struct Instrumentation {
    std::map<std::uint32_t, std::vector<std::uint32_t>> containing; // step -> nodes
    std::map<std::uint32_t, std::uint32_t> entryStep;               // node -> step
    std::map<std::uint32_t, std::optional<std::uint64_t>> length;   // node -> steps
};

Instrumentation instrumentationOf(ReportData& data, const BlockOptions& options) {
    const Tree tree = treeOf(data.nodes);
    const std::vector<std::uint32_t> instrumented = instrumentedNodes(data, options);
    Instrumentation in;
    for (std::uint32_t node : instrumented) {
        in.length[node] = stepsPerExecution(node, data.nodes, tree.children);
    }
    for (const auto& s : data.steps) {
        for (std::uint32_t node : instrumented) {
            bool inLoop = isLoop(data.nodes[node].kind);
            for (std::uint32_t n = s.node.value(); n != kNone && n < tree.parent.size();
                 n = tree.parent[n]) {
                if (n == node) {
                    in.containing[s.id.value()].push_back(node);
                    if (!in.entryStep.count(node) && !inLoop) {
                        in.entryStep[node] = s.id.value();
                    } else if (!in.entryStep.count(node)) {
                        in.entryStep[node] = kNone;
                    }
                    break;
                }
                inLoop = inLoop || isLoop(data.nodes[n].kind);
            }
        }
    }
    return in;
}

// An execution of an instrumented node in progress, on one tile.
struct Open {
    bool open = false;
    bool active = false; // this tile worked in it
    bool ipuActive = false;
    std::uint64_t stepsSeen = 0;
    std::uint64_t from = 0, to = 0, stepFrom = 0, stepTo = 0;
};

// What one tile does in one executed step.
struct TileWork {
    bool works = false;    // the tile exchanges or computes
    bool ipuWorks = false; // some tile of its IPU does
    std::uint64_t from = 0, to = 0;
};

// One tile's blocks in the order the runs execute them, before the buffer.
class TileBlocks {
public:
    TileBlocks(ReportData& data, std::uint32_t tile, const BlockOptions& options,
               Instrumentation& in)
        : data_(data)
        , tile_(tile)
        , options_(options)
        , in_(in) {
        const std::uint32_t perIpu = data.reader.target().tilesPerIpu;
        firstTileOfIpu_ = perIpu ? tile - tile % perIpu : 0;
        ipuEnd_ = firstTileOfIpu_ + perIpu;
        profiledTile_ = tile == firstTileOfIpu_;
    }

    std::vector<Pending> collect() {
        for (const auto& run : data_.reader.runs()) {
            run_ = run.id;
            open_.clear();
            for (const auto& e : data_.reader.executedSteps(run.id, 0, run.steps)) {
                step(e);
            }
            for (auto& [node, o] : open_) {
                if (o.open) {
                    close(node);
                }
            }
        }
        return std::move(pending_);
    }

private:
    void step(const tessera::record::StepExecutionRecord& e) {
        const auto& st = data_.stepTiles(e.programStep.value());
        const auto& ps = data_.steps.at(e.programStep.value());
        const TileWork work = workOf(e, st, ps);
        followExecutions(e, work);
        if (ps.kind == ProgramKind::Sync &&
            data_.byNode[ps.node.value()].front()->name() == kBlockFlushName) {
            Pending flush{run_,
                          ReportData::makeBlock(tile_, data_.byNode[ps.node.value()].front(),
                                                e.startCycle, e.startCycle + e.cycles, 2),
                          true, options_.instrumentExternalExchange};
            pending_.push_back(flush);
        }
        if (options_.instrumentExternalExchange &&
            (ps.kind == ProgramKind::StreamToDevice || ps.kind == ProgramKind::StreamToHost) &&
            (st.bytesIn[tile_] > 0 || st.bytesOut[tile_] > 0)) {
            addStreamCopy(e, st, ps, work.from);
        }
    }

    TileWork workOf(const tessera::record::StepExecutionRecord& e,
                    const tessera::reports::StepTiles& st,
                    const tessera::reports::ProgramStepEntry& ps) const {
        TileWork w;
        w.works = st.computeCycles[tile_] > 0 || st.exchangeCycles[tile_] > 0;
        for (std::uint32_t t = firstTileOfIpu_; t < ipuEnd_ && !w.ipuWorks; ++t) {
            w.ipuWorks = st.computeCycles[t] > 0 || st.exchangeCycles[t] > 0;
        }
        w.from = e.startCycle + ps.syncCycles;
        w.to = st.computeCycles[tile_] > 0
                   ? w.from + ps.exchangePhaseCycles + st.computeCycles[tile_]
                   : w.from + st.exchangeCycles[tile_];
        return w;
    }

    // Closes the executions the step is outside of, or that it starts again,
    // and extends those it is in.
    void followExecutions(const tessera::record::StepExecutionRecord& e, const TileWork& work) {
        const auto& inside = in_.containing[e.programStep.value()];
        for (auto& [node, o] : open_) {
            if (o.open && std::find(inside.begin(), inside.end(), node) == inside.end()) {
                close(node);
            }
        }
        for (std::uint32_t node : inside) {
            Open& o = open_[node];
            const bool ended = in_.length[node] ? o.stepsSeen == *in_.length[node]
                                                : in_.entryStep[node] == e.programStep.value();
            if (o.open && ended) {
                close(node);
            }
            if (!o.open) {
                o.open = true;
                o.stepFrom = e.startCycle;
            }
            o.stepTo = e.startCycle + e.cycles;
            ++o.stepsSeen;
            o.ipuActive = o.ipuActive || work.ipuWorks;
            if (work.works) {
                if (!o.active) {
                    o.from = work.from;
                }
                o.active = true;
                o.to = work.to;
            }
        }
    }

    // A working tile's block spans its own work; the profiled tile's the steps.
    void close(std::uint32_t node) {
        Open& o = open_[node];
        if (o.open && (o.active || (profiledTile_ && o.ipuActive))) {
            const bool own = o.active;
            pending_.push_back(
                {run_, ReportData::makeBlock(tile_, data_.byNode[node].front(),
                                             own ? o.from : o.stepFrom, own ? o.to : o.stepTo, 0)});
        }
        o = Open{};
    }

    // StreamCopyBegin, StreamCopyMid and StreamCopyEnd.
    void addStreamCopy(const tessera::record::StepExecutionRecord& e,
                       const tessera::reports::StepTiles& st,
                       const tessera::reports::ProgramStepEntry& ps, std::uint64_t workFrom) {
        const auto& phases = data_.byNode[ps.node.value()];
        const std::uint64_t midTo = workFrom + st.exchangeCycles[tile_];
        pending_.push_back(
            {run_, ReportData::makeBlock(tile_, phases.at(0), e.startCycle, workFrom, 3)});
        pending_.push_back({run_, ReportData::makeBlock(tile_, phases.at(1), workFrom, midTo, 3)});
        pending_.push_back(
            {run_, ReportData::makeBlock(tile_, phases.at(2), midTo, e.startCycle + e.cycles, 3)});
    }

    ReportData& data_;
    const std::uint32_t tile_;
    const BlockOptions& options_;
    Instrumentation& in_;
    std::uint32_t firstTileOfIpu_ = 0;
    std::uint32_t ipuEnd_ = 0;
    bool profiledTile_ = false;
    std::uint32_t run_ = 0;
    std::map<std::uint32_t, Open> open_; // node -> the execution in progress
    std::vector<Pending> pending_;
};

// The order blocks land in the buffer: by run, then when they land, a block
// before a flush at the same cycle.
void sortByLanding(std::vector<Pending>& pending) {
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        if (a.run != b.run) {
            return a.run < b.run;
        }
        if (recordedAt(a) != recordedAt(b)) {
            return recordedAt(a) < recordedAt(b);
        }
        return !a.flush && b.flush;
    });
}

// The buffer, in the order blocks land in it: each tile's holds `capacity`
// blocks; a flush (and the end of a run) empties it; blocks that do not fit
// are dropped, and one overflow block covers those dropped between two
// flushes.
std::vector<Pending> throughBuffer(std::vector<Pending> pending, std::uint64_t capacity,
                                   std::uint32_t tile) {
    sortByLanding(pending);
    std::vector<Pending> out;
    std::uint64_t kept = 0;
    bool overflowing = false;
    std::uint64_t dropFrom = 0, dropTo = 0;
    auto empty = [&](std::uint32_t run) {
        if (overflowing) {
            out.push_back({run, ReportData::makeBlock(tile, nullptr, dropFrom, dropTo, 1)});
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
    return out;
}

// Time order, an enclosing block before the blocks inside it.
std::vector<Block> inTimeOrder(std::vector<Pending> kept) {
    std::stable_sort(kept.begin(), kept.end(), [](const Pending& a, const Pending& b) {
        if (a.run != b.run) {
            return a.run < b.run;
        }
        if (a.block.cyclesFrom() != b.block.cyclesFrom()) {
            return a.block.cyclesFrom() < b.block.cyclesFrom();
        }
        return a.block.cyclesTo() > b.block.cyclesTo();
    });
    std::vector<Block> blocks;
    for (const Pending& p : kept) {
        blocks.push_back(p.block);
    }
    return blocks;
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
    Instrumentation in = instrumentationOf(*this, options);
    std::vector<Pending> pending = TileBlocks(*this, tile, options, in).collect();
    return inTimeOrder(
        throughBuffer(std::move(pending), options.bufferSize / kBytesPerBlock, tile));
}

} // namespace pva::detail
