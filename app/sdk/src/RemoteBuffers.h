#pragma once
// Remote buffers on the engine: each buffer is host memory; each Copy to or
// from one is a stream whose callback moves the rows its offsets name.
#include "Impl.h"
#include "engine/runtime/Engine.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace poplar::detail {

using RemoteStorage = std::map<std::string, std::vector<std::byte>>;

// Allocates every buffer of the graph (zeroed) and connects every remote copy's stream.
void connectRemoteBuffers(const GraphImpl& graph, tessera::Engine& engine, RemoteStorage& storage);

// Engine::copyToRemoteBuffer / copyFromRemoteBuffer: one row.
void copyRemoteRow(const GraphImpl& graph, RemoteStorage& storage, const std::string& handle,
                   std::uint64_t row, void* host, bool toBuffer);

} // namespace poplar::detail
