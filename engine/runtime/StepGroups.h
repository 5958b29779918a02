#pragma once
// Which consecutive steps of a program may run tile by tile: each tile runs
// its part of every step of the group (its exchange copies, then its
// vertices) before the next tile starts, so the data a step copies into a
// tile is still in the cache when that tile's vertices read it. A real IPU
// runs the steps one after the other on all tiles; the order only differs
// between different tiles, which touch each other's memory only through the
// exchange's sources. So a group is allowed when no step of it writes a byte
// that any step of it reads from another tile (checked on the blocks' bytes
// in the tile stores, so memory reused by two blocks counts as one).
#include "engine/compiler/Compiled.h"
#include "engine/graph/Graph.h"
#include "engine/runtime/SharedReplicas.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::runtime {

// The most steps one group holds: a bound on the planning work per group,
// and more steps gain nothing once one tile's data stays in the cache.
inline constexpr std::size_t kMostGroupedSteps = 8;

class StepGroups {
public:
    // `replicas`: replicas run() does not copy (runtime/SharedReplicas.h):
    // their Copy steps run alone, and their readers read the shared replica.
    StepGroups(const Graph& graph, const compiler::CompiledGraph& compiled,
               const SharedReplicas* replicas = nullptr);

    // How many steps, from instruction `pc` of program `program`, may run as
    // one group: at least 2, or 0 when the step at `pc` runs alone. Planned
    // on first use and kept.
    std::size_t stepsFrom(unsigned program, std::size_t pc);

private:
    // A byte range of one tile's store.
    struct Range {
        std::uint32_t tile;
        std::uint64_t begin, end;
    };
    struct Access {
        bool groupable = false;
        std::vector<Range> remoteReads; // exchange sources on another tile
        std::vector<Range> writes;      // exchange destinations and vertex outputs
    };
    const Access& access(compiler::StepId step);
    std::size_t plan(unsigned program, std::size_t pc);
    Range rangeOf(compiler::BlockId block) const;

    const Graph& graph_;
    const compiler::CompiledGraph& compiled_;
    const SharedReplicas* replicas_;
    std::vector<std::optional<Access>> steps_;
    std::vector<std::vector<std::int8_t>> planned_; // per instruction: -1 unknown, else steps
    std::vector<std::uint8_t> seen_;                // per block, while collecting
};

enum class Grouping { Auto, Never };
// For tests and benchmarks (the results are the same bytes either way);
// applies to engines prepared afterwards.
void setGrouping(Grouping mode);
Grouping grouping();

} // namespace tessera::runtime
