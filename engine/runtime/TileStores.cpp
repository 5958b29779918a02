#include "engine/runtime/TileStores.h"

#include <sys/mman.h>

#include <new>

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
    base_ = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base_ == MAP_FAILED) {
        base_ = nullptr;
        throw std::bad_alloc();
    }
    for (std::size_t t = 0; t < bytes.size(); ++t) {
        if (bytes[t] > 0) {
            starts_[t] = static_cast<std::byte*>(base_) + offsets[t];
        }
    }
}

TileStores::~TileStores() {
    if (base_) {
        munmap(base_, size_);
    }
}

} // namespace tessera
