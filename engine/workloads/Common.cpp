#include "engine/workloads/Library.h"

#include <cmath>
#include <random>
#include <sstream>

namespace tessera::workloads {

std::vector<float> roundTo(const std::vector<float>& v, Type type) {
    std::vector<float> out(v);
    if (type == Type::Half) {
        for (float& x : out) {
            x = float(half(x));
        }
    }
    return out;
}

std::vector<float> randomValues(std::size_t n, std::uint32_t seed, Type type, float lo, float hi) {
    std::mt19937 rng(seed);
    std::vector<float> v(n);
    for (float& x : v) {
        // Built from the raw 32-bit output, so every standard library gives the same numbers.
        x = lo + (hi - lo) * static_cast<float>(rng() >> 8) / static_cast<float>(1u << 24);
    }
    return roundTo(v, type);
}

std::vector<double> toDouble(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

Verification compare(const std::vector<double>& device, const std::vector<double>& reference,
                     double atol, double rtol, const std::string& what) {
    Verification result;
    result.passed = device.size() == reference.size();
    std::size_t worst = 0;
    double worstExcess = 0;
    for (std::size_t i = 0; i < device.size() && i < reference.size(); ++i) {
        const double err = std::fabs(device[i] - reference[i]);
        if (!(err <= atol + rtol * std::fabs(reference[i]))) { // also catches NaN
            const double excess = std::isnan(err) ? INFINITY : err;
            if (result.passed || excess > worstExcess) {
                worst = i;
                worstExcess = excess;
            }
            result.passed = false;
        }
        result.maxAbsError = std::max(result.maxAbsError, std::isnan(err) ? INFINITY : err);
    }
    std::ostringstream os;
    if (device.size() != reference.size()) {
        os << what << ": " << device.size() << " values, expected " << reference.size();
    } else if (result.passed) {
        os << what << ": " << device.size() << " values match (max abs error " << result.maxAbsError
           << ")";
    } else {
        os << what << ": element " << worst << " is " << device[worst] << ", expected "
           << reference[worst];
    }
    result.detail = os.str();
    return result;
}

double absoluteTolerance(Type type, std::size_t accumulation) {
    const double eps = type == Type::Half ? 2e-3 : 2e-6;
    return eps * (4 + std::sqrt(static_cast<double>(accumulation)) * 4);
}

double relativeTolerance(Type type) {
    return type == Type::Half ? 4e-3 : 1e-5;
}

std::vector<double> hostMatMul(const std::vector<double>& a, const std::vector<double>& b,
                               std::size_t m, std::size_t k, std::size_t n) {
    std::vector<double> c(m * n, 0.0);
    for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t x = 0; x < k; ++x) {
            const double av = a[i * k + x];
            for (std::size_t j = 0; j < n; ++j) {
                c[i * n + j] += av * b[x * n + j];
            }
        }
    }
    return c;
}

std::vector<double> hostSoftmaxRows(const std::vector<double>& x, std::size_t rows,
                                    std::size_t cols) {
    std::vector<double> out(x.size());
    for (std::size_t r = 0; r < rows; ++r) {
        double mx = -INFINITY;
        for (std::size_t c = 0; c < cols; ++c) {
            mx = std::max(mx, x[r * cols + c]);
        }
        double sum = 0;
        for (std::size_t c = 0; c < cols; ++c) {
            out[r * cols + c] = std::exp(x[r * cols + c] - mx);
            sum += out[r * cols + c];
        }
        for (std::size_t c = 0; c < cols; ++c) {
            out[r * cols + c] /= sum;
        }
    }
    return out;
}

void writeFloats(Engine& engine, const Tensor& t, const std::vector<float>& values) {
    std::vector<double> d(values.begin(), values.end());
    engine.writeValues(t, d);
}

} // namespace tessera::workloads
