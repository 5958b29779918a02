#pragma once
// The built-in workloads and helpers they share (inputs, host references,
// comparison with tolerances).
#include "engine/workloads/Workload.h"

#include <cstdint>
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
// Rounds each value to what `type` can hold.
std::vector<float> roundTo(const std::vector<float>& v, Type type);

// Compares device against reference with |d - r| <= atol + rtol * |r|.
Verification compare(const std::vector<double>& device, const std::vector<double>& reference,
                     double atol, double rtol, const std::string& what);
// Tolerances that fit a type and an accumulation length.
double absoluteTolerance(Type type, std::size_t accumulation);
double relativeTolerance(Type type);

// Host references (double accumulation).
std::vector<double> hostMatMul(const std::vector<double>& a, const std::vector<double>& b,
                               std::size_t m, std::size_t k, std::size_t n);
std::vector<double> hostSoftmaxRows(const std::vector<double>& x, std::size_t rows,
                                    std::size_t cols);
std::vector<double> toDouble(const std::vector<float>& v);

// Writes values to a tensor through its host-write handle.
void writeFloats(Engine& engine, const Tensor& t, const std::vector<float>& values);

} // namespace tessera::workloads
