#pragma once
// Tile-store pages faulted in while the engine compiles. On this project's
// guests the first write to memory the host has taken back costs 1.2-1.9 ms a
// MB (docs/BENCHMARKS.md, "Pages faulted in during compile"), and a capture's
// first writes to its tile stores were a quarter of its time, all of it after
// compile, on both cores. Compile and prepare run on one thread, so a second
// thread faults in zeroed huge pages meanwhile; the stores then start on them
// (TileStores.h). Only page tables change hands: the contents stay zero, and
// nothing the engine computes depends on which pages were faulted in first.
#include "engine/program/Program.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <thread>
#include <vector>

namespace tessera {

class Graph;

namespace runtime {

class WarmPages {
public:
    // Starts faulting in up to `most` bytes (rounded down to whole 2 MiB huge
    // pages) on a thread of its own, by writing a zero to each 4 KiB page:
    // a fault takes only its area's lock, where madvise(MADV_POPULATE_WRITE)
    // holds the process's mapping lock and stalled compile's own mappings.
    explicit WarmPages(std::size_t most);
    ~WarmPages(); // stops the thread; unmaps what was not taken
    WarmPages(const WarmPages&) = delete;
    WarmPages& operator=(const WarmPages&) = delete;

    // For an engine about to compile `programs` on `graph`: warm pages up to
    // the bytes of the variables no Copy writes, or none when they are under
    // kWarmPagesFrom (a thread would cost about what it saves). A Copy's
    // destination is left out: it may be a replica run() never makes
    // (SharedReplicas.h; matMul's operand blocks are most of its variables),
    // and a page faulted in for nothing costs as much as one needed.
    static std::unique_ptr<WarmPages> forGraph(const Graph& graph,
                                               const std::vector<program::Program>& programs);

    // Stops faulting and returns memory as detail::mapHugePages(bytes,
    // Reserve::No) would (zero, 2 MiB aligned, unmapped with
    // detail::unmapHugePages), its first min(faulted, `keep`) bytes, in whole
    // huge pages, already faulted in. Pages faulted in beyond them are given
    // back. Call once.
    std::byte* take(std::size_t bytes, std::size_t keep);

    // Bytes faulted in so far (for tests).
    std::size_t faultedBytes() const { return faulted_.load(std::memory_order_acquire); }

private:
    void fault();
    void stop();

    std::byte* base_ = nullptr;
    std::size_t reserved_ = 0; // whole huge pages
    std::atomic<bool> stopping_{false};
    std::atomic<std::size_t> faulted_{0};
    std::thread thread_;
};

// Graphs whose variables hold fewer bytes start no WarmPages.
inline constexpr std::size_t kWarmPagesFrom = std::size_t{32} << 20;

} // namespace runtime
} // namespace tessera
