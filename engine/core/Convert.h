#pragma once
// Element conversions exactly as popops casts (and the map evaluator) define
// them, without going through float: integers convert between themselves
// modulo 2^32, to float by the host's round-to-nearest (and to half through
// float, as the device does), floating values to integers by saturating
// truncation with NaN as 0, and anything to bool as "not zero" (NaN is 0).
#include "engine/core/Half.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace tessera {

template <typename T>
inline constexpr bool isFloatingElement = std::is_same_v<T, float> || std::is_same_v<T, half>;

template <typename Out, typename In>
Out convertElement(In v) {
    if constexpr (std::is_same_v<Out, In>) {
        return v;
    } else if constexpr (isFloatingElement<In>) {
        const float f = static_cast<float>(v);
        if constexpr (isFloatingElement<Out>) {
            return Out(f);
        } else if constexpr (std::is_same_v<Out, bool>) {
            return !std::isnan(f) && f != 0.0f;
        } else {
            if (std::isnan(f)) {
                return Out(0);
            }
            constexpr double lo = std::is_signed_v<Out> ? -2147483648.0 : 0.0;
            constexpr double hi = std::is_signed_v<Out> ? 2147483647.0 : 4294967295.0;
            return static_cast<Out>(std::trunc(std::clamp(static_cast<double>(f), lo, hi)));
        }
    } else if constexpr (std::is_same_v<Out, bool>) {
        return v != In(0);
    } else if constexpr (isFloatingElement<Out>) {
        return Out(static_cast<float>(v)); // one rounding to float, as the host's
    } else {
        // Integer to integer: two's complement wrap-around, as a C++ cast.
        return static_cast<Out>(static_cast<std::uint32_t>(static_cast<std::int64_t>(v)));
    }
}

// A double (how Graph::setInitialValue carries every state value) as `Out`:
// integers by wrap-around, never undefined for out-of-range values.
template <typename Out>
Out fromDouble(double v) {
    if constexpr (std::is_same_v<Out, bool>) {
        return v != 0.0;
    } else if constexpr (std::is_integral_v<Out>) {
        if (std::isnan(v) || std::fabs(v) >= 9.2e18) {
            return Out(0);
        }
        return static_cast<Out>(static_cast<std::uint32_t>(static_cast<std::int64_t>(v)));
    } else {
        return static_cast<Out>(static_cast<float>(v));
    }
}

} // namespace tessera
