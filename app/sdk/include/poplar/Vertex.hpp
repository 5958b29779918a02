// The codelet API: what a codelet source includes. Classes derive from
// poplar::Vertex (or SupervisorVertex / MultiVertex) and declare fields
// Input<T>, Output<T>, InOut<T> of scalars, of Vector<T>, and lists of
// them (Vector<Input<Vector<T>>>, Input<VectorList<T>>); Tessera's codelet
// compiler finds the fields by reading the class definitions and points them
// at tile memory before it calls compute(). C++11.
#ifndef TESSERA_POPLAR_VERTEX_HPP
#define TESSERA_POPLAR_VERTEX_HPP

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#ifndef TESSERA_NO_GLOBAL_HALF
// The device's 16-bit float: stored as IEEE binary16, arithmetic through float.
class half {
public:
    half()
        : bits_(0) {}
    half(float f)
        : bits_(fromFloat(f)) {}
    half(double d)
        : bits_(fromFloat(static_cast<float>(d))) {}
    half(int i)
        : bits_(fromFloat(static_cast<float>(i))) {}
    operator float() const { return toFloat(bits_); }
    half& operator+=(float v) { return *this = half(float(*this) + v); }
    half& operator-=(float v) { return *this = half(float(*this) - v); }
    half& operator*=(float v) { return *this = half(float(*this) * v); }
    half& operator/=(float v) { return *this = half(float(*this) / v); }

private:
    static std::uint16_t fromFloat(float f) {
        std::uint32_t x;
        std::memcpy(&x, &f, 4);
        const std::uint32_t sign = (x >> 16) & 0x8000u;
        const std::uint32_t absx = x & 0x7fffffffu;
        if (absx >= 0x7f800000u) { // inf or nan
            return static_cast<std::uint16_t>(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0));
        }
        if (absx >= 0x477ff000u) { // overflows to inf after rounding
            return static_cast<std::uint16_t>(sign | 0x7c00u);
        }
        if (absx < 0x38800000u) { // subnormal or zero
            if (absx < 0x33000000u) {
                return static_cast<std::uint16_t>(sign);
            }
            const std::uint32_t e = absx >> 23;
            const std::uint32_t m = (absx & 0x7fffffu) | 0x800000u;
            const std::uint32_t shift = 126 - e + 13 + 1;
            std::uint32_t r = m >> shift;
            const std::uint32_t rem = m & ((1u << shift) - 1);
            const std::uint32_t halfway = 1u << (shift - 1);
            if (rem > halfway || (rem == halfway && (r & 1u))) {
                ++r;
            }
            return static_cast<std::uint16_t>(sign | r);
        }
        std::uint32_t r = ((absx - 0x38000000u) >> 13);
        const std::uint32_t rem = absx & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) {
            ++r;
        }
        return static_cast<std::uint16_t>(sign | r);
    }
    static float toFloat(std::uint16_t h) {
        const std::uint32_t sign = (h & 0x8000u) << 16;
        std::uint32_t e = (h >> 10) & 0x1fu;
        std::uint32_t m = h & 0x3ffu;
        std::uint32_t x;
        if (e == 0x1f) {
            x = sign | 0x7f800000u | (m << 13);
        } else if (e == 0) {
            if (m == 0) {
                x = sign;
            } else {
                e = 113;
                while ((m & 0x400u) == 0) {
                    m <<= 1;
                    --e;
                }
                x = sign | (e << 23) | ((m & 0x3ffu) << 13);
            }
        } else {
            x = sign | ((e + 112) << 23) | (m << 13);
        }
        float f;
        std::memcpy(&f, &x, 4);
        return f;
    }
    std::uint16_t bits_;
};
#endif

