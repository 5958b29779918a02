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

} // namespace tessera::record

template <class Tag, class T>
struct std::hash<tessera::record::Typedef<Tag, T>> {
    std::size_t operator()(tessera::record::Typedef<Tag, T> id) const noexcept {
        return std::hash<T>{}(id.value());
    }
};
