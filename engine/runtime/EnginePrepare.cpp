// Engine::prepare: the tiles' memory with the variables' initial values,
// every step's copies as lists per tile (leaving out what vertices read where
// it lies and replicas made once), and every vertex instance bound to its
// fields' memory.
#include "engine/core/Error.h"
#include "engine/core/ExceptionText.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/InPlaceReads.h"
#include "engine/runtime/JoinedVertices.h"
#include "engine/runtime/PreparedEngine.h"
#include "engine/runtime/SharedReplicas.h"
#include "engine/runtime/StepGroups.h"
#include "engine/runtime/TileCopies.h"
#include "engine/runtime/WarmPages.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <vector>

namespace tessera {

using compiler::Location;
using compiler::StepId;
using compiler::StepPlan;
using runtime::CopyOp;
using runtime::Instance;
using runtime::PreparedStep;
using runtime::TileCopyLists;

namespace {

// A codelet's constructor and compute() are user code: whatever they throw
// (on any thread of the pool) becomes a CodeletError naming the vertex.
void* createInstance(const Graph& graph, VertexId vertex) {
    const CodeletInfo& codelet = *graph.vertex(vertex).codelet;
    try {
        return codelet.create();
    } catch (...) {
        throw CodeletError(graph.vertexName(vertex) + ": the constructor of codelet '" +
                           codelet.name + "' threw " + currentExceptionText());
    }
}

} // namespace

namespace runtime {

// A step's copies as lists per destination tile; `copy`: per transfer,
// whether it is made (none: all are). `byTile`: scratch, one list a tile.
TileCopyLists copyLists(const compiler::CompiledGraph& compiled, const TileStores& memory,
                        const LargeVector<compiler::Transfer>& transfers,
                        const std::vector<std::uint8_t>* copy,
                        std::vector<std::vector<CopyOp>>& byTile) {
    const auto at = [&](const Location& l) { return memory.block(l.block) + l.offset; };
    TileCopyLists out;
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        const compiler::Transfer& t = transfers[i];
        if (copy && !(*copy)[i]) {
            continue;
        }
        byTile[compiled.blocks[t.destination.block].tile.value()].push_back(
            {at(t.destination), at(t.source), t.bytes});
        bytes += t.bytes;
    }
    for (std::size_t tile = 0; tile < byTile.size(); ++tile) {
        if (!byTile[tile].empty()) {
            out.byTile.push_back(std::move(byTile[tile]));
            out.tiles.push_back(static_cast<std::uint32_t>(tile));
            byTile[tile].clear();
        }
    }
    out.streamed = runtime::worthStreaming(bytes);
    return out;
}

} // namespace runtime

