#include "engine/core/LargeArray.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TESSERA_HEAP_ONLY 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TESSERA_HEAP_ONLY 1
#endif
#endif

namespace tessera {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = 4096;

// The mapping ends at the array's last small page: the kernel backs only
// whole aligned 2 MiB extents with huge pages, so the array's last partial
// extent stays on small pages and commits no more than it touches.
std::size_t mappedSize(std::size_t bytes) {
    return (bytes + kPage - 1) / kPage * kPage;
}

} // namespace

bool usesOwnMapping(std::size_t bytes) noexcept {
#ifdef TESSERA_HEAP_ONLY
    (void)bytes;
    return false;
#else
    return bytes >= kLargeArrayBytes;
#endif
}

void* allocateLargeArray(std::size_t bytes) {
    if (usesOwnMapping(bytes)) {
        return detail::mapHugePages(bytes);
    }
    void* p = std::malloc(std::max<std::size_t>(bytes, 1));
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return p;
}

void freeLargeArray(void* p, std::size_t bytes) noexcept {
    if (p == nullptr) {
        return;
    }
    if (usesOwnMapping(bytes)) {
        detail::unmapHugePages(p, bytes);
    } else {
        std::free(p);
    }
}

void* resizeLargeArray(void* p, std::size_t oldBytes, std::size_t newBytes, std::size_t usedBytes) {
    if (p == nullptr) {
        return allocateLargeArray(newBytes);
    }
    const bool wasMapped = usesOwnMapping(oldBytes);
    const bool mapped = usesOwnMapping(newBytes);
    if (!wasMapped && !mapped) {
        void* q = std::realloc(p, std::max<std::size_t>(newBytes, 1));
        if (q == nullptr) {
            throw std::bad_alloc();
        }
        return q;
    }
    void* q = allocateLargeArray(newBytes);
    // Both 2 MiB aligned: the kernel moves whole huge pages by their page
    // table entries. The old mapping is gone afterwards either way.
    if (wasMapped && mapped && newBytes > oldBytes &&
        mremap(p, mappedSize(oldBytes), mappedSize(oldBytes), MREMAP_MAYMOVE | MREMAP_FIXED, q) ==
            q) {
        return q;
    }
    std::memcpy(q, p, std::min(usedBytes, newBytes));
    freeLargeArray(p, oldBytes);
    return q;
}

void adviseHugePages(void* p, std::size_t bytes) noexcept {
#ifdef TESSERA_HEAP_ONLY
    (void)p;
    (void)bytes;
#else
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t first = (start + kHugePage - 1) / kHugePage * kHugePage;
    const std::uintptr_t last = (start + bytes) / kHugePage * kHugePage;
    if (first < last) {
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
#endif
}

void* detail::mapHugePages(std::size_t bytes, Reserve reserve) {
    if (bytes > SIZE_MAX - 2 * kHugePage) {
        throw std::bad_alloc();
    }
    const std::size_t size = mappedSize(bytes);
    // Over-map by one huge page, then give back the unaligned ends.
    const int noReserve = reserve == Reserve::No ? MAP_NORESERVE : 0;
    void* raw = mmap(nullptr, size + kHugePage, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | noReserve, -1, 0);
    if (raw == MAP_FAILED) {
        throw std::bad_alloc();
    }
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
    if (aligned > start) {
        munmap(raw, aligned - start);
    }
    if (const std::size_t tail = start + kHugePage - aligned; tail > 0) {
        munmap(reinterpret_cast<void*>(aligned + size), tail);
    }
    void* p = reinterpret_cast<void*>(aligned);
    // Advice only: where THP is off the array still works, page by page.
    madvise(p, size, MADV_HUGEPAGE);
    return p;
}

void detail::unmapHugePages(void* p, std::size_t bytes) noexcept {
    munmap(p, mappedSize(bytes));
}

} // namespace tessera
