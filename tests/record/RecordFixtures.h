#pragma once
// Short ways for tests to write records whose ids are strong types.
#include "engine/record/Records.h"

#include <cstdint>

namespace tessera::testing {

inline record::VertexCountRecord vertexCount(std::uint32_t computeSet, std::uint32_t tile,
                                             std::uint32_t codelet, std::uint32_t count,
                                             std::uint32_t stateBytes) {
    return {record::ComputeSetId{computeSet}, record::TileId{tile}, record::CodeletId{codelet},
            count, stateBytes};
}

inline record::CodeletRecord codelet(std::uint32_t id, std::string name, std::uint64_t codeBytes,
                                     std::string cycleFormula = {}) {
    return {record::CodeletId{id}, std::move(name), codeBytes, std::move(cycleFormula)};
}

} // namespace tessera::testing
