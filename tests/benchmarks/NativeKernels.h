#pragma once
// The host references of the engine benchmarks that are plain loops, built in
// their own translation unit with -O3 -march=native (tests/benchmarks/
// CMakeLists.txt), so the compiler vectorises them for this host's CPU.
#include <cstddef>

namespace tessera::bench::native {

// c = a + b.
void add(const float* a, const float* b, float* c, std::size_t n);
// out = sigmoid(relu(a * b + c) - a): the elementwise workload's chain, fused.
void chain(const float* a, const float* b, const float* c, float* out, std::size_t n);
// The im2col matrix of one image [channels][h][w] for a k x k kernel, stride
// 1, `pad` zeros each side: rows (channel, ky, kx), columns (y, x) of the
// output, so weights [cout][channels * k * k] times it is the convolution.
void im2col(const float* image, std::size_t channels, std::size_t h, std::size_t w, std::size_t k,
            std::size_t pad, float* columns);

} // namespace tessera::bench::native
