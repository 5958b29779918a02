// One-hot encoding and iota (popops/Encoding.hpp).
#ifndef TESSERA_POPOPS_ENCODING_HPP
#define TESSERA_POPOPS_ENCODING_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

// encoded[i][indices[i]] = 1 (or on), every other element 0 (or off);
// indices: INT or UNSIGNED_INT [N]; encoded [N, C]. A row whose index is out
// of range is all off.
void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::DebugContext& debugContext = poplar::DebugContext());
void encodeOneHot(poplar::Graph& graph, const poplar::Tensor& indices,
                  const poplar::Tensor& encoded, poplar::program::Sequence& prog,
                  const poplar::Tensor& on, const poplar::Tensor& off,
                  const poplar::DebugContext& debugContext = poplar::DebugContext());
// t[i] = startInteger + i (t: 1-D UNSIGNED_INT, or INT).
void iota(poplar::Graph& graph, const poplar::Tensor& t, unsigned startInteger,
          poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = poplar::DebugContext());
void iota(poplar::Graph& graph, const poplar::Tensor& t, int startInteger,
          poplar::program::Sequence& prog,
          const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
