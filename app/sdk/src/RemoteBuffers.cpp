#include "RemoteBuffers.h"

#include "engine/core/Type.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace poplar::detail {

namespace {

std::size_t rowBytes(const RemoteBufferInfo& info) {
    return info.numElements * tessera::sizeOf(info.type);
}

const RemoteBufferInfo& bufferInfo(const GraphImpl& graph, const std::string& handle) {
    auto it = graph.remoteBuffers.find(handle);
    if (it == graph.remoteBuffers.end()) {
        throw poplar_error("no remote buffer '" + handle + "' in this graph");
    }
    return it->second;
}

std::size_t checkedRow(const RemoteBufferInfo& info, const std::string& handle, double row) {
    if (!(row >= 0) || row >= static_cast<double>(info.repeats) || row != std::floor(row)) {
        std::ostringstream r;
        r << row;
        throw poplar_error("remote buffer '" + handle + "': row " + r.str() +
                           " is out of range (it has " + std::to_string(info.repeats) + ")");
    }
    return static_cast<std::size_t>(row);
}

} // namespace

void connectRemoteBuffers(const GraphImpl& graph, tessera::Engine& engine, RemoteStorage& storage) {
    for (const auto& [handle, info] : graph.remoteBuffers) {
        storage[handle].assign(rowBytes(info) * info.repeats, std::byte{0});
    }
    for (const RemoteCopy& c : graph.remoteCopies) {
        const RemoteBufferInfo& info = bufferInfo(graph, c.buffer);
        std::vector<std::byte>* memory = &storage[c.buffer];
        tessera::Engine* e = &engine;
        engine.connectStreamToCallback(c.stream, [c, info, memory, e](void* p) {
            // Which rows: the offset tensor's values as they are now, else 0..rows-1.
            std::vector<double> rows;
            if (c.offset.valid()) {
                rows = e->readValues(c.offset);
            } else {
                for (std::size_t r = 0; r < c.rows; ++r) {
                    rows.push_back(static_cast<double>(r));
                }
            }
            const std::size_t bytes = rowBytes(info);
            auto* host = static_cast<std::byte*>(p);
            for (std::size_t r = 0; r < rows.size(); ++r) {
                std::byte* row = memory->data() + checkedRow(info, c.buffer, rows[r]) * bytes;
                if (c.toDevice) {
                    std::memcpy(host + r * bytes, row, bytes);
                } else {
                    std::memcpy(row, host + r * bytes, bytes);
                }
            }
        });
    }
}

void copyRemoteRow(const GraphImpl& graph, RemoteStorage& storage, const std::string& handle,
                   std::uint64_t row, void* host, bool toBuffer) {
    const RemoteBufferInfo& info = bufferInfo(graph, handle);
    const std::size_t r = checkedRow(info, handle, static_cast<double>(row));
    std::byte* memory = storage.at(handle).data() + r * rowBytes(info);
    if (toBuffer) {
        std::memcpy(memory, host, rowBytes(info));
    } else {
        std::memcpy(host, memory, rowBytes(info));
    }
}

} // namespace poplar::detail
