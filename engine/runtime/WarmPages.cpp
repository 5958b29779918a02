#include "engine/runtime/WarmPages.h"

#include "engine/core/LargeArray.h"
#include "engine/core/Type.h"
#include "engine/graph/Graph.h"
#include "engine/graph/Tensor.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <system_error>

namespace tessera::runtime {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = 4096;

void markCopyDestinations(const program::Node& node, std::vector<std::uint8_t>& copied) {
    if (node.kind == program::Kind::Copy) {
        for (const VariableRegion& r : node.destination.regions()) {
            copied[r.var.value()] = 1;
        }
    }
    for (const auto& child : node.children) {
        markCopyDestinations(*child, copied);
    }
}

} // namespace

WarmPages::WarmPages(std::size_t most)
    : reserved_(most / kHugePage * kHugePage) {
    if (reserved_ == 0) {
        return;
    }
    base_ = static_cast<std::byte*>(detail::mapHugePages(reserved_, detail::Reserve::No));
    try {
        thread_ = std::thread([this] { fault(); });
    } catch (...) {
        munmap(base_, reserved_);
        throw;
    }
}

WarmPages::~WarmPages() {
    stop();
    if (base_) {
        munmap(base_, reserved_);
    }
}

std::unique_ptr<WarmPages> WarmPages::forGraph(const Graph& graph,
                                               const std::vector<program::Program>& programs) {
    const auto& variables = graph.variables();
    std::vector<std::uint8_t> copied(variables.size(), 0);
    for (const program::Program& p : programs) {
        markCopyDestinations(*p.node(), copied);
    }
    std::size_t bytes = 0;
    for (std::size_t v = 0; v < variables.size(); ++v) {
        if (!copied[v]) {
            bytes += variables[v].numElements * sizeOf(variables[v].type);
        }
    }
    if (bytes < kWarmPagesFrom) {
        return nullptr;
    }
    // Only a head start: without address space or a thread for it, the
    // stores fault their pages in themselves.
    try {
        return std::make_unique<WarmPages>(bytes);
    } catch (const std::bad_alloc&) {
        return nullptr;
    } catch (const std::system_error&) {
        return nullptr;
    }
}

void WarmPages::fault() {
    // A huge page at a time, so stop() waits for one at most (~3 ms cold).
    // Every 4 KiB page is written: where the kernel gives no huge page, the
    // first write faults in only its own. The bytes written are zero, as the
    // pages already are.
    for (std::size_t at = 0; at < reserved_; at += kHugePage) {
        if (stopping_.load(std::memory_order_relaxed)) {
            return;
        }
        for (std::size_t page = at; page < at + kHugePage; page += kPage) {
            *reinterpret_cast<volatile std::byte*>(base_ + page) = std::byte{0};
        }
        faulted_.store(at + kHugePage, std::memory_order_release);
    }
}

void WarmPages::stop() {
    stopping_.store(true, std::memory_order_relaxed);
    if (thread_.joinable()) {
        thread_.join();
    }
}

std::byte* WarmPages::take(std::size_t bytes, std::size_t keep) {
    stop();
    auto* memory = static_cast<std::byte*>(detail::mapHugePages(bytes, detail::Reserve::No));
    if (!base_) {
        return memory;
    }
    // Whole huge pages only: both mappings are 2 MiB aligned, so the kernel
    // moves the faulted pages by their page-table entries, copying nothing.
    const std::size_t keepPages = (std::min(keep, bytes) + kHugePage - 1) / kHugePage * kHugePage;
    const std::size_t moved = std::min(
        {faulted_.load(std::memory_order_acquire), keepPages, bytes / kHugePage * kHugePage});
    std::size_t gone = 0; // bytes of the reservation no longer mapped here
    if (moved > 0 && mremap(base_, moved, moved, MREMAP_MAYMOVE | MREMAP_FIXED, memory) == memory) {
        gone = moved;
    }
    munmap(base_ + gone, reserved_ - gone);
    base_ = nullptr;
    return memory;
}

} // namespace tessera::runtime
