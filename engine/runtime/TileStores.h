#pragma once
// The tiles' memory on the host: one anonymous mapping cut into a store per
// tile. Its pages are zero until written and the kernel makes them only when
// first touched, so a 2 MiB extent the program never uses costs neither
// zeroing nor a page fault (calloc of a reused heap block would clear every
// byte). The mapping is advised for huge pages: memory a program uses faults
// once per 2 MiB extent, which the kernel zeroes whole.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera {

class TileStores {
public:
    TileStores() = default;
    // bytes[t]: the size of tile t's store (0: none).
    explicit TileStores(const std::vector<std::uint64_t>& bytes);
    ~TileStores();
    TileStores(const TileStores&) = delete;
    TileStores& operator=(const TileStores&) = delete;

    // Tile t's store, zero-filled at first; null for a tile without one.
    std::byte* operator[](std::size_t t) const { return starts_[t]; }

private:
    void* base_ = nullptr;
    std::size_t size_ = 0;
    std::vector<std::byte*> starts_;
};

} // namespace tessera
