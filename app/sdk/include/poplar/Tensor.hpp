// poplar::Tensor: a view of graph variables (shape + element ranges). Views
// never copy data. Backed by Tessera's engine through a pointer.
#ifndef TESSERA_POPLAR_TENSOR_HPP
#define TESSERA_POPLAR_TENSOR_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace poplar {

namespace detail {
struct Access;
} // namespace detail

class Tensor {
public:
    Tensor();
    ~Tensor();
    Tensor(const Tensor& other);
    Tensor& operator=(const Tensor& other);

    bool valid() const;
    Type elementType() const;
    std::vector<std::size_t> shape() const;
    unsigned rank() const;
    std::size_t dim(unsigned i) const;
    std::size_t numElements() const;

    Tensor operator[](std::size_t i) const;
    Tensor index(ArrayRef<std::size_t> indices) const;
    Tensor slice(std::size_t begin, std::size_t end, unsigned dimension = 0) const;
    Tensor slice(const Interval& region, unsigned dimension = 0) const;
    Tensor slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const;
    Tensor reshape(ArrayRef<std::size_t> shape) const;
    Tensor flatten() const;
    Tensor flatten(unsigned dimBegin, unsigned dimEnd) const;
    Tensor transpose() const;
    Tensor dimShuffle(ArrayRef<unsigned> permutation) const;
    Tensor dimRoll(unsigned dimIdx, unsigned newIdx = 0) const;
    Tensor reverse(unsigned dimension) const;
    Tensor broadcast(unsigned n, unsigned dimension) const;
    Tensor expand(ArrayRef<std::size_t> indices) const;
    Tensor squeeze(ArrayRef<std::size_t> indices) const;
    Tensor reshapePartial(unsigned beginIndex, unsigned endIndex,
                          ArrayRef<std::size_t> newDims) const;

    // Same elements in the same shape.
    bool operator==(const Tensor& other) const;
    bool operator!=(const Tensor& other) const { return !(*this == other); }
    std::string shapeToString() const;
    std::string getDebugStr() const;

private:
    friend struct detail::Access;
    // The engine's tensor, held in place: programs make views by the million,
    // and a view then costs one allocation (the engine's), not two. Core.cpp
    // checks that it fits.
    alignas(8) unsigned char engine_[24];
    bool engaged_ = false; // false: default-constructed, no engine tensor
};

Tensor concat(const Tensor& first, const Tensor& second, unsigned dimension = 0);
Tensor concat(const std::vector<Tensor>& tensors, unsigned dimension = 0);
Tensor concat(std::initializer_list<Tensor> tensors, unsigned dimension = 0);

std::ostream& operator<<(std::ostream& os, const Tensor& t);

} // namespace poplar

#endif
