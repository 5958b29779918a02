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

// Whether two coalesced lists share a byte.
template <typename R>
bool overlap(const std::vector<R>& a, const std::vector<R>& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        const R& x = a[i];
        const R& y = b[j];
        if (x.tile == y.tile && x.begin < y.end && y.begin < x.end) {
            return true;
        }
        if (x.tile != y.tile ? x.tile < y.tile : x.end <= y.end) {
            ++i;
        } else {
            ++j;
        }
    }
    return false;
}

} // namespace

void setGrouping(Grouping mode) {
    groupingMode.store(mode);
}

Grouping grouping() {
    return groupingMode.load();
}

StepGroups::StepGroups(const Graph& graph, const compiler::CompiledGraph& compiled,
                       const SharedReplicas* replicas)
    : graph_(graph)
    , compiled_(compiled)
    , replicas_(replicas)
    , steps_(compiled.steps.size()) {
    planned_.reserve(compiled.programs.size());
    for (const auto& code : compiled.programs) {
        planned_.emplace_back(code.size(), std::int8_t{-1});
    }
}

std::size_t StepGroups::stepsFrom(unsigned program, std::size_t pc) {
    std::int8_t& known = planned_[program][pc];
    if (known < 0) {
        known = static_cast<std::int8_t>(plan(program, pc));
    }
    return static_cast<std::size_t>(known);
}

StepGroups::Range StepGroups::rangeOf(compiler::BlockId block) const {
    const compiler::DataBlock& b = compiled_.blocks[block];
    return {b.tile.value(), b.storeOffset, std::uint64_t{b.storeOffset} + b.bytes};
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
    // Each block once, whole: coarser than the bytes moved, never finer.
    std::vector<compiler::BlockId> readBlocks, writeBlocks;
    const auto note = [&](compiler::BlockId block, std::uint8_t bit,
                          std::vector<compiler::BlockId>& out) {
        if ((seen_[block] & bit) == 0) {
            seen_[block] |= bit;
            out.push_back(block);
        }
    };
    for (const compiler::Transfer& t : step.gather) {
        if (compiled_.blocks[t.source.block].tile != compiled_.blocks[t.destination.block].tile) {
            note(t.source.block, 1, readBlocks);
        }
        note(t.destination.block, 2, writeBlocks);
    }
    forEachEntry(graph_, step, [&](std::size_t, std::uint64_t e, const FieldInfo& field) {
        if (writes(field.direction)) {
            note(step.entries[e].block, 2, writeBlocks);
        }
    });
    if (shared) {
        for (const compiler::BlockId b : shared->remoteReads) {
            note(b, 1, readBlocks);
        }
    }
    // Only the marks made here are cleared: a program may have many steps.
    for (const compiler::BlockId b : readBlocks) {
        seen_[b] = 0;
        a.remoteReads.push_back(rangeOf(b));
    }
    for (const compiler::BlockId b : writeBlocks) {
        seen_[b] = 0;
        a.writes.push_back(rangeOf(b));
    }
    coalesce<&Range::tile>(a.remoteReads);
    coalesce<&Range::tile>(a.writes);
    return a;
}

std::size_t StepGroups::plan(unsigned program, std::size_t pc) {
    if (grouping() == Grouping::Never) {
        return 0;
    }
    const std::vector<compiler::Instruction>& code = compiled_.programs[program];
    std::vector<Range> reads, writes; // of the steps taken so far
    std::size_t n = 0;
    for (std::size_t i = pc; i < code.size() && n < kMostGroupedSteps; ++i, ++n) {
        if (code[i].op != compiler::Op::Step) {
            break;
        }
        const Access& a = access(code[i].step);
        if (!a.groupable) {
            break;
        }
        std::vector<Range> moreReads = unite(reads, a.remoteReads);
        std::vector<Range> moreWrites = unite(writes, a.writes);
        if (overlap(moreReads, moreWrites)) {
            break;
        }
        reads = std::move(moreReads);
        writes = std::move(moreWrites);
    }
    return n >= 2 ? n : 0;
}

} // namespace tessera::runtime
