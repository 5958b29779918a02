#pragma once
// The built-in workloads and helpers they share (inputs, host references,
// comparison with tolerances).
#include "engine/workloads/FastHalf.h"
#include "engine/workloads/RandomInputs.h"
#include "engine/workloads/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace tessera::workloads {

// The largest value a workload's shape parameter (rows, batch, ...) accepts.
inline constexpr std::uint64_t kMaxDim = 65536;

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
// start from the same values: element i is CounterRandom(seed, type, lo, hi).at(i).
std::vector<float> randomValues(std::size_t n, std::uint32_t seed, Type type, float lo = -1,
                                float hi = 1);
// The same values as doubles, made without a float copy (for host references).
std::vector<double> randomDoubles(std::size_t n, std::uint32_t seed, Type type, float lo = -1,
                                  float hi = 1);
// Writes randomValues(t.numElements(), seed, t's type, lo, hi) straight into
// the tensor's tile memory, runs in parallel on the engine's thread count.
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
    // Adds the checks of `later`, all of whose indices follow this one's: the
    // result is that of one comparison making both sets of checks in order.
    void merge(const Comparison& later);

private:
    void fail(std::size_t index, double device, double reference, double err);
    double atol_, rtol_;
    double maxAbsError_ = 0;
    std::size_t count_ = 0;
    bool failed_ = false;
    std::size_t worst_ = 0;
    double worstExcess_ = 0, worstDevice_ = 0, worstReference_ = 0;
};

// Compares a tensor's device values run by run in parallel on the engine's
// thread count: check(first element of the run, the run's bytes, comparison)
// checks the run's elements in order. The runs' comparisons are merged in
// element order, so the result does not depend on the threads.
using RunCheck = std::function<void(std::size_t, std::span<const std::byte>, Comparison&)>;
Verification checkRuns(const Engine& engine, const Tensor& t, double atol, double rtol,
                       const std::string& what, const RunCheck& check);

// Element i of a run of float or half values in tile memory.
inline float deviceFloat(Type type, const std::byte* run, std::size_t i) {
    if (type == Type::Half) {
        std::uint16_t h;
        std::memcpy(&h, run + i * sizeof h, sizeof h);
        return halfToFloat(h);
    }
    float f;
    std::memcpy(&f, run + i * sizeof f, sizeof f);
    return f;
}

// A variable the host writes through the handle `name`, mapped linearly over
// the tiles in runs of `grain` elements.
Tensor hostInput(Graph& g, Type type, const std::vector<std::size_t>& shape,
                 const std::string& name, std::size_t grain);

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
// Row-wise softmax; probabilities below the smallest normal double are 0.
std::vector<double> hostSoftmaxRows(const std::vector<double>& x, std::size_t rows,
                                    std::size_t cols);
std::vector<double> toDouble(const std::vector<float>& v);

// Writes values to a tensor through its host-write handle.
void writeFloats(Engine& engine, const Tensor& t, const std::vector<float>& values);

} // namespace tessera::workloads
