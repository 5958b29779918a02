// Gives every byte of every tile an address. Per tile, in address order:
// vertex code, control code, exchange code, vertex state, vector-list
// descriptors, constants, always-live variables, the not-always-live pool
// (variables and exchange buffers placed first-fit, sharing addresses when
// their live ranges do not overlap), then the stack. Alignment padding is
// counted as gaps. Sizes of code and state follow docs/engine.md.
#include "engine/compiler/ByTile.h"
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"
#include "engine/core/LargeArray.h"

#include <algorithm>
#include <map>

namespace tessera::compiler {

namespace {

using record::MemoryCategory;

constexpr std::uint32_t kControlCodeBase = 64;    // per tile: entry, sync and exit
constexpr std::uint32_t kControlCodePerStep = 12; // a call or a sync per program step
constexpr std::uint32_t kExchangeCodeBase = 16;   // per step a tile exchanges in
constexpr std::uint32_t kExchangeCodePerTransfer = 8;
constexpr std::uint32_t kEdgePointerBytes = 4; // scalar edge
constexpr std::uint32_t kVectorEdgeBytes = 8;  // pointer + size
constexpr std::uint32_t kListEntryBytes = 8;   // per vector-list entry
constexpr std::size_t kHugeAdviceFromBytes = std::size_t{32} << 20;

struct TileLayout {
    std::uint64_t cursor = 0;                // offset from the memory base
    std::uint64_t used = 0;                  // bytes of blocks, without gaps
    std::uint64_t poolPeak = 0, poolSum = 0; // the not-always-live pool, shared and not
    std::array<std::uint64_t, record::kMemoryCategoryCount> byCategory{};
};

// A step's exchange or host-exchange code on one tile.
struct CodeBlock {
    TileId tile;
    StepId step;
    std::uint32_t bytes = 0;
};

// Code blocks in step order, and for each tile the indices of its own (a
// vector a tile made 1472 of them, most empty at 10^4 vertices).
struct CodeByTile {
    CodeByTile() = default;
    CodeByTile(std::size_t tiles, std::vector<CodeBlock> inStepOrder)
        : blocks(std::move(inStepOrder))
        , onTile(tiles, blocks.size(), [&](std::size_t i) { return blocks[i].tile.value(); }) {}
    std::vector<CodeBlock> blocks;
    ByTile<std::uint32_t> onTile; // into blocks, each tile's in step order
};

class Layout {
public:
    explicit Layout(CompiledGraph& out)
        : out_(out)
        , target_(out.graph->getTarget())
        , regions_(target_.memoryRegions()) {}

    void run() {
        const std::uint32_t tiles = target_.numTiles();
        blocksOnTile_ = ByTile<BlockId>(tiles, out_.blocks.size(),
                                        [&](std::size_t b) { return out_.blocks[b].tile.value(); });
        collectCodelets();
        out_.storeBytes.assign(tiles, 0);
        resizeMappedFirst(out_.record.tileMemory, tiles);
        reserveBlockRecords();
        for (const TileId t : record::idRange<TileId>(tiles)) {
            layTile(t);
        }
    }

private:
    // A graph of 10^6 vertices has 2·10^6 block records: reserved at an upper
    // bound once instead of copied through every doubling of the array.
    void reserveBlockRecords() {
        std::size_t bound = out_.blocks.size();
        for (std::size_t t = 0; t < target_.numTiles(); ++t) {
            const std::size_t vertices = verticesOnTile_.of(t).size();
            // Code per codelet, state and list descriptors per vertex, exchange
            // and host code per step, then control code and the stack.
            bound += std::min(out_.codelets.size(), vertices) + 2 * vertices +
                     exchangeCode_.onTile.of(t).size() + hostCode_.onTile.of(t).size() + 2;
        }
        auto& blocks = out_.record.memoryBlocks;
        blocks.reserve(blocks.size() + bound);
        // Two records a vertex: 640 MB at 10^7 vertices, written once. Only
        // from 32 MiB: the last, partly used 2 MiB extent commits whole (at
        // 10^5 vertices that was 14 of the graph's 310 bytes a vertex).
        if (const std::size_t bytes = blocks.capacity() * sizeof(blocks[0]);
            bytes >= kHugeAdviceFromBytes) {
            adviseHugePages(blocks.data(), bytes);
        }
    }

