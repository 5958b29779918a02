#pragma once
// Memory for the arrays a big graph grows to tens of megabytes (its vertices,
// connected regions, a step's field entries). Those of 256 KiB and more get a
// mapping of their own, 2 MiB aligned and advised for transparent huge pages:
// writing one for the first time faults once per whole 2 MiB extent, not once
// per 4 KiB, and freeing it gives its memory back at once (heap blocks left
// behind by a growing array would stay resident). A fault costs ~0.25 µs on
// bare metal but 12–16 µs in a guest with shadow page tables
// (docs/BENCHMARKS.md, "Fresh memory"), where 4 KiB faults were most of a
// graph build. Smaller arrays, and every array under a sanitizer (which
// checks heap bounds only), come from the ordinary heap.
#include <cstddef>
#include <new>
#include <vector>

namespace tessera {

// Arrays of at least this many bytes take the mapped path.
inline constexpr std::size_t kLargeArrayBytes = std::size_t{256} << 10;

// Both throw std::bad_alloc on failure; freeLargeArray takes the size given.
void* allocateLargeArray(std::size_t bytes);
void freeLargeArray(void* p, std::size_t bytes) noexcept;
// Whether allocateLargeArray(bytes) maps its own memory (else it uses the heap).
bool usesOwnMapping(std::size_t bytes) noexcept;

namespace detail {
// The mapped path itself, whatever the build (tests reach it under ASan):
// 2 MiB aligned, ending at the last small page, advised for huge pages.
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
