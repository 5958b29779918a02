#pragma once
// How the graph keeps what vertex fields are connected to: 16 bytes a region
// instead of a VariableRegion's 24 (a graph of 10^7 vertices holds 3·10^7 of
// them), read back as VariableRegions through a small view.
#include "engine/graph/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace tessera {

// A region a vertex reads lies on one tile, so its size fits 32 bits
// (Graph checks when it stores one).
struct StoredRegion {
    std::uint64_t begin = 0;
    VariableId var = VariableId::none();
    std::uint32_t size = 0;
    VariableRegion region() const { return {var, begin, begin + size}; }
};
static_assert(sizeof(StoredRegion) == 16);

// A field's connected regions in the connected tensor's element order.
class RegionsView {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = VariableRegion;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = VariableRegion;

        iterator() = default;
        explicit iterator(const StoredRegion* at)
            : at_(at) {}
        VariableRegion operator*() const { return at_->region(); }
        iterator& operator++() {
            ++at_;
            return *this;
        }
        iterator operator++(int) {
            iterator before = *this;
            ++at_;
            return before;
        }
        bool operator==(const iterator&) const = default;

    private:
        const StoredRegion* at_ = nullptr;
    };

    RegionsView() = default;
    RegionsView(const StoredRegion* first, std::size_t count)
        : first_(first)
        , count_(count) {}

    std::size_t size() const { return count_; }
    iterator begin() const { return iterator(first_); }
    iterator end() const { return iterator(first_ + count_); }
    std::size_t numElements() const {
        std::size_t n = 0;
        for (std::size_t i = 0; i < count_; ++i) {
            n += first_[i].size;
        }
        return n;
    }

private:
    const StoredRegion* first_ = nullptr;
    std::size_t count_ = 0;
};

} // namespace tessera
