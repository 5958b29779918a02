// Counted loops (popops/Loop.hpp): the body sees the counter, an
// UNSIGNED_INT scalar tensor.
#ifndef TESSERA_POPOPS_LOOP_HPP
#define TESSERA_POPOPS_LOOP_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace popops {

typedef std::function<poplar::program::Program(const poplar::Tensor&)> CountedLoopBodyType;

// for (i = begin; i != end; i += step) body(i)   (step > 0)
poplar::program::Sequence
countedLoop(poplar::Graph& graph, std::size_t begin, std::size_t end, std::size_t step,
            const CountedLoopBodyType& body,
            const poplar::DebugContext& debugContext = poplar::DebugContext());
// for (i = 0; i != count; ++i) body(i)
poplar::program::Sequence
countedLoop(poplar::Graph& graph, std::size_t count, const CountedLoopBodyType& body,
            const poplar::DebugContext& debugContext = poplar::DebugContext());
// for (count = initialCount; count != countLimit; count += countStep) body
// (count: an INT or UNSIGNED_INT scalar the caller made; countLimit a tensor).
poplar::program::Sequence
countedForLoop(poplar::Graph& graph, const poplar::Tensor& count, int initialCount,
               const poplar::Tensor& countLimit, int countStep,
               const poplar::program::Program& body,
               const poplar::DebugContext& debugContext = poplar::DebugContext());
poplar::program::Sequence
countedForLoop(poplar::Graph& graph, int initialCount, const poplar::Tensor& countLimit,
               int countStep, const poplar::program::Program& body,
               const poplar::DebugContext& debugContext = poplar::DebugContext());

} // namespace popops

#endif
