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
#include <algorithm>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace tessera {

// Arrays of at least this many bytes take the mapped path.
inline constexpr std::size_t kLargeArrayBytes = std::size_t{256} << 10;

// Both throw std::bad_alloc on failure; freeLargeArray takes the size given.
void* allocateLargeArray(std::size_t bytes);
void freeLargeArray(void* p, std::size_t bytes) noexcept;
// p's memory (from allocateLargeArray(oldBytes), or null) resized to newBytes,
// its first usedBytes kept: heap to heap by realloc, a mapping grown by moving
// its pages into a larger one (no copy, nothing zeroed again), anything else
// by one copy. Throws std::bad_alloc, p then unchanged.
void* resizeLargeArray(void* p, std::size_t oldBytes, std::size_t newBytes, std::size_t usedBytes);
// Whether allocateLargeArray(bytes) maps its own memory (else it uses the heap).
bool usesOwnMapping(std::size_t bytes) noexcept;

// Advises the whole 2 MiB extents inside [p, p + bytes) for huge pages: for
// a big buffer another container reserved up front, before it is written.
void adviseHugePages(void* p, std::size_t bytes) noexcept;

// Writes to [p, p + bytes) are about to begin: maps their pages now, in one
// call, instead of one fault per 4 KiB page as they are written. In a guest
// with shadow page tables a fault costs 13–17 µs, a page mapped ahead 7–9 µs
// including its first write (docs/BENCHMARKS.md, "Pages mapped ahead").
// Advice only: the contents are unchanged, and a kernel without
// MADV_POPULATE_WRITE (Linux 5.14) leaves it to the faults.
void mapForWriting(void* p, std::size_t bytes) noexcept;
// Whether this kernel maps ahead on request (asked once).
bool kernelMapsAhead() noexcept;

// How far an array being appended to maps ahead of its end: the most it can
// commit beyond what it will write.
inline constexpr std::size_t kMapAheadBytes = std::size_t{32} << 10;

// Maps [from, the kMapAheadBytes boundary at or after `to`), cut at `end`;
// returns where the mapped range ends. The window arithmetic of both
// appenders below.
inline std::uintptr_t mapThroughWindow(std::uintptr_t from, std::uintptr_t to,
                                       std::uintptr_t end) noexcept {
    constexpr std::uintptr_t w = kMapAheadBytes;
    const std::uintptr_t until = std::min((to + w - 1) / w * w, end);
    if (until > from) {
        mapForWriting(reinterpret_cast<void*>(from), until - from);
    }
    return until;
}

// Before bytes are appended at `at` of an array whose capacity ends at `end`
// (one that does not track what it mapped): maps from the next
// kMapAheadBytes boundary after `at` when the append reaches it, so an
// array appended to maps a window at a time and commits at most a window
// beyond its end.
inline void mapAheadOfAppend(const void* at, std::size_t bytes, const void* end) noexcept {
    constexpr std::uintptr_t w = kMapAheadBytes;
    const auto from = (reinterpret_cast<std::uintptr_t>(at) + w - 1) / w * w;
    const auto to = reinterpret_cast<std::uintptr_t>(at) + bytes;
    if (to > from) {
        mapThroughWindow(from, to, reinterpret_cast<std::uintptr_t>(end));
    }
}

// std::vector::resize (or assign of n copies of a value) for an array made
// once at its final size: the new elements' pages are mapped first.
template <class Vector>
void resizeMappedFirst(Vector& v, std::size_t n) {
    if (n > v.size()) {
        v.reserve(n);
        mapForWriting(v.data() + v.size(), (n - v.size()) * sizeof(v[0]));
    }
    v.resize(n);
}

namespace detail {
// The mapped path itself, whatever the build (tests reach it under ASan):
// 2 MiB aligned, ending at the last small page, advised for huge pages.
// Zero-filled. Reserve::No commits no swap space up front (MAP_NORESERVE):
// for memory that may be mostly never touched.
enum class Reserve { Yes, No };
void* mapHugePages(std::size_t bytes, Reserve reserve = Reserve::Yes);
void unmapHugePages(void* p, std::size_t bytes) noexcept;
} // namespace detail

