#pragma once
// Element types of tensors, as Poplar names them.
#include "engine/core/Half.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera {

enum class Type : std::uint8_t { Float, Half, Int, UnsignedInt, Bool };
constexpr std::size_t kTypeCount = static_cast<std::size_t>(Type::Bool) + 1;

std::size_t sizeOf(Type type);
std::string_view typeName(Type type);     // "float", "half", "int", "unsigned int", "bool"
Type typeFromName(std::string_view name); // throws Error for an unknown name

// Maps a C++ element type to its Type.
template <typename T>
struct TypeOf;
template <>
struct TypeOf<float> {
    static constexpr Type value = Type::Float;
};
template <>
struct TypeOf<half> {
    static constexpr Type value = Type::Half;
};
template <>
struct TypeOf<int> {
    static constexpr Type value = Type::Int;
};
template <>
struct TypeOf<unsigned> {
    static constexpr Type value = Type::UnsignedInt;
};
template <>
struct TypeOf<bool> {
    static constexpr Type value = Type::Bool;
};

// Float and half: the types whose values round.
constexpr bool isFloatingPoint(Type type) {
    return type == Type::Float || type == Type::Half;
}

// The name of a C++ element type's Type ("float", ...).
template <typename T>
std::string typeNameOf() {
    return std::string(typeName(TypeOf<T>::value));
}

// "name<type>" for a C++ element type, as codelet names are written.
template <typename T>
std::string typedName(std::string_view name) {
    return std::string(name) + "<" + typeNameOf<T>() + ">";
}

// Conversions between element storage and double, for host I/O and printing.
double loadAsDouble(Type type, const std::byte* p);
void storeFromDouble(Type type, std::byte* p, double value);

} // namespace tessera