void Engine::prepare() {
    runtime::SharedReplicas replicas = runtime::planSharedReplicas(graph_, *compiled_);
    std::vector<runtime::InPlaceReads> inPlace;
    inPlace.reserve(compiled_->steps.size());
    for (const StepPlan& plan : compiled_->steps) {
        inPlace.push_back(runtime::planInPlaceReads(graph_, *compiled_, plan));
    }
    // Zeroed, so runs are reproducible, but lazily: see TileStores; what run()
    // never touches is set apart (HostLayout.h). The pages faulted in while
    // compiling (WarmPages.h) go to the bytes run() touches.
    prepared_ = std::make_unique<Prepared>(
        runtime::layOutHostMemory(*compiled_,
                                  runtime::blocksPlacedApart(*compiled_, replicas, inPlace)),
        warmPages_.get());
    warmPages_.reset();
    prepared_->replicas = std::move(replicas);
    // Initial values of constants and initialised variables.
    for (std::size_t v = 0; v < graph_.variables().size(); ++v) {
        const VariableData& data = graph_.variables()[v];
        if (data.initialValue.empty()) {
            continue;
        }
        const std::size_t size = sizeOf(data.type);
        for (const compiler::PlacedInterval& p : compiled_->placements[v]) {
            std::memcpy(pointer({p.block, compiler::inBlock(p.localStart * size)}),
                        data.initialValue.data() + p.begin * size, (p.end - p.begin) * size);
        }
    }
    prepared_->steps.resize(compiled_->steps.size());
    std::vector<std::vector<CopyOp>> byTile(compiled_->storeBytes.size());
    auto group = [&](const LargeVector<compiler::Transfer>& transfers,
                     const std::vector<std::uint8_t>* copy) {
        return copyLists(*compiled_, prepared_->memory, transfers, copy, byTile);
    };
    LargeVector<runtime::InPlaceReads::Redirect> redirects;
    for (std::size_t s = 0; s < compiled_->steps.size(); ++s) {
        const StepPlan& plan = compiled_->steps[s];
        PreparedStep& p = prepared_->steps[s];
        const runtime::InPlaceReads& reads = inPlace[s];
        const runtime::SharedReplicas::Step* shared =
            prepared_->replicas.find(record::idAt<StepId>(s));
        if (shared && !shared->copy.empty()) {
            p.gather = group(plan.gather, &shared->copy);
            p.replicaBytesNotCopied = shared->bytesNotCopied;
        } else {
            p.gather = group(plan.gather, reads.copy.empty() ? nullptr : &reads.copy);
        }
        // Entries read elsewhere, in entry order: inputs in exchange buffers
        // read at their source, and replicas read from the one made.
        const LargeVector<runtime::InPlaceReads::Redirect>* readElsewhere = &reads.redirects;
        if (shared && !shared->redirects.empty()) {
            redirects.clear();
            std::merge(reads.redirects.begin(), reads.redirects.end(), shared->redirects.begin(),
                       shared->redirects.end(), std::back_inserter(redirects),
                       [](const auto& a, const auto& b) { return a.entry < b.entry; });
            readElsewhere = &redirects;
        }
        p.scatter = group(plan.scatter, nullptr);
        p.bytesReadInPlace = reads.bytesNotCopied;
        auto redirect = readElsewhere->cbegin();
        TileId current = TileId::none();
        for (std::size_t vi = 0; vi < plan.vertices.size(); ++vi) {
            const compiler::VertexPlan& vp = plan.vertices[vi];
            const VertexData& v = graph_.vertex(vp.vertex);
            Instance inst{createInstance(graph_, vp.vertex), v.codelet, vp.vertex};
            prepared_->owned.push_back(inst);
            const auto entries = plan.entriesOf(vi);
            std::size_t next = 0; // entries are in field order
            for (std::size_t f = 0; f < v.codelet->fields.size(); ++f) {
                std::vector<FieldBinding> bindings;
                for (std::size_t n = graph_.entryCount(vp.vertex, f); n > 0; --n, ++next) {
                    Location at = entries[next].location();
                    if (redirect != readElsewhere->cend() &&
                        redirect->entry == vp.firstEntry + next) {
                        at = (redirect++)->source;
                    }
                    bindings.push_back({pointer(at), entries[next].count});
                }
                v.codelet->fields[f].bind(inst.object, bindings);
            }
            const auto states = graph_.stateValues(vp.vertex);
            for (std::size_t i = 0; i < states.size(); ++i) {
                if (states[i]) {
                    v.codelet->states[i].set(inst.object, *states[i]);
                }
            }
            if (vp.tile != current) {
                p.compute.emplace_back();
                p.computeTiles.push_back(vp.tile.value());
                current = vp.tile;
            }
            p.compute.back().push_back(inst);
        }
        for (std::vector<Instance>& list : p.compute) {
            p.verticesJoined += runtime::joinConsecutive(list);
        }
    }
    predicateFlags_.assign(compiled_->steps.size(), false);
    predicateValues_.assign(compiled_->steps.size(), 0);
    if (runtime::grouping() == runtime::Grouping::Auto) {
        std::vector<std::vector<std::uint8_t>> copied(inPlace.size());
        for (std::size_t s = 0; s < inPlace.size(); ++s) {
            copied[s] = std::move(inPlace[s].copy);
        }
        prepared_->groups = std::make_unique<runtime::StepGroups>(
            graph_, *compiled_, &prepared_->replicas, std::move(copied),
            &prepared_->memory.layout().blockOffset);
        for (const auto& code : compiled_->programs) {
            prepared_->groupWork.emplace_back(code.size());
        }
    }
}

} // namespace tessera