// A std::vector-like array on that memory, for trivially copyable elements:
// growing moves a mapping's pages to a larger one (mremap) instead of copying
// them into freshly zeroed memory, so a graph's arrays growing to gigabytes
// are written once, not once per doubling (docs/BENCHMARKS.md, "Compile
// without fresh-memory churn"). Iterators are pointers.
template <class T>
class LargeVector {
    static_assert(std::is_trivially_copyable_v<T>, "grown by moving its bytes");
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "over-aligned elements");

public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = T&;
    using const_reference = const T&;
    using pointer = T*;
    using const_pointer = const T*;
    using iterator = T*;
    using const_iterator = const T*;

    LargeVector() noexcept = default;
    explicit LargeVector(size_type n) { resize(n); }
    LargeVector(size_type n, const T& value) { resize(n, value); }
    template <std::forward_iterator It>
    LargeVector(It first, It last) {
        insert(end(), first, last);
    }
    LargeVector(std::initializer_list<T> list)
        : LargeVector(list.begin(), list.end()) {}
    LargeVector(const LargeVector& other)
        : LargeVector(other.begin(), other.end()) {}
    LargeVector(LargeVector&& other) noexcept
        : data_(std::exchange(other.data_, nullptr))
        , size_(std::exchange(other.size_, 0))
        , capacity_(std::exchange(other.capacity_, 0))
        , mapped_(std::exchange(other.mapped_, 0)) {}
    LargeVector& operator=(const LargeVector& other) {
        if (this != &other) {
            clear();
            insert(end(), other.begin(), other.end());
        }
        return *this;
    }
    LargeVector& operator=(LargeVector&& other) noexcept {
        LargeVector(std::move(other)).swap(*this);
        return *this;
    }
    ~LargeVector() { freeLargeArray(data_, capacity_ * sizeof(T)); }

    size_type size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    size_type capacity() const noexcept { return capacity_; }
    static constexpr size_type max_size() noexcept { return PTRDIFF_MAX / sizeof(T); }
    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    iterator begin() noexcept { return data_; }
    iterator end() noexcept { return data_ + size_; }
    const_iterator begin() const noexcept { return data_; }
    const_iterator end() const noexcept { return data_ + size_; }
    const_iterator cbegin() const noexcept { return data_; }
    const_iterator cend() const noexcept { return data_ + size_; }
    T& operator[](size_type i) noexcept { return data_[i]; }
    const T& operator[](size_type i) const noexcept { return data_[i]; }
    T& at(size_type i) { return data_[checked(i)]; }
    const T& at(size_type i) const { return data_[checked(i)]; }
    T& front() noexcept { return data_[0]; }
    const T& front() const noexcept { return data_[0]; }
    T& back() noexcept { return data_[size_ - 1]; }
    const T& back() const noexcept { return data_[size_ - 1]; }

    void reserve(size_type n) {
        if (n > capacity_) {
            reallocate(n);
        }
    }
    void shrink_to_fit() {
        if (capacity_ > size_) {
            reallocate(size_);
        }
    }
    void clear() noexcept { size_ = 0; }
    void resize(size_type n) {
        if (n > size_) {
            if (n > capacity_) {
                grow(n); // geometric, as std::vector: resize by a few is amortised
            }
            mapAhead(n - size_);
            std::uninitialized_value_construct(data_ + size_, data_ + n);
        }
        size_ = n;
    }
    void resize(size_type n, const T& value) {
        if (n > size_) {
            const T copy = value; // may be an element of this array
            if (n > capacity_) {
                grow(n);
            }
            mapAhead(n - size_);
            std::uninitialized_fill(data_ + size_, data_ + n, copy);
        }
        size_ = n;
    }
    void assign(size_type n, const T& value) {
        const T copy = value;
        clear();
        resize(n, copy);
    }
    void push_back(const T& value) {
        if (size_ == capacity_) {
            const T copy = value;
            grow(size_ + 1);
            data_[size_++] = copy;
        } else {
            mapAhead(1);
            data_[size_++] = value;
        }
    }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        if (size_ == capacity_) {
            const T made(std::forward<Args>(args)...);
            grow(size_ + 1);
            return *std::construct_at(data_ + size_++, made);
        }
        mapAhead(1);
        return *std::construct_at(data_ + size_++, std::forward<Args>(args)...);
    }
    void pop_back() noexcept { --size_; }
    template <std::forward_iterator It>
    iterator insert(const_iterator at, It first, It last) {
        const auto index = static_cast<size_type>(at - data_);
        const auto n = static_cast<size_type>(std::distance(first, last));
        if (n == 0) {
            return data_ + index;
        }
        if (!outside(first, last)) { // copied first: moving this array's elements moves them
            const LargeVector copy(first, last);
            return insert(data_ + index, copy.begin(), copy.end());
        }
        if (size_ + n > capacity_) {
            grow(size_ + n);
        }
        mapAhead(n);
        std::memmove(static_cast<void*>(data_ + index + n), data_ + index,
                     (size_ - index) * sizeof(T));
        std::uninitialized_copy(first, last, data_ + index);
        size_ += n;
        return data_ + index;
    }
    iterator erase(const_iterator first, const_iterator last) noexcept {
        const auto index = static_cast<size_type>(first - data_);
        const auto n = static_cast<size_type>(last - first);
        std::memmove(static_cast<void*>(data_ + index), data_ + index + n,
                     (size_ - index - n) * sizeof(T));
        size_ -= n;
        return data_ + index;
    }
    iterator erase(const_iterator at) noexcept { return erase(at, at + 1); }
    void swap(LargeVector& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
        std::swap(mapped_, other.mapped_);
    }

    friend bool operator==(const LargeVector& a, const LargeVector& b) {
        return std::equal(a.begin(), a.end(), b.begin(), b.end());
    }

