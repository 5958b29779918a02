#include "engine/core/LargeArray.h"

#include "engine/core/Sanitizers.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace tessera {

namespace {

// Under the sanitizers every array comes from the heap, whose bounds they check.
constexpr bool kHeapOnly = kAddressSanitizer || kThreadSanitizer;
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kPage = 4096;

std::size_t roundUp(std::size_t bytes, std::size_t unit) {
    return (bytes + unit - 1) / unit * unit;
}

// The kernel backs only whole aligned 2 MiB extents with huge pages. An
// array's last partial extent ends at its last small page, so it commits no
// more than it touches, unless the whole extent adds at most an eighth to the
// array: then the mapping takes it, one fault instead of hundreds of small
// ones (12-16 us each in a guest: they were a third of the exchange planning
// of 10^6 vertices, whose per-step arrays are a few MiB).
std::size_t mappedSize(std::size_t bytes) {
    const std::size_t whole = roundUp(bytes, kHugePage);
    if (bytes > kHugePage && (whole - bytes) * 8 <= bytes) {
        return whole;
    }
    return roundUp(bytes, kPage);
}

} // namespace

bool usesOwnMapping(std::size_t bytes) noexcept {
    return !kHeapOnly && bytes >= kLargeArrayBytes;
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
    // A few pages are left to realloc, which may grow them in place; more
    // are copied into pages mapped first (realloc's copy would fault them in
    // one by one).
    if (!wasMapped && !mapped && std::min(usedBytes, newBytes) < kMapAheadBytes) {
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
    mapForWriting(q, std::min(usedBytes, newBytes));
    std::memcpy(q, p, std::min(usedBytes, newBytes));
    freeLargeArray(p, oldBytes);
    return q;
}

void adviseHugePages(void* p, std::size_t bytes) noexcept {
    if (kHeapOnly) {
        return;
    }
    const auto start = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t first = roundUp(start, kHugePage);
    const std::uintptr_t last = (start + bytes) / kHugePage * kHugePage;
    if (first < last) {
        madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
}

// Asked of a page of our own: an error on a caller's range (one not
// writable, say) says nothing of the kernel.
bool kernelMapsAhead() noexcept {
#ifdef MADV_POPULATE_WRITE
    static const bool known = [] {
        void* page =
            mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page == MAP_FAILED) {
            return false;
        }
        const bool ok = madvise(page, kPage, MADV_POPULATE_WRITE) == 0;
        munmap(page, kPage);
        return ok;
    }();
    return known;
#else
    return false;
#endif
}

void mapForWriting(void* p, std::size_t bytes) noexcept {
#ifdef MADV_POPULATE_WRITE
    if (bytes < 2 * kPage || !kernelMapsAhead()) {
        return;
    }
    // Whole pages: those at the ends may hold other data, which mapping a
    // page leaves as it is.
    const auto start = reinterpret_cast<std::uintptr_t>(p) / kPage * kPage;
    const std::uintptr_t end = roundUp(reinterpret_cast<std::uintptr_t>(p) + bytes, kPage);
    madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)bytes;
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
    const std::uintptr_t aligned = roundUp(start, kHugePage);
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
