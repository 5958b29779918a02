#pragma once
// What a tile's memory is used for, as PopVision's memory report divides it.
#include <cstddef>
#include <cstdint>

namespace tessera::record {

enum class MemoryCategory : std::uint8_t {
    AlwaysLiveVariable,
    NotAlwaysLiveVariable,
    Constant,
    VertexInstanceState,
    VectorListDescriptor,
    VertexCode,
    InternalExchangeCode,
    HostExchangeCode,
    ControlCode,
    Stack,
};
inline constexpr std::size_t kMemoryCategoryCount = 10;
const char* memoryCategoryName(MemoryCategory c); // "always-live variables", ...
const char* memoryCategoryKey(MemoryCategory c);  // "always_live", ... stable identifiers

} // namespace tessera::record
