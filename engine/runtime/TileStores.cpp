#include "engine/runtime/TileStores.h"

#include "engine/core/LargeArray.h"
#include "engine/runtime/WarmPages.h"

#include <utility>

namespace tessera {

TileStores::TileStores(runtime::HostLayout layout, runtime::WarmPages* warm)
    : layout_(std::move(layout)) {
    if (layout_.totalBytes == 0) {
        return;
    }
    // Huge pages: a tile's data written for the first time faults once per
    // 2 MiB (engine/core/LargeArray.h says why that matters). No swap is
    // reserved: the blocks set apart are mostly never touched.
    base_ = warm ? warm->take(layout_.totalBytes, layout_.usedBytes)
                 : static_cast<std::byte*>(
                       detail::mapHugePages(layout_.totalBytes, detail::Reserve::No));
}

TileStores::~TileStores() {
    if (base_) {
        detail::unmapHugePages(base_, layout_.totalBytes);
    }
}

} // namespace tessera
