#pragma once
// Replicas a Copy step makes of the same bytes on many tiles, made once by
// Engine::run. A matMul's copies send each operand block to every tile of
// its row or column of the plan: the same transfers, from the same sources,
// into one block per tile. When a replica is a block of a not-always-live
// variable whose every use after the copy is an Input field of a vertex in
// the straight-line steps that follow (nothing else reads or writes it, and
// the variable dies before any jump or loop), its vertices can read the
// first such replica of the same bytes instead, which holds them for as
// long (same variable, same live range), and `run` need not copy the rest.
// Only dead bytes differ from copying all: a not-always-live variable's
// bytes outside its live range may hold anything (memory is reused). The
// debugger's `advance` copies every replica, so a paused view is whole. The
// compiled plan keeps every transfer: records and cycles are the IPU's.
#include "engine/compiler/Compiled.h"
#include "engine/graph/Graph.h"
#include "engine/runtime/InPlaceReads.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace tessera::runtime {

struct SharedReplicas {
    struct Step {
        std::vector<std::uint8_t> copy; // a Copy step's transfers: 1 to make it in run()
        std::uint64_t bytesNotCopied = 0;
        LargeVector<InPlaceReads::Redirect> redirects; // entries read from a shared replica
        std::vector<compiler::BlockId> remoteReads;    // shared replicas on another tile read
    };
    std::vector<std::pair<compiler::StepId, Step>> steps; // ascending; only steps concerned
    std::vector<compiler::BlockId> notMade; // ascending: replicas run() leaves unwritten
    const Step* find(compiler::StepId step) const;
};

SharedReplicas planSharedReplicas(const Graph& graph, const compiler::CompiledGraph& compiled);

enum class ShareReplicas { Auto, Never };
// For tests and benchmarks (the results are the same bytes either way);
// applies to engines prepared afterwards.
void setShareReplicas(ShareReplicas mode);
ShareReplicas shareReplicas();

} // namespace tessera::runtime
