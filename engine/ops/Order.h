#pragma once
// popops' Sort.hpp and Encoding.hpp in the engine. Sorting gathers each line
// (all elements that differ only in the sorted dimension) onto the tile of its
// first element and sorts it there with one vertex; ascending, and stable for
// sortKeyValue's equal keys. One-hot encoding writes each row of the encoded
// tensor on its own tile.
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <optional>
#include <string>

namespace tessera::ops {

// A sorted copy of t along `dim`, mapped like t.
Tensor sort(Graph& graph, program::Sequence& seq, const Tensor& t, std::size_t dim,
            const std::string& name);
void sortInPlace(Graph& graph, program::Sequence& seq, const Tensor& t, std::size_t dim,
                 const std::string& name);
// The values reordered as their keys sort (a copy, mapped like `values`).
Tensor sortKeyValue(Graph& graph, program::Sequence& seq, const Tensor& keys, const Tensor& values,
                    std::size_t dim, const std::string& name);
// Keys and values both sorted in place by the keys.
void sortKeyValueInPlace(Graph& graph, program::Sequence& seq, const Tensor& keys,
                         const Tensor& values, std::size_t dim, const std::string& name);

// encoded[i][indices[i]] = on, every other element = off; a row whose index is
// out of range is all `off`. indices: unsigned or int, [N]; encoded [N, C].
// `on` / `off` are one-element tensors of encoded's type, or 1 and 0.
void encodeOneHot(Graph& graph, program::Sequence& seq, const Tensor& indices,
                  const Tensor& encoded, const std::optional<Tensor>& on,
                  const std::optional<Tensor>& off, const std::string& name);
// t[i] = start + i for a 1-D int or unsigned t.
void iota(Graph& graph, program::Sequence& seq, const Tensor& t, double start,
          const std::string& name);

} // namespace tessera::ops
