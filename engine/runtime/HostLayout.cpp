#include "engine/runtime/HostLayout.h"

#include <algorithm>

namespace tessera::runtime {

namespace {

using compiler::BlockId;

constexpr std::uint64_t kLine = 64;             // offsets keep their place in a cache line
constexpr std::uint64_t kHugePage = 2ull << 20; // set-apart blocks share no page with used ones

// The first offset at or after `cursor` with the same place in a cache line as `offset`.
std::uint64_t placeLike(std::uint64_t cursor, std::uint64_t offset) {
    const std::uint64_t line = cursor / kLine * kLine + offset % kLine;
    return line >= cursor ? line : line + kLine;
}

} // namespace

HostLayout layOutHostMemory(const compiler::CompiledGraph& compiled,
                            const std::vector<std::uint8_t>& apart) {
    const auto& blocks = compiled.blocks;
    HostLayout out;
    out.blockOffset.assign(blocks.size(), 0); // an empty block points anywhere: the start
    // The used blocks of each tile, by tile (a counting sort), then by offset.
    const std::size_t tiles = compiled.storeBytes.size();
    std::vector<std::size_t> starts(tiles + 1, 0);
    const auto used = [&](BlockId b) { return apart[b] != kSetApart && blocks[b].bytes > 0; };
    for (BlockId b = 0; b < blocks.size(); ++b) {
        if (used(b)) {
            ++starts[blocks[b].tile.value() + 1];
        }
    }
    for (std::size_t t = 0; t < tiles; ++t) {
        starts[t + 1] += starts[t];
    }
    std::vector<BlockId> byTile(starts[tiles]);
    std::vector<std::size_t> next(starts.begin(), starts.end() - 1);
    for (BlockId b = 0; b < blocks.size(); ++b) {
        if (used(b)) {
            byTile[next[blocks[b].tile.value()]++] = b;
        }
    }
    std::uint64_t cursor = 0;
    for (std::size_t t = 0; t < tiles; ++t) {
        const auto first = byTile.begin() + static_cast<std::ptrdiff_t>(starts[t]);
        const auto last = byTile.begin() + static_cast<std::ptrdiff_t>(starts[t + 1]);
        std::sort(first, last, [&](BlockId a, BlockId b) {
            return blocks[a].storeOffset < blocks[b].storeOffset;
        });
        // Each stretch of the tile's bytes that used blocks cover moves as a whole.
        std::uint64_t stretchStart = 0, stretchEnd = 0, hostStart = 0;
        bool open = false;
        for (auto it = first; it != last; ++it) {
            if (apart[*it] == kOwnBytes) {
                continue; // placed after the tile's stretches
            }
            const compiler::DataBlock& d = blocks[*it];
            const std::uint64_t begin = d.storeOffset, end = begin + d.bytes;
            if (!open || begin >= stretchEnd) {
                if (open) {
                    cursor = hostStart + (stretchEnd - stretchStart);
                }
                stretchStart = begin;
                stretchEnd = end;
                hostStart = placeLike(cursor, begin);
                open = true;
            } else {
                stretchEnd = std::max(stretchEnd, end);
            }
            out.blockOffset[*it] = hostStart + (begin - stretchStart);
        }
        if (open) {
            cursor = hostStart + (stretchEnd - stretchStart);
        }
        for (auto it = first; it != last; ++it) {
            if (apart[*it] == kOwnBytes) {
                out.blockOffset[*it] = placeLike(cursor, blocks[*it].storeOffset);
                cursor = out.blockOffset[*it] + blocks[*it].bytes;
            }
        }
    }
    out.usedBytes = cursor;
    bool anyApart = false;
    for (BlockId b = 0; b < blocks.size(); ++b) {
        if (apart[b] == kSetApart && blocks[b].bytes > 0) {
            if (!anyApart) {
                cursor = (cursor + kHugePage - 1) / kHugePage * kHugePage;
                anyApart = true;
            }
            out.blockOffset[b] = placeLike(cursor, blocks[b].storeOffset);
            cursor = out.blockOffset[b] + blocks[b].bytes;
        }
    }
    out.totalBytes = cursor;
    return out;
}

std::vector<std::uint8_t> blocksPlacedApart(const compiler::CompiledGraph& compiled,
                                            const SharedReplicas& replicas,
                                            const std::vector<InPlaceReads>& inPlace) {
    const auto& blocks = compiled.blocks;
    std::vector<std::uint8_t> apart(blocks.size(), 0);
    for (const BlockId b : replicas.notMade) {
        apart[b] = kSetApart;
    }
    // Replicas made once and read by other tiles: bytes of their own.
    for (const auto& [step, shared] : replicas.steps) {
        for (const BlockId b : shared.remoteReads) {
            apart[b] = kOwnBytes;
        }
    }
    // An exchange buffer belongs to one step: only that step's plan uses it.
    std::vector<std::uint8_t> buffer(blocks.size(), 0); // 1: gathered into, 2: used
    const auto isBuffer = [&](BlockId b) { return blocks[b].var.isNone(); };
    for (std::size_t s = 0; s < compiled.steps.size(); ++s) {
        const compiler::StepPlan& plan = compiled.steps[s];
        const InPlaceReads& reads = inPlace[s];
        if (reads.copy.empty()) {
            continue; // every gather copied: nothing of this step is set apart
        }
        for (std::size_t i = 0; i < plan.gather.size(); ++i) {
            const BlockId b = plan.gather[i].destination.block;
            if (isBuffer(b)) {
                buffer[b] = std::max<std::uint8_t>(buffer[b], reads.copy[i] ? 2 : 1);
            }
        }
        for (const compiler::Transfer& t : plan.scatter) {
            buffer[t.source.block] = 2;
        }
        for (const compiler::HostTransfer& h : plan.host) {
            buffer[h.device.block] = 2;
        }
        auto redirect = reads.redirects.cbegin();
        for (std::size_t e = 0; e < plan.entries.size(); ++e) {
            const compiler::FieldEntryPlan& entry = plan.entries[e];
            const bool redirected = redirect != reads.redirects.cend() && redirect->entry == e;
            if (redirected) {
                ++redirect;
            } else if (entry.count > 0 && isBuffer(entry.block)) {
                buffer[entry.block] = 2;
            }
        }
    }
    for (BlockId b = 0; b < blocks.size(); ++b) {
        if (buffer[b] == 1) {
            apart[b] = kSetApart;
        }
    }
    return apart;
}

} // namespace tessera::runtime
