#pragma once
// Element-wise operations, each one compute set wrapped in a named Block so
// it shows as one operation in the profile (like a PopLibs call).
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <string>

namespace tessera::ops {

// A new variable with `like`'s shape and tile mapping.
Tensor cloneLike(Graph& graph, const Tensor& like, Type type, const std::string& name);

// out = op(in); op is a unary codelet family: Neg, Abs, Exp, Log, Sqrt, Tanh,
// Sigmoid, Relu, Square, Inv.
Tensor unary(Graph& graph, program::Sequence& seq, const std::string& op, const Tensor& in,
             const std::string& name);
// out = op(a, b) element-wise, shapes equal; op: Add, Sub, Mul, Div, Max, Min, ReluGrad.
// The result is mapped like `a`; b's elements are exchanged to a's tiles.
Tensor binary(Graph& graph, program::Sequence& seq, const std::string& op, const Tensor& a,
              const Tensor& b, const std::string& name);
// out[r, :] = op(in[r, :], scalars[r]) for a 2-D `in` and a 1-D `scalars`.
Tensor binaryRowScalar(Graph& graph, program::Sequence& seq, const std::string& op,
                       const Tensor& in, const Tensor& scalars, const std::string& name);
void fill(Graph& graph, program::Sequence& seq, const Tensor& t, double value,
          const std::string& name);
// data += scale * deltas
void scaledAddTo(Graph& graph, program::Sequence& seq, const Tensor& data, const Tensor& deltas,
                 double scale, const std::string& name);
Tensor cast(Graph& graph, program::Sequence& seq, const Tensor& in, Type to,
            const std::string& name);

// "Add" + float -> "Add<float>"
std::string codeletName(const std::string& op, Type type);

} // namespace tessera::ops
