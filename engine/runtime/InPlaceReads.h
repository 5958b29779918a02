#pragma once
// Which gathered inputs of an Execute step its vertices may read where the
// exchange would have read them, so the copy into the step's exchange buffer
// need not be made. A real IPU copies; the host need not, when no one could
// tell: the entry is filled by one transfer, the vertex only reads it, no
// vertex of the step writes the transfer's source (it holds the exchanged
// values until the step's compute ends). The buffer is the step's own, so no
// later step sees it. The source is aligned to its elements, all a codelet
// may rely on: an entry in a variable (a slice) gets no more than that.
// The compiled plan keeps every transfer: records, cycles and the grouping
// of steps (runtime/StepGroups.h) still see the exchange a real IPU makes.
#include "engine/compiler/Compiled.h"
#include "engine/core/LargeArray.h"
#include "engine/graph/Graph.h"

#include <cstdint>
#include <vector>

namespace tessera::runtime {

struct InPlaceReads {
    // A field entry of the step (an index into StepPlan::entries) and where
    // its vertex reads it instead; entries not listed are read as planned.
    struct Redirect {
        std::uint64_t entry = 0;
        compiler::Location source;
    };
    LargeVector<Redirect> redirects; // ascending by entry (a 2048^3 matMul: 184k)
    // Per gather transfer: whether it must still be copied (1); empty when
    // every one is.
    std::vector<std::uint8_t> copy;
    std::uint64_t bytesNotCopied = 0;
};

// Empty (no redirects, every transfer copied) for steps other than Execute.
InPlaceReads planInPlaceReads(const Graph& graph, const compiler::CompiledGraph& compiled,
                              const compiler::StepPlan& step);

enum class ReadInPlace { Auto, Never };
// For tests and benchmarks (the results are the same bytes either way);
// applies to engines prepared afterwards.
void setReadInPlace(ReadInPlace mode);
ReadInPlace readInPlace();

} // namespace tessera::runtime
