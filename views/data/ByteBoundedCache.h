#pragma once
// A cache of shared, immutable values bounded by the bytes they hold, not by
// their count: one LOD query over a long run can be megabytes while another
// is a few hundred bytes. The oldest entries go first. Not thread-safe (the
// owner locks).
#include <cstddef>
#include <deque>
#include <map>
#include <memory>

namespace tessera::views {

template <class Key, class Value>
class ByteBoundedCache {
public:
    explicit ByteBoundedCache(std::size_t maxBytes)
        : maxBytes_(maxBytes) {}

    std::shared_ptr<const Value> find(const Key& key) const {
        const auto it = entries_.find(key);
        return it == entries_.end() ? nullptr : it->second.value;
    }

    // Keeps `value` unless it alone is over the bound (it is returned either way).
    void insert(const Key& key, std::shared_ptr<const Value> value, std::size_t bytes) {
        if (bytes > maxBytes_ || entries_.count(key)) {
            return;
        }
        while (bytes_ + bytes > maxBytes_ && !order_.empty()) {
            const auto it = entries_.find(order_.front());
            bytes_ -= it->second.bytes;
            entries_.erase(it);
            order_.pop_front();
        }
        entries_.emplace(key, Entry{std::move(value), bytes});
        order_.push_back(key);
        bytes_ += bytes;
    }

    std::size_t bytes() const { return bytes_; }
    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        std::shared_ptr<const Value> value;
        std::size_t bytes = 0;
    };
    std::size_t maxBytes_;
    std::size_t bytes_ = 0;
    std::map<Key, Entry> entries_;
    std::deque<Key> order_; // insertion order: the front goes first
};

} // namespace tessera::views
