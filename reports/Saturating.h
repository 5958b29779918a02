#pragma once
// Saturating arithmetic on report figures (private to reports/): the figures
// of a damaged report must not overflow, and SQLite's integers are signed.
#include <algorithm>
#include <cstdint>
#include <limits>

namespace tessera::reports {

// An unsigned figure as SQLite stores it: values past INT64_MAX saturate.
inline std::int64_t i64(std::uint64_t v) {
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    return static_cast<std::int64_t>(std::min(v, kMax));
}

inline std::uint64_t mulSat(std::uint64_t a, std::uint64_t b) {
    if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
        return std::numeric_limits<std::uint64_t>::max();
    }
    return a * b;
}

inline std::uint64_t addSat(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
}

// For sums of non-negative figures.
inline std::int64_t addSat64(std::int64_t a, std::int64_t b) {
    return b > std::numeric_limits<std::int64_t>::max() - a
               ? std::numeric_limits<std::int64_t>::max()
               : a + b;
}

} // namespace tessera::reports
