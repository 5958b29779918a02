// popops::pad (popops/Pad.hpp): constant padding (a value or a one-element
// tensor) and numpy's EDGE and REFLECT padding, per dimension or for one
// dimension; negative padding truncates. The result is a view: constant
// padding adds constants mapped as the MappingMethod says, EDGE and REFLECT
// padding repeat elements of the tensor.
#ifndef TESSERA_POPOPS_PAD_HPP
#define TESSERA_POPOPS_PAD_HPP

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <vector>

namespace popops {

namespace padding {

// numpy.pad's modes other than constant.
enum class Type {
    EDGE,   // each new element repeats the nearest edge element
    REFLECT // mirrored about the edge element, which is not repeated
};

// Where constant padding elements are mapped.
enum class MappingMethod {
    NONE, // not mapped
    ZERO, // on tile 0
    EDGE  // like the edge element they are next to (the tensor must be mapped)
};

} // namespace padding

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t,
                   const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t,
                   const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t,
                   const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, const poplar::Tensor& val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
poplar::Tensor pad(poplar::Graph& graph, const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, const poplar::Tensor& val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

poplar::Tensor pad(const poplar::Tensor& t, const std::vector<std::ptrdiff_t>& paddingLower,
                   const std::vector<std::ptrdiff_t>& paddingUpper, padding::Type type);
poplar::Tensor pad(const poplar::Tensor& t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, padding::Type type);

} // namespace popops

#endif
