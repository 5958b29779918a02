#include "NativeKernels.h"

#include <cmath>

namespace tessera::bench::native {

void add(const float* a, const float* b, float* c, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        c[i] = a[i] + b[i];
    }
}

void chain(const float* a, const float* b, const float* c, float* out, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float r = std::fmax(a[i] * b[i] + c[i], 0.0f);
        out[i] = 1.0f / (1.0f + std::exp(a[i] - r)); // sigmoid(r - a)
    }
}

void im2col(const float* image, std::size_t channels, std::size_t h, std::size_t w, std::size_t k,
            std::size_t pad, float* columns) {
    const std::size_t oh = h + 2 * pad - k + 1, ow = w + 2 * pad - k + 1;
    for (std::size_t ch = 0; ch < channels; ++ch) {
        for (std::size_t ky = 0; ky < k; ++ky) {
            for (std::size_t kx = 0; kx < k; ++kx) {
                float* row = columns + ((ch * k + ky) * k + kx) * oh * ow;
                for (std::size_t y = 0; y < oh; ++y) {
                    const long iy = long(y + ky) - long(pad);
                    for (std::size_t x = 0; x < ow; ++x) {
                        const long ix = long(x + kx) - long(pad);
                        const bool inside = iy >= 0 && iy < long(h) && ix >= 0 && ix < long(w);
                        row[y * ow + x] =
                            inside ? image[(ch * h + std::size_t(iy)) * w + std::size_t(ix)] : 0.0f;
                    }
                }
            }
        }
    }
}

} // namespace tessera::bench::native
