#pragma once
// Which consecutive steps of a program may run tile by tile: each tile runs
// its part of every step of the group (its exchange copies, then its
// vertices) before the next tile starts, so the data a step copies into a
// tile is still in the cache when that tile's vertices read it. A real IPU
// runs the steps one after the other on all tiles; the order only differs
// between different tiles, which touch each other's memory only through the
// exchange's sources (a tile writes only its own store).
//
// Tiles that do read bytes another tile writes in the group (a matMul's
// reduction reading the partial sums its cluster of tiles made) run as one
// unit: the unit's tiles run each step (all their copies, then all their
// vertices) before any of them starts the next. So a group is allowed when
// every byte a step of it writes and a step of it reads from another tile
// is written and read within one unit, and no unit holds more than a
// sixteenth of the target's tiles (the units are what runs in parallel).
// Checked on the blocks' bytes in the tile stores, so memory reused by two
// blocks counts as one.
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
// A unit holds at most max(2, tiles / kUnitTilesDivisor) tiles.
inline constexpr std::size_t kUnitTilesDivisor = 16;

class StepGroups {
public:
    // `replicas`: replicas run() does not copy (runtime/SharedReplicas.h):
    // their Copy steps run alone, and their readers read the shared replica.
    // `copied`: per step, which gather transfers run() makes (1), as
    // InPlaceReads::copy says (empty: all); the others write nothing, their
    // vertices reading the source. `hostOffsets`: where each block lies in
    // the host's stores (HostLayout::blockOffset), whose sharing of bytes is
    // what counts; without them, the tiles' layout.
    StepGroups(const Graph& graph, const compiler::CompiledGraph& compiled,
               const SharedReplicas* replicas = nullptr,
               std::vector<std::vector<std::uint8_t>> copied = {},
               const std::vector<std::uint64_t>* hostOffsets = nullptr);

    // How many steps, from instruction `pc` of program `program`, may run as
    // one group: at least 2, or 0 when the step at `pc` runs alone. Planned
    // on first use and kept.
    std::size_t stepsFrom(unsigned program, std::size_t pc);
    // For the group stepsFrom(program, pc) planned: each tile's unit, named
    // by its lowest tile; empty when every tile is a unit of its own.
    const std::vector<std::uint32_t>& unitsFrom(unsigned program, std::size_t pc);

private:
    // A byte range of one tile's store.
    struct Range {
        std::uint32_t tile;
        std::uint64_t begin, end;
    };
    // Bytes of `tile`'s store read by the tile `reader` (kAnyReader: a
    // shared replica's readers, not told apart).
    struct Read {
        std::uint32_t tile;
        std::uint64_t begin, end;
        std::uint32_t reader;
    };
    static constexpr std::uint32_t kAnyReader = ~std::uint32_t{0};
    struct Access {
        bool groupable = false;
        std::vector<Read> remoteReads; // exchange sources on another tile, by tile and begin
        std::vector<Range> writes;     // exchange destinations and vertex outputs
    };
    struct Planned {
        std::size_t steps = 0;
        std::vector<std::uint32_t> units;
    };
    const Access& access(compiler::StepId step);
    Planned plan(unsigned program, std::size_t pc);
    // The units under which `reads` and `writes` may run as one group, or
    // nothing when a unit would be too large or a read's reader is unknown.
    std::optional<std::vector<std::uint32_t>> unitsOf(const std::vector<Read>& reads,
                                                      const std::vector<Range>& writes) const;
    Range rangeOf(compiler::BlockId block) const;

    const Graph& graph_;
    const compiler::CompiledGraph& compiled_;
    const SharedReplicas* replicas_;
    std::vector<std::vector<std::uint8_t>> copied_;
    const std::vector<std::uint64_t>* hostOffsets_;
    std::vector<std::optional<Access>> steps_;
    std::vector<std::vector<std::int8_t>> planned_; // per instruction: -1 unknown, else steps
    std::vector<std::vector<std::vector<std::uint32_t>>> units_; // per instruction, when planned
    std::vector<std::uint8_t> seen_;                             // per block, while collecting
};

enum class Grouping { Auto, Never };
// For tests and benchmarks (the results are the same bytes either way);
// applies to engines prepared afterwards.
void setGrouping(Grouping mode);
Grouping grouping();

} // namespace tessera::runtime
