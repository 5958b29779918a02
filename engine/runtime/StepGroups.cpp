#include "engine/runtime/StepGroups.h"

#include "engine/runtime/ByteRanges.h"
#include "engine/runtime/StepEntries.h"

#include <algorithm>
#include <atomic>

namespace tessera::runtime {

namespace {

std::atomic<Grouping> groupingMode{Grouping::Auto};

template <typename R>
std::vector<R> unite(const std::vector<R>& a, const std::vector<R>& b) {
    std::vector<R> out;
    out.reserve(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
               rangeBefore<&R::tile, R>);
    coalesce<&R::tile>(out);
    return out;
}

// Lowest-tile roots of tile sets, merged as reads join writers to readers.
class UnitSets {
public:
    explicit UnitSets(std::size_t tiles)
        : parent_(tiles)
        , size_(tiles, 1) {
        for (std::size_t t = 0; t < tiles; ++t) {
            parent_[t] = static_cast<std::uint32_t>(t);
        }
    }
    std::uint32_t root(std::uint32_t t) {
        while (parent_[t] != t) {
            parent_[t] = parent_[parent_[t]];
            t = parent_[t];
        }
        return t;
    }
    // Joins the sets of a and b; the size of the joined set.
    std::size_t join(std::uint32_t a, std::uint32_t b) {
        a = root(a);
        b = root(b);
        if (a == b) {
            return size_[a];
        }
        if (b < a) {
            std::swap(a, b);
        }
        parent_[b] = a; // the lowest tile stays the root
        size_[a] += size_[b];
        return size_[a];
    }

private:
    std::vector<std::uint32_t> parent_;
    std::vector<std::size_t> size_;
};

} // namespace

void setGrouping(Grouping mode) {
    groupingMode.store(mode);
}

Grouping grouping() {
    return groupingMode.load();
}

StepGroups::StepGroups(const Graph& graph, const compiler::CompiledGraph& compiled,
                       const SharedReplicas* replicas,
                       std::vector<std::vector<std::uint8_t>> copied,
                       const std::vector<std::uint64_t>* hostOffsets)
    : graph_(graph)
    , compiled_(compiled)
    , replicas_(replicas)
    , copied_(std::move(copied))
    , hostOffsets_(hostOffsets)
    , steps_(compiled.steps.size()) {
    planned_.reserve(compiled.programs.size());
    units_.reserve(compiled.programs.size());
    for (const auto& code : compiled.programs) {
        planned_.emplace_back(code.size(), std::int8_t{-1});
        units_.emplace_back(code.size());
    }
}

std::size_t StepGroups::stepsFrom(unsigned program, std::size_t pc) {
    std::int8_t& known = planned_[program][pc];
    if (known < 0) {
        Planned p = plan(program, pc);
        known = static_cast<std::int8_t>(p.steps);
        if (!p.units.empty()) {
            units_[program][pc] = std::move(p.units);
        }
    }
    return static_cast<std::size_t>(known);
}

const std::vector<std::uint32_t>& StepGroups::unitsFrom(unsigned program, std::size_t pc) {
    stepsFrom(program, pc);
    return units_[program][pc];
}

StepGroups::Range StepGroups::rangeOf(compiler::BlockId block) const {
    const compiler::DataBlock& b = compiled_.blocks[block];
    const std::uint64_t begin = hostOffsets_ ? (*hostOffsets_)[block] : b.storeOffset;
    return {b.tile.value(), begin, begin + b.bytes};
}

const StepGroups::Access& StepGroups::access(compiler::StepId id) {
    std::optional<Access>& known = steps_[id.value()];
    if (known) {
        return *known;
    }
    known.emplace();
    Access& a = *known;
    const compiler::StepPlan& step = compiled_.step(id);
    // Steps that move data to or from another tile after their vertices, or
    // that talk to the host, stop, or stamp cycles run alone.
    a.groupable =
        (step.kind == record::ProgramKind::Execute || step.kind == record::ProgramKind::Copy) &&
        step.scatter.empty() && step.host.empty() && step.abortMessage.empty() && !step.cycleStamp;
    const SharedReplicas::Step* shared = replicas_ ? replicas_->find(id) : nullptr;
    if (shared && !shared->copy.empty()) {
        a.groupable = false; // its readers on other tiles need every tile's copy made first
    }
    if (!a.groupable) {
        return a;
    }
    if (seen_.size() != compiled_.blocks.size()) {
        seen_.assign(compiled_.blocks.size(), 0);
    }
    // Each block once, whole (a read once per reader): coarser than the
    // bytes moved, never finer.
    std::vector<std::pair<compiler::BlockId, std::uint32_t>> reads; // block, reader
    std::vector<compiler::BlockId> writeBlocks;
    const std::vector<std::uint8_t>* copied =
        id.value() < copied_.size() && !copied_[id.value()].empty() ? &copied_[id.value()]
                                                                    : nullptr;
    for (std::size_t i = 0; i < step.gather.size(); ++i) {
        const compiler::Transfer& t = step.gather[i];
        const TileId reader = compiled_.blocks[t.destination.block].tile;
        if (compiled_.blocks[t.source.block].tile != reader) {
            reads.emplace_back(t.source.block, reader.value()); // copied, or read in place
        }
        if (copied && !(*copied)[i]) {
            continue; // its vertex reads the source: the buffer is not written
        }
        if (!seen_[t.destination.block]) {
            seen_[t.destination.block] = 1;
            writeBlocks.push_back(t.destination.block);
        }
    }
    forEachEntry(graph_, step, [&](std::size_t, std::uint64_t e, const FieldInfo& field) {
        const compiler::BlockId block = step.entries[e].block;
        if (writes(field.direction) && !seen_[block]) {
            seen_[block] = 1;
            writeBlocks.push_back(block);
        }
    });
    if (shared) {
        for (const compiler::BlockId b : shared->remoteReads) {
            reads.emplace_back(b, kAnyReader);
        }
    }
    std::sort(reads.begin(), reads.end());
    reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
    for (const auto& [block, reader] : reads) {
        const Range r = rangeOf(block);
        a.remoteReads.push_back({r.tile, r.begin, r.end, reader});
    }
    std::sort(a.remoteReads.begin(), a.remoteReads.end(), rangeBefore<&Read::tile, Read>);
    // Only the marks made here are cleared: a program may have many steps.
    for (const compiler::BlockId b : writeBlocks) {
        seen_[b] = 0;
        a.writes.push_back(rangeOf(b));
    }
    coalesce<&Range::tile>(a.writes);
    return a;
}

std::optional<std::vector<std::uint32_t>>
StepGroups::unitsOf(const std::vector<Read>& reads, const std::vector<Range>& writes) const {
    const std::size_t tiles = graph_.getTarget().numTiles();
    const std::size_t most = std::max<std::size_t>(2, tiles / kUnitTilesDivisor);
    UnitSets sets(tiles);
    bool joined = false;
    // Both lists ascend by tile and begin; `writes` is merged, so a write
    // ending before a read begins ends before every later read too.
    std::size_t j = 0;
    for (const Read& r : reads) {
        while (j < writes.size() &&
               (writes[j].tile != r.tile ? writes[j].tile < r.tile : writes[j].end <= r.begin)) {
            ++j;
        }
        if (j == writes.size() || writes[j].tile != r.tile || writes[j].begin >= r.end) {
            continue; // nothing in the group writes these bytes
        }
        if (r.reader == kAnyReader || sets.join(r.reader, r.tile) > most) {
            return std::nullopt;
        }
        joined = true;
    }
    std::vector<std::uint32_t> units;
    if (joined) {
        units.resize(tiles);
        for (std::size_t t = 0; t < tiles; ++t) {
            units[t] = sets.root(static_cast<std::uint32_t>(t));
        }
    }
    return units;
}

StepGroups::Planned StepGroups::plan(unsigned program, std::size_t pc) {
    Planned planned;
    if (grouping() == Grouping::Never) {
        return planned;
    }
    const std::vector<compiler::Instruction>& code = compiled_.programs[program];
    std::vector<Read> reads;   // of the steps taken so far
    std::vector<Range> writes; // of the steps taken so far
    std::size_t n = 0;
    for (std::size_t i = pc; i < code.size() && n < kMostGroupedSteps; ++i, ++n) {
        if (code[i].op != compiler::Op::Step) {
            break;
        }
        const Access& a = access(code[i].step);
        if (!a.groupable) {
            break;
        }
        std::vector<Read> moreReads;
        moreReads.reserve(reads.size() + a.remoteReads.size());
        std::merge(reads.begin(), reads.end(), a.remoteReads.begin(), a.remoteReads.end(),
                   std::back_inserter(moreReads), rangeBefore<&Read::tile, Read>);
        std::vector<Range> moreWrites = unite(writes, a.writes);
        std::optional<std::vector<std::uint32_t>> units = unitsOf(moreReads, moreWrites);
        if (!units) {
            break;
        }
        reads = std::move(moreReads);
        writes = std::move(moreWrites);
        planned.units = std::move(*units);
    }
    if (n < 2) {
        return {};
    }
    planned.steps = n;
    return planned;
}

} // namespace tessera::runtime