private:
    size_type checked(size_type i) const {
        if (i >= size_) {
            throw std::out_of_range("LargeVector index " + std::to_string(i) + " of " +
                                    std::to_string(size_));
        }
        return i;
    }
    // Whether [first, last) lies outside this array's memory.
    template <class It>
    bool outside(It first, It last) const {
        if constexpr (std::contiguous_iterator<It>) {
            const std::less<const T*> before;
            return !before(std::to_address(first), data_ + capacity_) ||
                   !before(data_, std::to_address(last));
        } else {
            return true;
        }
    }
    void grow(size_type minimum) { reallocate(std::max(minimum, capacity_ * 2)); }
    void reallocate(size_type n) {
        if (n > max_size()) {
            throw std::length_error("LargeVector of " + std::to_string(n) + " elements");
        }
        data_ = static_cast<T*>(
            resizeLargeArray(data_, capacity_ * sizeof(T), n * sizeof(T), size_ * sizeof(T)));
        capacity_ = n;
        mapped_ = size_; // moved, copied or grown in place: present
    }
    // Before n elements are written at the end: memory beyond what was
    // ever written or mapped is mapped up to the next kMapAheadBytes
    // boundary after the last byte written (within the capacity), so an
    // array appended to maps a window at a time, commits at most a window
    // beyond its end, and an array refilled after clear() maps nothing
    // again. Arrays smaller than a window are left to the faults.
    void mapAhead(size_type n) noexcept {
        const size_type end = size_ + n;
        if (end <= mapped_) {
            return;
        }
        if (capacity_ * sizeof(T) < kMapAheadBytes) {
            mapped_ = end;
            return;
        }
        // mapped_ trails size_ by one after a push_back that grew the array.
        const auto base = reinterpret_cast<std::uintptr_t>(data_);
        const std::uintptr_t until =
            mapThroughWindow(base + std::max(mapped_, size_) * sizeof(T), base + end * sizeof(T),
                             base + capacity_ * sizeof(T));
        mapped_ = (until - base) / sizeof(T);
    }

    T* data_ = nullptr;
    size_type size_ = 0;
    size_type capacity_ = 0;
    size_type mapped_ = 0; // elements whose pages are present (written or mapped ahead)
};

} // namespace tessera
