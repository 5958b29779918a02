#pragma once
// Strong ids: a tile number, a variable id and a program step id are all
// 32-bit integers, and code that mixes them up still compiles when they are
// plain integers. Typedef<Tag, T> gives each kind of id its own type: built
// only explicitly, read only through value(), compared only with its own kind,
// no arithmetic. Report columns and Qt models take value().
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>

namespace tessera::record {

template <class Tag, class T = std::uint32_t>
class Typedef {
    static_assert(std::is_unsigned_v<T> && !std::is_same_v<T, bool>, "ids are unsigned integers");

public:
    using value_type = T;

    constexpr Typedef() = default;
    // Only from T itself: an int, a double or another kind of id is refused.
    template <class U>
    requires std::is_same_v<U, T>
    constexpr explicit Typedef(U v)
        : value_(v) {}

    // "No such id": the highest value, the report's NULL.
    static constexpr Typedef none() { return Typedef{std::numeric_limits<T>::max()}; }
    constexpr bool isNone() const { return value_ == std::numeric_limits<T>::max(); }

    constexpr T value() const { return value_; }

    // Spelled out, not <=>: <compare> breaks moc 6.4, and views' headers include this.
    friend constexpr bool operator==(Typedef a, Typedef b) { return a.value_ == b.value_; }
    friend constexpr bool operator!=(Typedef a, Typedef b) { return a.value_ != b.value_; }
    friend constexpr bool operator<(Typedef a, Typedef b) { return a.value_ < b.value_; }
    friend constexpr bool operator<=(Typedef a, Typedef b) { return a.value_ <= b.value_; }
    friend constexpr bool operator>(Typedef a, Typedef b) { return a.value_ > b.value_; }
    friend constexpr bool operator>=(Typedef a, Typedef b) { return a.value_ >= b.value_; }

private:
    T value_ = 0;
};

struct TileTag;
struct VariableTag;
struct StepTag; // a compile-time program step
struct CodeletTag;
struct VertexTag;
struct ComputeSetTag;
struct ProgramNodeTag;

using TileId = Typedef<TileTag>;
using VariableId = Typedef<VariableTag>;
using StepId = Typedef<StepTag>;
using CodeletId = Typedef<CodeletTag>;
using VertexId = Typedef<VertexTag>;
using ComputeSetId = Typedef<ComputeSetTag>;
using ProgramNodeId = Typedef<ProgramNodeTag>;

// Ids that number the elements of a vector (tiles, variables, steps...):
// index(id) is the element's position, idAt<Id>(i) the id of position i.
template <class Tag, class T>
constexpr std::size_t index(Typedef<Tag, T> id) {
    return id.value();
}
template <class Id>
constexpr Id idAt(std::size_t i) {
    return Id{static_cast<typename Id::value_type>(i)};
}

// The ids [first, end) in order, e.g. every tile: for (TileId t : idRange<TileId>(n)).
template <class Id>
class IdRange {
public:
    using T = typename Id::value_type;
    class iterator {
    public:
        using value_type = Id;
        using difference_type = std::ptrdiff_t;
        constexpr iterator() = default;
        constexpr explicit iterator(T v)
            : v_(v) {}
        constexpr Id operator*() const { return Id{v_}; }
        constexpr iterator& operator++() {
            ++v_;
            return *this;
        }
        constexpr iterator operator++(int) {
            iterator old = *this;
            ++v_;
            return old;
        }
        friend constexpr bool operator==(iterator a, iterator b) { return a.v_ == b.v_; }
        friend constexpr bool operator!=(iterator a, iterator b) { return a.v_ != b.v_; }

    private:
        T v_ = 0;
    };
    constexpr IdRange(T first, T end)
        : first_(first)
        , end_(end < first ? first : end) {}
    constexpr iterator begin() const { return iterator{first_}; }
    constexpr iterator end() const { return iterator{end_}; }
    constexpr std::size_t size() const { return end_ - first_; }

private:
    T first_;
    T end_;
};
template <class Id>
constexpr IdRange<Id> idRange(std::size_t n) {
    return {0, static_cast<typename Id::value_type>(n)};
}
template <class Id>
constexpr IdRange<Id> idRange(Id first, Id end) {
    return {first.value(), end.value()};
}

} // namespace tessera::record

template <class Tag, class T>
struct std::hash<tessera::record::Typedef<Tag, T>> {
    std::size_t operator()(tessera::record::Typedef<Tag, T> id) const noexcept {
        return std::hash<T>{}(id.value());
    }
};
