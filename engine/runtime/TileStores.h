#pragma once
// The tiles' memory on the host: one anonymous mapping holding every data
// block where HostLayout.h puts it. Its pages are zero until written and the
// kernel makes them only when first touched, so bytes the program never uses
// cost neither zeroing nor a page fault (calloc of a reused heap block would
// clear every byte). The mapping is advised for huge pages: memory a program
// uses faults once per 2 MiB extent, which the kernel zeroes whole. Pages a
// WarmPages faulted in while the engine compiled start the stores.
#include "engine/compiler/Compiled.h"
#include "engine/runtime/HostLayout.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera {

namespace runtime {
class WarmPages;
}

class TileStores {
public:
    // `warm`: pages faulted in ahead, for the bytes a run touches (or none).
    explicit TileStores(runtime::HostLayout layout, runtime::WarmPages* warm = nullptr);
    ~TileStores();
    TileStores(const TileStores&) = delete;
    TileStores& operator=(const TileStores&) = delete;

    // Block b's bytes, zero-filled at first; null when no block has any.
    std::byte* block(compiler::BlockId b) const {
        return base_ ? base_ + layout_.blockOffset[b] : nullptr;
    }
    // The bytes a run touches (the blocks set apart are not counted).
    std::uint64_t usedBytes() const { return layout_.usedBytes; }
    const runtime::HostLayout& layout() const { return layout_; }

private:
    runtime::HostLayout layout_;
    std::byte* base_ = nullptr;
};

} // namespace tessera
