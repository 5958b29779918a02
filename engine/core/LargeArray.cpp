#include "engine/core/LargeArray.h"

#include <sys/mman.h>

#include <cstdint>

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
    return usesOwnMapping(bytes) ? detail::mapHugePages(bytes) : ::operator new(bytes);
}

void freeLargeArray(void* p, std::size_t bytes) noexcept {
    if (p == nullptr) {
        return;
    }
    if (usesOwnMapping(bytes)) {
        detail::unmapHugePages(p, bytes);
    } else {
        ::operator delete(p);
    }
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
