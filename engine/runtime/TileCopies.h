#pragma once
// The byte copies of an exchange, one tile's list at a time. Within one
// step's exchange no copy reads what another writes (sources are variables or
// exchange buffers, destinations the other kind; a Copy's source and
// destination are checked apart at compile time), so copies may be merged
// and lines written in any order.
#include <cstddef>
#include <vector>

namespace tessera::runtime {

struct CopyOp {
    std::byte* destination;
    const std::byte* source;
    std::size_t bytes;
};

// Copies `ops` in order, merging consecutive ones that continue each other on
// both sides into one memcpy.
void copyRuns(const std::vector<CopyOp>& ops);

// The same bytes as copyRuns, but every whole 64-byte line of a destination
// range written by consecutive ops goes to memory with non-temporal stores:
// no line is read into the cache before it is overwritten. For exchanges too
// large for the cache to hold until they are read, where the plain copies
// spend a third of their memory traffic reading lines they overwrite.
void streamRuns(const std::vector<CopyOp>& ops);

// Whether an exchange of `bytes` in one step is large enough for streamRuns:
// more than the last-level cache holds, unless a test or benchmark forced
// the choice.
bool worthStreaming(std::size_t bytes);

enum class Streaming { Auto, Always, Never };
// For tests and benchmarks (the results are the same bytes either way);
// applies to engines prepared afterwards.
void setStreaming(Streaming mode);

} // namespace tessera::runtime
