#pragma once
// Slices at offsets known only at run time, as popops' DynamicSlice.hpp does
// them. A vertex per tile and run of "columns" (the elements sharing every
// coordinate but the sliced one) holds all candidate slices of its columns and
// copies the chosen ones, so a tensor mapped by createSliceable() (columns
// split over tiles, the sliced dimension whole on each) slices with no
// exchange but that of the offsets.
//
// Offsets as PopLibs treats them: dynamicSlice/dynamicUpdate start at the
// offset (0 when it is out of range) and wrap around the dimension;
// multiSlice writes zeros for an out-of-range offset (PopLibs leaves that
// slice unwritten); multiUpdate, multiUpdateAdd and multiUpdateMax ignore
// out-of-range offsets.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::ops {

// A tensor of `shape` with dimension `dim` whole on each tile and the rest
// spread evenly (at least `minGrain` elements of a slice per tile).
Tensor createSliceable(Graph& graph, Type type, const std::vector<std::size_t>& shape,
                       std::size_t dim, std::size_t minGrain, const std::string& name);

// t sliced along each of `dims` by `sizes` at offsets[i] (an unsigned tensor
// of dims.size() elements), one dimension after another.
Tensor dynamicSlice(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& offsets,
                    const std::vector<std::size_t>& dims, const std::vector<std::size_t>& sizes,
                    const std::string& name);
void dynamicSliceWithOutput(Graph& graph, program::Sequence& seq, const Tensor& out,
                            const Tensor& t, const Tensor& offsets,
                            const std::vector<std::size_t>& dims,
                            const std::vector<std::size_t>& sizes, const std::string& name);
// t's slice at the offsets = s.
void dynamicUpdate(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& s,
                   const Tensor& offsets, const std::vector<std::size_t>& dims,
                   const std::vector<std::size_t>& sizes, const std::string& name);

// One slice of `size` along `dim` per row of offsets ([n] or [n, 1]): a
// tensor [n, shape of t with dim of `size`].
Tensor multiSlice(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& offsets,
                  std::size_t dim, std::size_t size, const std::string& name);

enum class UpdateOp : std::uint8_t { Assign, Add, Max };
// For each i: t[offsets[i]] = s[i] (Assign), += scale * s[i] (Add), =
// max(t[...], s[i]) (Max). `scale` is a one-element tensor (Add only).
void multiUpdate(Graph& graph, program::Sequence& seq, const Tensor& t, const Tensor& s,
                 const Tensor& offsets, std::size_t dim, std::size_t size, UpdateOp op,
                 const std::optional<Tensor>& scale, const std::string& name);

} // namespace tessera::ops
