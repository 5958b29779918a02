#include "engine/core/Type.h"

#include "engine/core/Error.h"

#include <cstring>

namespace tessera {

std::size_t sizeOf(Type type) {
    switch (type) {
    case Type::Float:
    case Type::Int:
    case Type::UnsignedInt:
        return 4;
    case Type::Half:
        return 2;
    case Type::Bool:
        return 1;
    }
    return 0;
}

std::string_view typeName(Type type) {
    switch (type) {
    case Type::Float:
        return "float";
    case Type::Half:
        return "half";
    case Type::Int:
        return "int";
    case Type::UnsignedInt:
        return "unsigned int";
    case Type::Bool:
        return "bool";
    }
    return "?";
}

Type typeFromName(std::string_view name) {
    for (Type t : {Type::Float, Type::Half, Type::Int, Type::UnsignedInt, Type::Bool}) {
        if (typeName(t) == name) {
            return t;
        }
    }
    if (name == "unsigned") {
        return Type::UnsignedInt;
    }
    throw Error("unknown element type '" + std::string(name) +
                "' (expected float, half, int, unsigned int or bool)");
}

template <typename T>
static T loadRaw(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T>
static void storeRaw(std::byte* p, T v) {
    std::memcpy(p, &v, sizeof v);
}

double loadAsDouble(Type type, const std::byte* p) {
    switch (type) {
    case Type::Float:
        return loadRaw<float>(p);
    case Type::Half:
        return halfBitsToFloat(loadRaw<std::uint16_t>(p));
    case Type::Int:
        return loadRaw<std::int32_t>(p);
    case Type::UnsignedInt:
        return loadRaw<std::uint32_t>(p);
    case Type::Bool:
        return loadRaw<std::uint8_t>(p) != 0 ? 1.0 : 0.0;
    }
    return 0;
}

void storeFromDouble(Type type, std::byte* p, double value) {
    switch (type) {
    case Type::Float:
        storeRaw(p, static_cast<float>(value));
        break;
    case Type::Half:
        storeRaw(p, floatToHalfBits(static_cast<float>(value)));
        break;
    case Type::Int:
        storeRaw(p, static_cast<std::int32_t>(value));
        break;
    case Type::UnsignedInt:
        storeRaw(p, static_cast<std::uint32_t>(value));
        break;
    case Type::Bool:
        storeRaw(p, static_cast<std::uint8_t>(value != 0.0 ? 1 : 0));
        break;
    }
}

} // namespace tessera