    void place(TileId t, MemoryCategory c, std::uint64_t bytes, std::uint64_t align,
               record::BlockOwner owner) {
        if (bytes == 0) {
            return;
        }
        TileLayout& l = layout_;
        l.cursor = alignUp(l.cursor, align);
        addBlockRecord(t, c, l.cursor, bytes, owner);
        l.cursor += bytes;
        l.used += bytes;
        l.byCategory[static_cast<std::size_t>(c)] += bytes;
    }

    void addBlockRecord(TileId t, MemoryCategory c, std::uint64_t offset, std::uint64_t bytes,
                        record::BlockOwner owner) {
        record::MemoryBlockRecord r;
        r.tile = t;
        r.category = c;
        r.address = static_cast<std::uint32_t>(target_.memoryBaseAddress + offset);
        r.bytes = static_cast<std::uint32_t>(bytes);
        r.setOwner(owner);
        auto& blocks = out_.record.memoryBlocks;
        mapAheadOfAppend(blocks.data() + blocks.size(), sizeof r,
                         blocks.data() + blocks.capacity());
        blocks.push_back(r);
    }

    void collectCodelets() {
        std::map<const CodeletInfo*, CodeletId> ids;
        const CodeletInfo* last = nullptr; // neighbouring vertices mostly share one
        for (const VertexData& v : out_.graph->vertices()) {
            if (v.codelet != last &&
                ids.try_emplace(v.codelet, record::idAt<CodeletId>(ids.size())).second) {
                out_.codelets.push_back(v.codelet);
            }
            last = v.codelet;
        }
        codeletIds_ = std::move(ids);
        const auto& vertices = out_.graph->vertices();
        verticesOnTile_ = ByTile<VertexId>(target_.numTiles(), vertices.size(),
                                           [&](std::size_t v) { return vertices[v].tile.value(); });
        // Per tile: steps it takes part in, and transfer counts for exchange code.
        std::vector<CodeBlock> exchange, host; // in step order, each step's in tile order
        // Counted in an array (a step can have millions of transfers), listed
        // in tile order.
        std::vector<std::uint32_t> transfers(target_.numTiles(), 0);
        std::vector<TileId> touched;
        auto countTransfer = [&](TileId tile) {
            if (transfers[tile.value()]++ == 0) {
                touched.push_back(tile);
            }
        };
        for (const StepId s : record::idRange<StepId>(out_.steps.size())) {
            const StepPlan& step = out_.steps[s.value()];
            for (const auto* list : {&step.gather, &step.scatter}) {
                for (const Transfer& tr : *list) {
                    countTransfer(out_.blocks[tr.source.block].tile);
                    const TileId dst = out_.blocks[tr.destination.block].tile;
                    if (dst != out_.blocks[tr.source.block].tile) {
                        countTransfer(dst);
                    }
                }
            }
            std::sort(touched.begin(), touched.end());
            for (TileId tile : touched) {
                exchange.push_back(
                    {tile, s,
                     kExchangeCodeBase + kExchangeCodePerTransfer * transfers[tile.value()]});
                transfers[tile.value()] = 0;
            }
            touched.clear();
            std::map<TileId, std::uint32_t> hostTransfers;
            for (const HostTransfer& h : step.host) {
                ++hostTransfers[out_.blocks[h.device.block].tile];
            }
            for (const auto& [tile, count] : hostTransfers) {
                host.push_back({tile, s, kExchangeCodeBase + kExchangeCodePerTransfer * count});
            }
        }
        exchangeCode_ = CodeByTile(target_.numTiles(), std::move(exchange));
        hostCode_ = CodeByTile(target_.numTiles(), std::move(host));
    }

    std::pair<std::uint64_t, std::uint64_t> vertexStateBytes(VertexId id) const {
        const VertexData& v = out_.graph->vertex(id);
        std::uint64_t state = 0, lists = 0;
        for (std::size_t f = 0; f < v.codelet->fields.size(); ++f) {
            switch (v.codelet->fields[f].shape) {
            case FieldShape::Scalar:
                state += kEdgePointerBytes;
                break;
            case FieldShape::Vector:
            case FieldShape::VectorList:
                state += kVectorEdgeBytes;
                break;
            }
            if (v.codelet->fields[f].shape == FieldShape::VectorList) {
                lists += kListEntryBytes * out_.graph->entryCount(id, f);
            }
        }
        for (const StateInfo& s : v.codelet->states) {
            state += alignUp(sizeOf(s.type), 4);
        }
        return {alignUp(state, 4), lists};
    }

