#pragma once
// Memory for the arrays a big graph grows to tens of megabytes (its vertices,
// connected regions, a step's field entries). Those of 2 MiB and more get a
// mapping of their own, 2 MiB aligned, with transparent huge pages advised:
// writing one for the first time then faults once per 2 MiB, not once per
// 4 KiB. A fault costs ~0.25 µs on bare metal but 12–16 µs in a guest with
// shadow page tables (docs/BENCHMARKS.md, "Fresh memory"), where 4 KiB faults
// were most of a graph build. Smaller arrays, and every array under a
// sanitizer (which checks heap bounds only), come from the ordinary heap.
#include <cstddef>
#include <new>
#include <vector>

namespace tessera {

// Arrays of at least this many bytes take the huge-page path.
inline constexpr std::size_t kLargeArrayBytes = std::size_t{2} << 20;

// Both throw std::bad_alloc on failure; freeLargeArray takes the size given.
void* allocateLargeArray(std::size_t bytes);
void freeLargeArray(void* p, std::size_t bytes) noexcept;
// Whether allocateLargeArray(bytes) maps huge pages (else it uses the heap).
bool usesHugePages(std::size_t bytes) noexcept;

namespace detail {
// The huge-page path itself, whatever the build (tests reach it under ASan).
// Zero-filled. Reserve::No commits no swap space up front (MAP_NORESERVE):
// for memory that may be mostly never touched.
enum class Reserve { Yes, No };
void* mapHugePages(std::size_t bytes, Reserve reserve = Reserve::Yes);
void unmapHugePages(void* p, std::size_t bytes) noexcept;
} // namespace detail

template <class T>
struct LargeArrayAllocator {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned elements");
    using value_type = T;

    LargeArrayAllocator() noexcept = default;
    template <class U>
    LargeArrayAllocator(const LargeArrayAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        if (n > static_cast<std::size_t>(-1) / sizeof(T)) {
            throw std::bad_array_new_length();
        }
        return static_cast<T*>(allocateLargeArray(n * sizeof(T)));
    }
    void deallocate(T* p, std::size_t n) noexcept { freeLargeArray(p, n * sizeof(T)); }

    friend bool operator==(const LargeArrayAllocator&, const LargeArrayAllocator&) { return true; }
};

template <class T>
using LargeVector = std::vector<T, LargeArrayAllocator<T>>;

} // namespace tessera
