#include "engine/runtime/SharedReplicas.h"

#include "engine/runtime/StepEntries.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <numeric>
#include <unordered_map>

namespace tessera::runtime {

namespace {

std::atomic<ShareReplicas> shareMode{ShareReplicas::Auto};

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

using compiler::BlockId;
using compiler::StepId;
using compiler::Transfer;

// One transfer into a replica, its destination relative to the replica's block.
struct Piece {
    BlockId source;
    std::uint64_t sourceOffset, destinationOffset, bytes;
    bool operator==(const Piece&) const = default;
};

Piece pieceOf(const Transfer& t) {
    return {t.source.block, t.source.offset, t.destination.offset, t.bytes};
}

std::uint64_t hashOf(const std::vector<Piece>& pieces) {
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    for (const Piece& p : pieces) {
        mix(p.source);
        mix(p.sourceOffset);
        mix(p.destinationOffset);
        mix(p.bytes);
    }
    return h;
}

// Replicas of the same pieces made by one Copy step.
struct Group {
    StepId copy;
    std::vector<Piece> pieces;                                   // by destination offset
    std::vector<std::pair<std::uint64_t, std::uint64_t>> covers; // merged destination bytes
    std::vector<BlockId> members;
    BlockId shared = compiler::kNoBlock; // the replica the others' readers read
};

// A vertex entry reading a replica.
struct Reader {
    StepId step;
    std::uint64_t entry;
    BlockId block;
    std::uint64_t begin, end; // bytes of the block
};

// Where steps stand in their programs: position, and the end (exclusive) of
// the straight run of steps from there: no control instruction and no jump
// target inside, so reaching a step of the run means its first ran before it.
struct Positions {
    std::vector<std::uint32_t> program, pc, runEnd;

    explicit Positions(const compiler::CompiledGraph& compiled)
        : program(compiled.steps.size(), kNone)
        , pc(compiled.steps.size(), kNone)
        , runEnd(compiled.steps.size(), 0) {
        for (std::uint32_t p = 0; p < compiled.programs.size(); ++p) {
            const std::vector<compiler::Instruction>& code = compiled.programs[p];
            std::vector<std::uint8_t> landing(code.size() + 1, 0);
            for (const compiler::Instruction& in : code) {
                if (in.op != compiler::Op::Step) {
                    landing[std::min<std::size_t>(in.target, code.size())] = 1;
                }
            }
            std::uint32_t end = static_cast<std::uint32_t>(code.size());
            for (std::uint32_t i = end; i-- > 0;) {
                if (code[i].op != compiler::Op::Step) {
                    end = i;
                    continue;
                }
                const std::size_t s = code[i].step.value();
                program[s] = p;
                pc[s] = i;
                runEnd[s] = end;
                if (landing[i]) {
                    end = i;
                }
            }
        }
    }