    // Addresses and store offsets are cast to 32 bits as they are given:
    // finishTile refuses the tile when its end passes them, before anything
    // is recorded or run.
    void layTile(TileId t) {
        const std::size_t tile = t.value(); // into the per-tile arrays
        layout_ = {};
        const std::uint64_t dataAlign = std::max<std::uint64_t>(8, target_.minAlignment);
        // Code.
        const std::span<const VertexId> vertices = verticesOnTile_.of(tile);
        codeletsHere_.clear(); // in codelet id order, each once
        std::uint32_t stackNeed = target_.workerStackBytes;
        const CodeletInfo* last = nullptr;
        for (VertexId id : vertices) {
            const CodeletInfo* c = out_.graph->vertex(id).codelet;
            if (c != last) {
                codeletsHere_.emplace_back(codeletIds_.at(c), c);
                stackNeed = std::max(stackNeed, c->stackBytes);
                last = c;
            }
        }
        std::sort(codeletsHere_.begin(), codeletsHere_.end());
        codeletsHere_.erase(std::unique(codeletsHere_.begin(), codeletsHere_.end()),
                            codeletsHere_.end());
        for (const auto& [id, c] : codeletsHere_) {
            place(t, MemoryCategory::VertexCode, c->codeBytes, 8, id);
        }
        place(t, MemoryCategory::ControlCode,
              kControlCodeBase +
                  kControlCodePerStep * static_cast<std::uint64_t>(out_.steps.size()),
              8, {});
        for (const std::uint32_t i : exchangeCode_.onTile.of(tile)) {
            const CodeBlock& code = exchangeCode_.blocks[i];
            place(t, MemoryCategory::InternalExchangeCode, code.bytes, 8, code.step);
        }
        for (const std::uint32_t i : hostCode_.onTile.of(tile)) {
            const CodeBlock& code = hostCode_.blocks[i];
            place(t, MemoryCategory::HostExchangeCode, code.bytes, 8, code.step);
        }
        // Vertex state, then the vector-list descriptors.
        listBytes_.clear();
        for (VertexId id : vertices) {
            const auto [state, lists] = vertexStateBytes(id);
            place(t, MemoryCategory::VertexInstanceState, state, 4, id);
            listBytes_.push_back(lists);
        }
        for (std::size_t i = 0; i < listBytes_.size(); ++i) {
            place(t, MemoryCategory::VectorListDescriptor, listBytes_[i], 4, vertices[i]);
        }
        // Data: constants, always-live, then the shared pool.
        TileLayout& l = layout_;
        l.cursor = alignUp(l.cursor, dataAlign);
        const std::uint64_t dataStart = l.cursor;
        for (bool constants : {true, false}) {
            for (BlockId b : blocksOnTile_.of(tile)) {
                DataBlock& block = out_.blocks[b];
                if (block.alwaysLive && block.constant == constants) {
                    l.cursor = alignUp(l.cursor, dataAlign);
                    block.address =
                        static_cast<std::uint32_t>(target_.memoryBaseAddress + l.cursor);
                    block.storeOffset = static_cast<std::uint32_t>(l.cursor - dataStart);
                    place(t,
                          constants ? MemoryCategory::Constant : MemoryCategory::AlwaysLiveVariable,
                          block.bytes, dataAlign, block.var);
                }
            }
        }
        layPool(t, dataAlign, dataStart);
        out_.storeBytes[tile] = l.cursor - dataStart;
        // Stack last.
        place(t, MemoryCategory::Stack,
              static_cast<std::uint64_t>(stackNeed) * target_.numWorkerContexts +
                  target_.supervisorStackBytes,
              8, {});
        finishTile(t);
    }