namespace poplar {

class Vertex {
public:
    typedef unsigned WorkerId;
};
class SupervisorVertex {
public:
    typedef unsigned WorkerId;
};
// compute(unsigned workerId) runs once per worker context.
class MultiVertex {
public:
    typedef unsigned WorkerId;
    static unsigned numWorkers() { return 6; }
};

enum class VectorLayout {
    ONE_PTR,
    SCALED_PTR32,
    SCALED_PTR64,
    SCALED_PTR128,
    DELTAN,
    DELTANELEMENTS,
    SPAN,
    COMPACT_PTR,
    COMPACT_DELTAN
};
enum class VectorListLayout { DELTAN, DELTANELEMENTS, COMPACT_DELTAN, ONE_PTR };

namespace tessera_detail {

// One binding handed over by the engine: tile memory and an element count.
struct Binding {
    void* data;
    std::size_t count;
};

template <typename T>
class ConstSpan {
public:
    ConstSpan()
        : p_(0)
        , n_(0) {}
    ConstSpan(const T* p, std::size_t n)
        : p_(p)
        , n_(n) {}
    std::size_t size() const { return n_; }
    const T& operator[](std::size_t i) const { return p_[i]; }
    const T* begin() const { return p_; }
    const T* end() const { return p_ + n_; }
    const T* data() const { return p_; }
    void tesseraBind(const Binding* b, std::size_t) {
        p_ = static_cast<const T*>(b[0].data);
        n_ = b[0].count;
    }

private:
    const T* p_;
    std::size_t n_;
};

template <typename T>
class Span {
public:
    Span()
        : p_(0)
        , n_(0) {}
    Span(T* p, std::size_t n)
        : p_(p)
        , n_(n) {}
    std::size_t size() const { return n_; }
    T& operator[](std::size_t i) const { return p_[i]; }
    T* begin() const { return p_; }
    T* end() const { return p_ + n_; }
    T* data() const { return p_; }
    void tesseraBind(const Binding* b, std::size_t) {
        p_ = static_cast<T*>(b[0].data);
        n_ = b[0].count;
    }

private:
    T* p_;
    std::size_t n_;
};

template <typename T>
class ConstScalar {
public:
    ConstScalar()
        : p_(0) {}
    operator T() const { return *p_; }
    const T& operator*() const { return *p_; }
    const T* operator->() const { return p_; }
    void tesseraBind(const Binding* b, std::size_t) { p_ = static_cast<const T*>(b[0].data); }

private:
    const T* p_;
};

template <typename T>
class Scalar {
public:
    Scalar()
        : p_(0) {}
    operator T() const { return *p_; }
    T& operator*() const { return *p_; }
    T* operator->() const { return p_; }
    Scalar& operator=(const T& v) {
        *p_ = v;
        return *this;
    }
    Scalar& operator+=(const T& v) {
        *p_ = *p_ + v;
        return *this;
    }
    Scalar& operator-=(const T& v) {
        *p_ = *p_ - v;
        return *this;
    }
    Scalar& operator*=(const T& v) {
        *p_ = *p_ * v;
        return *this;
    }
    Scalar& operator/=(const T& v) {
        *p_ = *p_ / v;
        return *this;
    }
    void tesseraBind(const Binding* b, std::size_t) { p_ = static_cast<T*>(b[0].data); }

private:
    T* p_;
};

// A list of spans (VectorList).
template <typename SpanT>
class SpanList {
public:
    std::size_t size() const { return items_.size(); }
    const SpanT& operator[](std::size_t i) const { return items_[i]; }
    typename std::vector<SpanT>::const_iterator begin() const { return items_.begin(); }
    typename std::vector<SpanT>::const_iterator end() const { return items_.end(); }
    void tesseraBind(const Binding* b, std::size_t n) {
        items_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            items_[i].tesseraBind(b + i, 1);
        }
    }

private:
    std::vector<SpanT> items_;
};

} // namespace tessera_detail

// Vector<T>: inside a field (Input<Vector<float>>) it marks a vector edge;
// around fields (Vector<Input<Vector<float>>>) it is a list of edges.
template <typename T, VectorLayout L = VectorLayout::SPAN, unsigned Align = alignof(T),
          bool Interleaved = false>
class Vector {
public:
    std::size_t size() const { return items_.size(); }
    T& operator[](std::size_t i) { return items_[i]; }
    const T& operator[](std::size_t i) const { return items_[i]; }
    typename std::vector<T>::iterator begin() { return items_.begin(); }
    typename std::vector<T>::iterator end() { return items_.end(); }
    typename std::vector<T>::const_iterator begin() const { return items_.begin(); }
    typename std::vector<T>::const_iterator end() const { return items_.end(); }
    void tesseraBind(const tessera_detail::Binding* b, std::size_t n) {
        items_.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            items_[i].tesseraBind(b + i, 1);
        }
    }

private:
    std::vector<T> items_;
};

// VectorList<T>: a list of vectors in one field (Input<VectorList<float>>).
template <typename T, VectorListLayout L = VectorListLayout::DELTANELEMENTS>
class VectorList {};

template <typename T>
class Input : public tessera_detail::ConstScalar<T> {};
template <typename T, VectorLayout L, unsigned A, bool I>
class Input<Vector<T, L, A, I>> : public tessera_detail::ConstSpan<T> {};
template <typename T, VectorListLayout L>
class Input<VectorList<T, L>> : public tessera_detail::SpanList<tessera_detail::ConstSpan<T>> {};

template <typename T>
class Output : public tessera_detail::Scalar<T> {
public:
    using tessera_detail::Scalar<T>::operator=;
};
template <typename T, VectorLayout L, unsigned A, bool I>
class Output<Vector<T, L, A, I>> : public tessera_detail::Span<T> {};
template <typename T, VectorListLayout L>
class Output<VectorList<T, L>> : public tessera_detail::SpanList<tessera_detail::Span<T>> {};

template <typename T>
class InOut : public tessera_detail::Scalar<T> {
public:
    using tessera_detail::Scalar<T>::operator=;
};
template <typename T, VectorLayout L, unsigned A, bool I>
class InOut<Vector<T, L, A, I>> : public tessera_detail::Span<T> {};
template <typename T, VectorListLayout L>
class InOut<VectorList<T, L>> : public tessera_detail::SpanList<tessera_detail::Span<T>> {};

} // namespace poplar

#endif
