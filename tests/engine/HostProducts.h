#pragma once
// Host references for the matMul suites: operands of small integers, whose
// products sum exactly in float whichever way a kernel adds them, and their
// product.
#include <cstddef>
#include <vector>

namespace tessera::test {

// n values cycling through i % period - offset.
inline std::vector<float> integers(std::size_t n, int period, int offset) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = float(int(i % std::size_t(period)) - offset);
    }
    return v;
}

// out[r][c] = sum over x of a[r][x] · b[x][c] (a is rows x k, b is k x cols).
inline std::vector<float> product(const std::vector<float>& a, const std::vector<float>& b,
                                  std::size_t rows, std::size_t k, std::size_t cols) {
    std::vector<float> out(rows * cols, 0.0f);
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < cols; ++c) {
            for (std::size_t x = 0; x < k; ++x) {
                out[r * cols + c] += a[r * k + x] * b[x * cols + c];
            }
        }
    }
    return out;
}

} // namespace tessera::test
