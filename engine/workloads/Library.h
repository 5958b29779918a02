#pragma once
// The built-in workloads and helpers they share (inputs, host references,
// comparison with tolerances).
#include "engine/workloads/FastHalf.h"
#include "engine/workloads/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tessera::workloads {

const Workload& matmulWorkload();
const Workload& elementwiseWorkload();
const Workload& reduceWorkload();
const Workload& softmaxWorkload();
const Workload& conv2dWorkload();
const Workload& mlpTrainWorkload();
const Workload& attentionWorkload();
const Workload& gatherScatterWorkload();
const Workload& stressWorkload();

// Deterministic inputs in [lo, hi), rounded to `type` so host and device
// start from the same values.
std::vector<float> randomValues(std::size_t n, std::uint32_t seed, Type type, float lo = -1,
                                float hi = 1);
// The numbers randomValues(n, seed, type, lo, hi) holds, one at a time, so a
// large input can be made (and made again to check a result) without a host copy.
class RandomStream {
public:
    RandomStream(std::uint32_t seed, Type type, float lo = -1, float hi = 1)
        : rng_(seed)
        , type_(type)
        , lo_(lo)
        , scale_(hi - lo) {}
    float next() {
        // Built from the raw 32-bit output, so every standard library gives the same numbers.
        const float x =
            lo_ + scale_ * static_cast<float>(rng_() >> 8) / static_cast<float>(1u << 24);
        return type_ == Type::Half ? roundToHalf(x) : x;
    }

private:
    std::mt19937 rng_;
    Type type_;
    float lo_, scale_;
};
// Writes randomValues(t.numElements(), seed, t's type, lo, hi) straight into
// the tensor's tile memory.
void fillRandom(Engine& engine, const Tensor& t, std::uint32_t seed, float lo = -1, float hi = 1);

// Compares device values with references one at a time, as compare() does.
class Comparison {
public:
    Comparison(double atol, double rtol)
        : atol_(atol)
        , rtol_(rtol) {}
    void check(std::size_t index, double device, double reference) {
        const double err = std::fabs(device - reference);
        if (!(err <= atol_ + rtol_ * std::fabs(reference))) { // also catches NaN
            fail(index, device, reference, err);
        }
        maxAbsError_ = std::max(maxAbsError_, std::isnan(err) ? INFINITY : err);
        ++count_;
    }
    // count: how many values the reference has.
    Verification result(const std::string& what, std::size_t count) const;

private:
    void fail(std::size_t index, double device, double reference, double err);
    double atol_, rtol_;
    double maxAbsError_ = 0;
    std::size_t count_ = 0;
    bool failed_ = false;
    std::size_t worst_ = 0;
    double worstExcess_ = 0, worstDevice_ = 0, worstReference_ = 0;
};

// A tensor's values as floats (of any element type).
std::vector<float> readFloats(const Engine& engine, const Tensor& t);

// Rounds each value to what `type` can hold.
std::vector<float> roundTo(const std::vector<float>& v, Type type);

// Compares device against reference with |d - r| <= atol + rtol * |r|.
Verification compare(const std::vector<double>& device, const std::vector<double>& reference,
                     double atol, double rtol, const std::string& what);
// The same for device values read as floats (no double copy of them).
Verification compareFloats(const std::vector<float>& device, const std::vector<double>& reference,
                           double atol, double rtol, const std::string& what);
// Tolerances that fit a type and an accumulation length.
double absoluteTolerance(Type type, std::size_t accumulation);
double relativeTolerance(Type type);

// Host references (double accumulation; the matrix product by OpenBLAS dgemm,
// row-major).
std::vector<double> hostMatMul(const std::vector<double>& a, const std::vector<double>& b,
                               std::size_t m, std::size_t k, std::size_t n);
std::vector<double> hostSoftmaxRows(const std::vector<double>& x, std::size_t rows,
                                    std::size_t cols);
std::vector<double> toDouble(const std::vector<float>& v);

// Writes values to a tensor through its host-write handle.
void writeFloats(Engine& engine, const Tensor& t, const std::vector<float>& values);

} // namespace tessera::workloads
