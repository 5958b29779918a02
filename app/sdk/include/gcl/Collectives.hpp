// gcl collectives within a replica: a graph over several IPUs whose data has
// an outer dimension of one slice per IPU (slice i mapped to IPU i). The
// slices travel between IPUs over the modelled IPU links as real exchange,
// and every IPU reduces what it receives on its own tiles.
#ifndef TESSERA_GCL_COLLECTIVES_HPP
#define TESSERA_GCL_COLLECTIVES_HPP

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace gcl {

// How the slices are combined. MEAN is the sum divided by the number of IPUs;
// LOCAL (no reduction between replicas) is not supported by Tessera.
enum class CollectiveOperator {
    ADD,
    MEAN,
    MUL,
    MIN,
    MAX,
    LOGICAL_AND,
    LOGICAL_OR,
    SQUARE_ADD,
    LOCAL,
};

std::istream& operator>>(std::istream& is, CollectiveOperator& op);
std::ostream& operator<<(std::ostream& os, const CollectiveOperator& op);

// A section of a tensor mapped to one IPU: `index` is the IPU, `offset` the
// position of the section's first element in the flattened reduced row.
struct Chunk {
    poplar::Tensor tensor;
    unsigned index;
    unsigned offset;
    Chunk()
        : index(0)
        , offset(0) {}
    Chunk(poplar::Tensor tensor_, unsigned index_, unsigned offset_)
        : tensor(tensor_)
        , index(index_)
        , offset(offset_) {}
};

struct Chunks {
    poplar::Tensor originalInput; // the reduced row's shape (reduceScatter's input[0])
    std::vector<Chunk> chunks;
    Chunks() {}
    explicit Chunks(unsigned size)
        : chunks(size) {}
};

// data [numIPUs][...]: a new tensor of data's shape whose slice i (on IPU i)
// is the reduction of all slices.
poplar::Tensor allReduceWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                      CollectiveOperator op, poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {},
                                      const poplar::OptionFlags& options = {});
// The same written into destination (data's shape and type).
void allReduceToDestinationWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                         const poplar::Tensor& destination, CollectiveOperator op,
                                         poplar::program::Sequence& prog,
                                         const poplar::DebugContext& debugContext = {},
                                         const poplar::OptionFlags& options = {});
// The same written back into data.
void allReduceInPlaceWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                   CollectiveOperator op, poplar::program::Sequence& prog,
                                   const poplar::DebugContext& debugContext = {},
                                   const poplar::OptionFlags& options = {});

// data [numIPUs][...]: the reduction of the slices, split into numIPUs
// near-equal pieces of the flattened row, piece i on IPU i (the first
// (n mod numIPUs) pieces have one element more).
Chunks reduceScatterWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                  CollectiveOperator op, poplar::program::Sequence& prog,
                                  const poplar::DebugContext& debugContext = {},
                                  const poplar::OptionFlags& options = {});

// Every chunk copied to every IPU: a new tensor [numIPUs][chunk elements in
// offset order], slice i on IPU i.
poplar::Tensor allGatherWithinReplica(poplar::Graph& graph, const Chunks& toGather,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {},
                                      const poplar::OptionFlags& options = {});
// data [numIPUs][...]: a new tensor [numIPUs][numIPUs][...] whose slice i (on
// IPU i) holds every slice of data.
poplar::Tensor allGatherWithinReplica(poplar::Graph& graph, const poplar::Tensor& data,
                                      poplar::program::Sequence& prog,
                                      const poplar::DebugContext& debugContext = {},
                                      const poplar::OptionFlags& options = {});

} // namespace gcl

#endif