    void layPool(TileId t, std::uint64_t align, std::uint64_t dataStart) {
        TileLayout& l = layout_;
        l.cursor = alignUp(l.cursor, align);
        const std::uint64_t poolStart = l.cursor;
        std::vector<BlockId>& items = poolItems_;
        items.clear();
        std::uint64_t sum = 0;
        for (BlockId b : blocksOnTile_.of(t.value())) {
            if (!out_.blocks[b].alwaysLive && out_.blocks[b].bytes > 0) {
                items.push_back(b);
                sum += alignUp(out_.blocks[b].bytes, align);
            }
        }
        std::stable_sort(items.begin(), items.end(), [&](BlockId a, BlockId b) {
            return out_.blocks[a].bytes > out_.blocks[b].bytes;
        });
        std::vector<Placed>& placed = placed_;
        placed.clear();
        std::uint64_t poolSize = 0;
        for (BlockId b : items) {
            DataBlock& block = out_.blocks[b];
            const std::uint64_t size = alignUp(block.bytes, align);
            std::vector<std::pair<std::uint64_t, std::uint64_t>>& busy = busy_;
            busy.clear();
            for (const Placed& p : placed) {
                if (p.first <= block.lastStep && block.firstStep <= p.last) {
                    busy.emplace_back(p.offset, p.end);
                }
            }
            std::sort(busy.begin(), busy.end());
            std::uint64_t offset = 0;
            for (const auto& [b0, b1] : busy) {
                if (offset + size <= b0) {
                    break;
                }
                offset = std::max(offset, b1);
            }
            placed.push_back({offset, offset + size, block.firstStep, block.lastStep});
            poolSize = std::max(poolSize, offset + size);
            block.address =
                static_cast<std::uint32_t>(target_.memoryBaseAddress + poolStart + offset);
            block.storeOffset = static_cast<std::uint32_t>(poolStart + offset - dataStart);
            addBlockRecord(t, MemoryCategory::NotAlwaysLiveVariable, poolStart + offset,
                           block.bytes,
                           !block.var.isNone() ? block.var : exchangeBufferId(out_, block.step));
        }
        l.cursor = poolStart + poolSize;
        l.used += poolSize;
        l.byCategory[static_cast<std::size_t>(MemoryCategory::NotAlwaysLiveVariable)] += poolSize;
        l.poolPeak = poolSize;
        l.poolSum = sum;
    }

    void finishTile(TileId t) {
        const TileLayout& l = layout_;
        // An Error before anything is recorded, not an OutOfMemoryError.
        withinTileAddresses(target_, t, l.cursor);
        // Every figure below is a part of [0, cursor): 32-bit after the check.
        const auto part = [](std::uint64_t bytes) { return static_cast<std::uint32_t>(bytes); };
        auto& rec = out_.record.tileMemory[t.value()];
        rec.tile = t;
        for (std::size_t c = 0; c < l.byCategory.size(); ++c) {
            rec.bytesByCategory[c] = part(l.byCategory[c]);
        }
        rec.totalIncludingGaps = part(l.cursor);
        rec.totalExcludingGaps = part(l.used);
        rec.gapBytes = part(l.cursor - l.used);
        rec.notAlwaysLivePeakBytes = part(l.poolPeak);
        rec.notAlwaysLiveSumBytes = l.poolSum;
        rec.alwaysLiveBytes = part(l.used - l.poolPeak);
        rec.overflowBytes =
            part(l.cursor > target_.bytesPerTile ? l.cursor - target_.bytesPerTile : 0);
        rec.bytesByRegion.resize(regions_.size());
        for (std::size_t r = 0; r < regions_.size(); ++r) {
            const MemoryRegion& region = regions_[r];
            const std::uint64_t end =
                std::min<std::uint64_t>(l.cursor, region.offset + region.bytes);
            rec.bytesByRegion[r] = part(end > region.offset ? end - region.offset : 0);
        }
        if (rec.overflowBytes) {
            out_.outOfMemory = true;
        }
    }

    CompiledGraph& out_;
    const Target& target_;
    const std::vector<MemoryRegion> regions_;
    TileLayout layout_; // the tile being laid out (one at a time)
    ByTile<BlockId> blocksOnTile_;
    ByTile<VertexId> verticesOnTile_;
    std::map<const CodeletInfo*, CodeletId> codeletIds_;
    // Scratch of layTile and layPool, reused from tile to tile.
    std::vector<std::uint64_t> listBytes_; // per vertex on the tile
    std::vector<std::pair<CodeletId, const CodeletInfo*>> codeletsHere_;
    struct Placed {
        std::uint64_t offset, end;
        StepId first, last;
    };
    std::vector<BlockId> poolItems_;
    std::vector<Placed> placed_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> busy_;
    CodeByTile exchangeCode_, hostCode_;
};

} // namespace

std::uint32_t withinTileAddresses(const Target& target, TileId tile, std::uint64_t bytes) {
    if (bytes > record::kLastTileAddress - target.memoryBaseAddress) {
        throw Error("out of memory: tile " + std::to_string(tile.value()) + " needs " +
                    std::to_string(bytes) + " bytes of " + std::to_string(target.bytesPerTile) +
                    ", more than a tile's 32-bit address space can hold (not even "
                    "allowOutOfMemory can lay it out); spread the tensors over more tiles");
    }
    return static_cast<std::uint32_t>(bytes);
}

void layOutMemory(CompiledGraph& out) {
    Layout(out).run();
}

} // namespace tessera::compiler
