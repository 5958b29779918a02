#pragma once
// What a codelet author writes: a class deriving from Vertex with typed fields
// (Input/Output/InOut of a scalar, a Vector, or a list of Vectors) and a
// compute() method. The engine points the fields at tile memory before it
// calls compute(); a vertex only ever sees its own tile's memory.
#include "engine/core/Half.h"

#include <cstddef>
#include <vector>

namespace tessera {

class Vertex {};
class SupervisorVertex {};
class MultiVertex {};

// A marker used inside a field (Input<Vector<float>>), and, wrapping fields, a
// list of edges (Vector<Input<Vector<float>>>).
template <typename T>
class Vector {
public:
    std::size_t size() const { return items_.size(); }
    T& operator[](std::size_t i) { return items_[i]; }
    const T& operator[](std::size_t i) const { return items_[i]; }
    auto begin() { return items_.begin(); }
    auto end() { return items_.end(); }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    void engineResize(std::size_t n) { items_.resize(n); }

private:
    std::vector<T> items_;
};

namespace detail {

// A bound edge: a pointer into tile memory and an element count.
template <typename T>
class Edge {
public:
    void engineBind(void* data, std::size_t count) {
        data_ = static_cast<T*>(data);
        size_ = count;
    }
    std::size_t size() const { return size_; }
    T* data() const { return data_; }

protected:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

template <typename T>
class ReadEdge : public Edge<T> {
public:
    const T& operator[](std::size_t i) const { return this->data_[i]; }
    const T* begin() const { return this->data_; }
    const T* end() const { return this->data_ + this->size_; }
};

template <typename T>
class WriteEdge : public Edge<T> {
public:
    T& operator[](std::size_t i) const { return this->data_[i]; }
    T* begin() const { return this->data_; }
    T* end() const { return this->data_ + this->size_; }
};

template <typename T>
class ReadScalar : public Edge<T> {
public:
    operator T() const { return *this->data_; }
    const T& operator*() const { return *this->data_; }
};

template <typename T>
class WriteScalar : public Edge<T> {
public:
    operator T() const { return *this->data_; }
    T& operator*() const { return *this->data_; }
    WriteScalar& operator=(const T& v) {
        *this->data_ = v;
        return *this;
    }
};

} // namespace detail

template <typename T>
class Input : public detail::ReadScalar<T> {
public:
    static constexpr int kDirection = 0;
    using Element = T;
    static constexpr bool kIsVector = false;
};
template <typename T>
class Input<Vector<T>> : public detail::ReadEdge<T> {
public:
    static constexpr int kDirection = 0;
    using Element = T;
    static constexpr bool kIsVector = true;
};

template <typename T>
class Output : public detail::WriteScalar<T> {
public:
    static constexpr int kDirection = 1;
    using Element = T;
    static constexpr bool kIsVector = false;
    using detail::WriteScalar<T>::operator=;
};
template <typename T>
class Output<Vector<T>> : public detail::WriteEdge<T> {
public:
    static constexpr int kDirection = 1;
    using Element = T;
    static constexpr bool kIsVector = true;
};

template <typename T>
class InOut : public detail::WriteScalar<T> {
public:
    static constexpr int kDirection = 2;
    using Element = T;
    static constexpr bool kIsVector = false;
    using detail::WriteScalar<T>::operator=;
};
template <typename T>
class InOut<Vector<T>> : public detail::WriteEdge<T> {
public:
    static constexpr int kDirection = 2;
    using Element = T;
    static constexpr bool kIsVector = true;
};

} // namespace tessera
