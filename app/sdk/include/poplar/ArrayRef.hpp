// poplar::ArrayRef: a non-owning view of a contiguous list, built from a
// braced list, a std::vector, a pointer and a size, or a single value.
#ifndef TESSERA_POPLAR_ARRAYREF_HPP
#define TESSERA_POPLAR_ARRAYREF_HPP

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace poplar {

template <typename T>
class ArrayRef {
public:
    // Holds a copy of the (short) list: a braced list's array would not
    // outlive the call that built it.
    ArrayRef() {}
    ArrayRef(std::initializer_list<T> list)
        : items_(list) {}
    ArrayRef(const std::vector<T>& v)
        : items_(v) {}
    ArrayRef(const T* p, std::size_t n)
        : items_(p, p + n) {}
    template <std::size_t N>
    ArrayRef(const T (&a)[N])
        : items_(a, a + N) {}

    const T* begin() const { return items_.data(); }
    const T* end() const { return items_.data() + items_.size(); }
    const T* data() const { return items_.data(); }
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    const T& operator[](std::size_t i) const { return items_[i]; }
    const T& front() const { return items_.front(); }
    const T& back() const { return items_.back(); }
    const std::vector<T>& vec() const { return items_; }
    operator std::vector<T>() const { return items_; }

private:
    std::vector<T> items_;
};

// poplar::StringRef: any string-like argument.
typedef const std::string& StringRef;

} // namespace poplar

#endif
