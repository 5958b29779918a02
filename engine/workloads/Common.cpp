#include "engine/core/Error.h"
#include "engine/ops/Mapping.h"
#include "engine/workloads/HostBlas.h"
#include "engine/workloads/Library.h"

#include <cmath>
#include <cstring>
#include <limits>
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

void Comparison::fail(std::size_t index, double device, double reference, double err) {
    const double excess = std::isnan(err) ? INFINITY : err;
    if (!failed_ || excess > worstExcess_) {
        worst_ = index;
        worstExcess_ = excess;
        worstDevice_ = device;
        worstReference_ = reference;
    }
    failed_ = true;
}

void Comparison::merge(const Comparison& later) {
    // On a tie the earlier index stays the worst, as in fail().
    if (later.failed_ && (!failed_ || later.worstExcess_ > worstExcess_)) {
        worst_ = later.worst_;
        worstExcess_ = later.worstExcess_;
        worstDevice_ = later.worstDevice_;
        worstReference_ = later.worstReference_;
    }
    failed_ = failed_ || later.failed_;
    maxAbsError_ = std::max(maxAbsError_, later.maxAbsError_);
    count_ += later.count_;
}

Verification Comparison::result(const std::string& what, std::size_t count) const {
    Verification result;
    result.passed = !failed_ && count_ == count;
    result.maxAbsError = maxAbsError_;
    std::ostringstream os;
    if (count_ != count) {
        os << what << ": " << count_ << " values, expected " << count;
    } else if (result.passed) {
        os << what << ": " << count_ << " values match (max abs error " << maxAbsError_ << ")";
    } else {
        os << what << ": element " << worst_ << " is " << worstDevice_ << ", expected "
           << worstReference_;
    }
    result.detail = os.str();
    return result;
}

Tensor hostInput(Graph& g, Type type, const std::vector<std::size_t>& shape,
                 const std::string& name, std::size_t grain) {
    Tensor t = g.addVariable(type, shape, name);
    ops::mapLinearly(g, t, grain);
    g.createHostWrite(name, t);
    return t;
}

std::vector<float> readFloats(const Engine& engine, const Tensor& t) {
    if (t.elementType() == Type::Float) {
        return engine.read<float>(t);
    }
    const std::vector<double> values = engine.readValues(t);
    return {values.begin(), values.end()};
}

std::vector<double> toDouble(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

Verification compare(const std::vector<double>& device, const std::vector<double>& reference,
                     double atol, double rtol, const std::string& what) {
    Comparison comparison(atol, rtol);
    for (std::size_t i = 0; i < device.size() && i < reference.size(); ++i) {
        comparison.check(i, device[i], reference[i]);
    }
    if (device.size() != reference.size()) { // as before: the sizes are the message
        Verification v = comparison.result(what, std::min(device.size(), reference.size()));
        std::ostringstream os;
        os << what << ": " << device.size() << " values, expected " << reference.size();
        v.passed = false;
        v.detail = os.str();
        return v;
    }
    return comparison.result(what, reference.size());
}

Verification compareFloats(const std::vector<float>& device, const std::vector<double>& reference,
                           double atol, double rtol, const std::string& what) {
    if (device.size() != reference.size()) {
        return compare(toDouble(device), reference, atol, rtol, what);
    }
    Comparison comparison(atol, rtol);
    for (std::size_t i = 0; i < device.size(); ++i) {
        comparison.check(i, device[i], reference[i]);
    }
    return comparison.result(what, reference.size());
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
    if (m == 0 || n == 0 || k == 0) {
        return c;
    }
    // Double precision: the reference's own rounding (about 1e-16 relative)
    // is far below the float tolerances it is compared with.
    hostDgemm(m, n, k, 1.0, a.data(), k, b.data(), n, 0.0, c.data(), n);
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
            // Below the smallest normal double, zero: 300 orders of magnitude
            // under any tolerance, and subnormal operands made attention's
            // next product (probabilities times V, 2048^3) take 2.4 s, not 0.23.
            const double p = out[r * cols + c] / sum;
            out[r * cols + c] = p < std::numeric_limits<double>::min() ? 0.0 : p;
        }
    }
    return out;
}

void writeFloats(Engine& engine, const Tensor& t, const std::vector<float>& values) {
    if (t.elementType() == Type::Float) {
        engine.write<float>(t, values);
        return;
    }
    std::vector<double> d(values.begin(), values.end());
    engine.writeValues(t, d);
}

} // namespace tessera::workloads
