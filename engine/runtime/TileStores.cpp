#include "engine/runtime/TileStores.h"

#include "engine/core/LargeArray.h"

namespace tessera {

namespace {
// Each store starts on a cache line, as the host's vector loads like.
constexpr std::size_t kAlignment = 64;
} // namespace

TileStores::TileStores(const std::vector<std::uint64_t>& bytes)
    : starts_(bytes.size(), nullptr) {
    std::vector<std::size_t> offsets(bytes.size());
    for (std::size_t t = 0; t < bytes.size(); ++t) {
        offsets[t] = size_;
        size_ += (bytes[t] + kAlignment - 1) / kAlignment * kAlignment;
    }
    if (size_ == 0) {
        return;
    }
    // Huge pages: a tile's data written for the first time faults once per
    // 2 MiB (engine/core/LargeArray.h says why that matters).
    base_ = detail::mapHugePages(size_, detail::Reserve::No);
    for (std::size_t t = 0; t < bytes.size(); ++t) {
        if (bytes[t] > 0) {
            starts_[t] = static_cast<std::byte*>(base_) + offsets[t];
        }
    }
}

TileStores::~TileStores() {
    if (base_) {
        detail::unmapHugePages(base_, size_);
    }
}

} // namespace tessera
