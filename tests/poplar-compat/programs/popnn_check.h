// Shared by the popnn programs: a portable generator, half decoding, checks
// read back after the run and compared with host references (one line each),
// and error cases that must throw PopLibs' poputil::poplibs_error.
#ifndef POPNN_CHECK_H
#define POPNN_CHECK_H

#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

// A linear congruential generator, the same on every platform.
struct Rng {
    std::uint64_t s;
    explicit Rng(std::uint64_t seed)
        : s(seed) {}
    unsigned next(unsigned n) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<unsigned>((s >> 33) % n);
    }
    // k / denominator for k in [-steps, steps]: exact in float and half.
    float step(int steps, float denominator) {
        return (static_cast<int>(next(2 * static_cast<unsigned>(steps) + 1)) - steps) / denominator;
    }
};

inline float halfToFloat(std::uint16_t h) {
    const unsigned sign = (h >> 15) & 1, exp = (h >> 10) & 31, man = h & 1023;
    float v;
    if (exp == 0) {
        v = std::ldexp(static_cast<float>(man), -24);
    } else if (exp == 31) {
        v = man ? NAN : INFINITY;
    } else {
        v = std::ldexp(static_cast<float>(man + 1024), static_cast<int>(exp) - 25);
    }
    return sign ? -v : v;
}

struct Check {
    std::string what, handle;
    poplar::Type type;
    std::vector<double> expected;
    double tolerance; // relative to max(1, |expected|)
};

// `f` must throw poputil::poplibs_error, as PopLibs does for bad arguments;
// any other exception is reported as the wrong kind.
template <typename F>
void expectError(const std::string& what, F f) {
    try {
        f();
        std::cout << what << ": FAIL (no error)\n";
    } catch (const poputil::poplibs_error& e) {
        std::cout << what << ": error: " << e.what() << "\n";
    } catch (const std::exception& e) {
        std::cout << what << ": FAIL (not a poplibs_error): " << e.what() << "\n";
    }
}

inline std::vector<double> readBack(poplar::Engine& engine, const Check& c) {
    std::vector<double> got(c.expected.size());
    if (c.type == poplar::HALF) {
        std::vector<std::uint16_t> raw(got.size());
        engine.readTensor(c.handle, raw.data(), raw.data() + raw.size());
        std::transform(raw.begin(), raw.end(), got.begin(), halfToFloat);
    } else if (c.type == poplar::INT) {
        std::vector<int> raw(got.size());
        engine.readTensor(c.handle, raw.data(), raw.data() + raw.size());
        std::copy(raw.begin(), raw.end(), got.begin());
    } else if (c.type == poplar::UNSIGNED_INT) {
        std::vector<unsigned> raw(got.size());
        engine.readTensor(c.handle, raw.data(), raw.data() + raw.size());
        std::copy(raw.begin(), raw.end(), got.begin());
    } else {
        std::vector<float> raw(got.size());
        engine.readTensor(c.handle, raw.data(), raw.data() + raw.size());
        std::copy(raw.begin(), raw.end(), got.begin());
    }
    return got;
}

// Prints "<what>: ok" or where the worst error is, then "all passed" or
// "FAILED"; returns the number of failed checks.
inline int reportChecks(poplar::Engine& engine, const std::vector<Check>& checks) {
    int failures = 0;
    for (std::size_t k = 0; k < checks.size(); ++k) {
        const Check& c = checks[k];
        const std::vector<double> got = readBack(engine, c);
        double worst = 0;
        std::size_t at = 0;
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double err =
                std::fabs(got[i] - c.expected[i]) / std::max(1.0, std::fabs(c.expected[i]));
            if (!(err <= worst)) {
                worst = err;
                at = i;
            }
        }
        if (worst <= c.tolerance) {
            std::cout << c.what << ": ok\n";
        } else {
            ++failures;
            std::cout << c.what << ": FAIL at " << at << ": " << got[at] << " expected "
                      << c.expected[at] << " (error " << worst << ")\n";
        }
    }
    std::cout << (failures ? "FAILED" : "all passed") << "\n";
    return failures;
}

#endif