    // Whether `later` runs after `first` in the straight run starting there.
    bool inRunOf(StepId first, StepId later) const {
        const std::size_t f = first.value(), l = later.value();
        return pc[f] != kNone && pc[l] != kNone && program[f] == program[l] && pc[f] < pc[l] &&
               pc[l] < runEnd[f];
    }
};

} // namespace

void setShareReplicas(ShareReplicas mode) {
    shareMode.store(mode);
}

ShareReplicas shareReplicas() {
    return shareMode.load();
}

const SharedReplicas::Step* SharedReplicas::find(StepId step) const {
    const auto it =
        std::lower_bound(steps.begin(), steps.end(), step, [](const auto& entry, StepId s) {
            return entry.first.value() < s.value();
        });
    return it != steps.end() && it->first == step ? &it->second : nullptr;
}

SharedReplicas planSharedReplicas(const Graph& graph, const compiler::CompiledGraph& compiled) {
    SharedReplicas out;
    if (shareReplicas() == ShareReplicas::Never) {
        return out;
    }
    const auto& blocks = compiled.blocks;
    const Positions positions(compiled);
    std::vector<Group> groups;
    std::vector<std::uint32_t> groupOf; // per block, once a Copy step has replicas
    std::uint32_t lastStep = 0;         // the last step any replica is used in
    for (std::uint32_t s = 0; s < compiled.steps.size(); ++s) {
        const compiler::StepPlan& step = compiled.steps[s];
        const StepId id = record::idAt<StepId>(s);
        if (step.kind != record::ProgramKind::Copy || step.gather.empty() ||
            positions.pc[s] == kNone) {
            continue;
        }
        std::vector<std::uint32_t> order(step.gather.size());
        std::iota(order.begin(), order.end(), 0u);
        const auto byDestination = [&](std::uint32_t a, std::uint32_t b) {
            const compiler::Location& x = step.gather[a].destination;
            const compiler::Location& y = step.gather[b].destination;
            return x.block != y.block ? x.block < y.block : x.offset < y.offset;
        };
        if (!std::is_sorted(order.begin(), order.end(), byDestination)) {
            std::sort(order.begin(), order.end(), byDestination);
        }
        std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> byHash; // group indices
        const std::size_t firstGroup = groups.size();
        std::vector<Piece> pieces;
        for (std::size_t i = 0; i < order.size();) {
            const BlockId block = step.gather[order[i]].destination.block;
            pieces.clear();
            for (; i < order.size() && step.gather[order[i]].destination.block == block; ++i) {
                pieces.push_back(pieceOf(step.gather[order[i]]));
            }
            const compiler::DataBlock& b = blocks[block];
            // A replica dies in the run of steps after its copy, first written there.
            if (b.var.isNone() || b.alwaysLive || b.firstStep != id || b.lastStep == id ||
                !positions.inRunOf(id, b.lastStep)) {
                continue;
            }
            std::vector<std::uint32_t>& candidates = byHash[hashOf(pieces)];
            const auto same = std::find_if(candidates.begin(), candidates.end(), [&](auto g) {
                return groups[g].pieces == pieces && blocks[groups[g].members[0]].var == b.var;
            });
            if (same != candidates.end()) {
                groups[*same].members.push_back(block);
                continue;
            }
            candidates.push_back(static_cast<std::uint32_t>(groups.size()));
            Group g{id, pieces, {}, {block}};
            for (const Piece& p : pieces) {
                const std::uint64_t end = p.destinationOffset + p.bytes;
                if (!g.covers.empty() && p.destinationOffset <= g.covers.back().second) {
                    g.covers.back().second = std::max(g.covers.back().second, end);
                } else {
                    g.covers.emplace_back(p.destinationOffset, end);
                }
            }
            groups.push_back(std::move(g));
        }
        for (std::size_t g = firstGroup; g < groups.size(); ++g) {
            if (groups[g].members.size() < 2) {
                continue;
            }
            if (groupOf.empty()) {
                groupOf.assign(blocks.size(), kNone);
            }
            for (const BlockId m : groups[g].members) {
                groupOf[m] = static_cast<std::uint32_t>(g);
                lastStep = std::max(lastStep, blocks[m].lastStep.value());
            }
        }
    }
    if (groupOf.empty()) {
        return out;
    }
    // Every use of a replica, from its copy to its death: the copy's own
    // transfers into it, and vertices' Input entries in the run after the
    // copy. Anything else keeps it (and its group's readers) copied.
    std::vector<std::uint8_t> kept(blocks.size(), 0);
    std::vector<Reader> readers;
    const std::uint32_t firstStep = groups.front().copy.value();
    const auto isReplica = [&](BlockId b) { return groupOf[b] != kNone; };
    for (std::uint32_t s = firstStep; s <= lastStep; ++s) {
        const compiler::StepPlan& step = compiled.steps[s];
        const StepId id = record::idAt<StepId>(s);
        for (const auto* transfers : {&step.gather, &step.scatter}) {
            for (const Transfer& t : *transfers) {
                if (isReplica(t.source.block)) {
                    kept[t.source.block] = 1;
                }
                if (isReplica(t.destination.block) &&
                    (transfers != &step.gather ||
                     groups[groupOf[t.destination.block]].copy != id)) {
                    kept[t.destination.block] = 1;
                }
            }
        }
        for (const compiler::HostTransfer& h : step.host) {
            if (isReplica(h.device.block)) {
                kept[h.device.block] = 1;
            }
        }
        if (step.cycleStamp) { // the host reads and writes its tensors directly
            for (const auto* vars : {&step.reads, &step.writes}) {
                for (const VariableId v : *vars) {
                    for (const compiler::PlacedInterval& p : compiled.placements[v.value()]) {
                        if (isReplica(p.block)) {
                            kept[p.block] = 1;
                        }
                    }
                }
            }
        }
        forEachEntry(graph, step, [&](std::size_t, std::uint64_t e, const FieldInfo& field) {
            const compiler::FieldEntryPlan& entry = step.entries[e];
            if (!isReplica(entry.block) || entry.count == 0) {
                return;
            }
            if (writes(field.direction) ||
                !positions.inRunOf(groups[groupOf[entry.block]].copy, id)) {
                kept[entry.block] = 1;
                return;
            }
            const std::uint64_t end = entry.offset + entry.count * sizeOf(field.type);
            readers.push_back({id, e, entry.block, entry.offset, end});
        });
    }
    // A reader of bytes the copy did not write needs its replica's own.
    for (const Reader& r : readers) {
        const auto& covers = groups[groupOf[r.block]].covers;
        const auto it =
            std::upper_bound(covers.begin(), covers.end(), r.begin,
                             [](std::uint64_t v, const auto& c) { return v < c.second; });
        if (it == covers.end() || it->first > r.begin || it->second < r.end) {
            kept[r.block] = 1;
        }
    }
    std::map<std::uint32_t, SharedReplicas::Step> bySteps;
    for (Group& g : groups) {
        if (g.members.size() < 2) {
            continue;
        }
        const auto shared =
            std::find_if(g.members.begin(), g.members.end(), [&](BlockId m) { return !kept[m]; });
        if (shared == g.members.end()) {
            continue;
        }
        g.shared = *shared;
        kept[g.shared] = 1; // it is made: the others read it
    }
    const auto sharedOf = [&](BlockId b) {
        return kept[b] ? compiler::kNoBlock : groups[groupOf[b]].shared;
    };
    for (BlockId b = 0; b < blocks.size(); ++b) {
        if (isReplica(b) && sharedOf(b) != compiler::kNoBlock) {
            out.notMade.push_back(b);
        }
    }
    for (const Reader& r : readers) {
        const BlockId shared = sharedOf(r.block);
        if (shared == compiler::kNoBlock) {
            continue;
        }
        SharedReplicas::Step& s = bySteps[r.step.value()];
        s.redirects.push_back({r.entry, {shared, compiler::inBlock(r.begin)}});
        if (blocks[shared].tile != blocks[r.block].tile) {
            s.remoteReads.push_back(shared);
        }
    }
    for (std::uint32_t s = firstStep; s <= lastStep; ++s) {
        const compiler::StepPlan& step = compiled.steps[s];
        if (step.kind != record::ProgramKind::Copy) {
            continue;
        }
        std::vector<std::uint8_t> copy(step.gather.size(), 1);
        std::uint64_t notCopied = 0;
        for (std::size_t i = 0; i < step.gather.size(); ++i) {
            const BlockId b = step.gather[i].destination.block;
            if (isReplica(b) && sharedOf(b) != compiler::kNoBlock) {
                copy[i] = 0;
                notCopied += step.gather[i].bytes;
            }
        }
        if (notCopied > 0) {
            SharedReplicas::Step& entry = bySteps[s];
            entry.copy = std::move(copy);
            entry.bytesNotCopied = notCopied;
        }
    }
    for (auto& [s, step] : bySteps) {
        // Readers were collected step by step in entry order.
        std::sort(step.remoteReads.begin(), step.remoteReads.end());
        step.remoteReads.erase(std::unique(step.remoteReads.begin(), step.remoteReads.end()),
                               step.remoteReads.end());
        out.steps.emplace_back(record::idAt<StepId>(s), std::move(step));
    }
    return out;
}

} // namespace tessera::runtime
