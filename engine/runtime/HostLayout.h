#pragma once
// Where each data block lives in the host's copy of tile memory. The tile's
// layout shares bytes between blocks whose live ranges do not meet, and the
// host keeps that sharing. But `Engine::run` never touches some blocks: a
// replica it does not make (SharedReplicas.h) and an exchange buffer whose
// every input is read where it lies (InPlaceReads.h). Left in place, they
// sit between used bytes, and on huge pages the kernel zeroes them with the
// used bytes beside them: at 2048³ on mk2, 453 MB of the 655 MB of stores.
// So those blocks are set apart, each with bytes of its own after every
// tile's store, where only the debugger (which makes every replica) or a
// host read of a dead variable goes. The other blocks keep the tile's
// layout with the gaps left by the ones taken out squeezed away: blocks that
// share bytes on the tile share the same bytes on the host, and each keeps
// its offset modulo 64, so vector loads see the alignment they would.
// A replica made once and read by other tiles in place of their own
// (SharedReplicas.h) gets bytes of its own among the used ones, shared with
// no other block: on the tile, a block first written after the replica's
// last reader may take its bytes, and tiles running a group of steps unit
// by unit (StepGroups.h) would then overwrite what another unit has still
// to read.
// The compiled plan is untouched: addresses, records and cycles are the IPU's.
#include "engine/compiler/Compiled.h"
#include "engine/runtime/InPlaceReads.h"
#include "engine/runtime/SharedReplicas.h"

#include <cstdint>
#include <vector>

namespace tessera::runtime {

struct HostLayout {
    std::vector<std::uint64_t> blockOffset; // per block: bytes from the start of the memory
    std::uint64_t usedBytes = 0;            // the tiles' stores: all run() touches
    std::uint64_t totalBytes = 0;           // and the blocks set apart after them
};

// Per block: kSetApart, a block run() never touches; kOwnBytes, a block
// sharing no bytes; 0, laid out as on the tile.
inline constexpr std::uint8_t kSetApart = 1;
inline constexpr std::uint8_t kOwnBytes = 2;
HostLayout layOutHostMemory(const compiler::CompiledGraph& compiled,
                            const std::vector<std::uint8_t>& apart);

// The blocks run() never touches (kSetApart): replicas not made, and
// exchange buffers whose every gather into them is read in place (none
// copied, none sent on, no entry reading them where they are); and the
// replicas made and read by other tiles (kOwnBytes). `inPlace`: one plan per
// step.
std::vector<std::uint8_t> blocksPlacedApart(const compiler::CompiledGraph& compiled,
                                            const SharedReplicas& replicas,
                                            const std::vector<InPlaceReads>& inPlace);

} // namespace tessera::runtime
