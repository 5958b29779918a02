// Shared by the poplin/poprand/gcl programs: a deterministic generator, half
// decoding, and checks that compare a device tensor, read after the run,
// with a host reference and print one line each.
#ifndef POPLIN_CHECK_H
#define POPLIN_CHECK_H

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/exceptions.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

// A small linear congruential generator, the same on every platform.
struct Lcg {
    std::uint64_t state;
    explicit Lcg(std::uint64_t seed)
        : state(seed) {}
    std::uint32_t next() {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>(state >> 33);
    }
    // An integer in [lo, hi].
    int range(int lo, int hi) {
        return lo + static_cast<int>(next() % static_cast<std::uint32_t>(hi - lo + 1));
    }
    // A multiple of 1/8 in [-2, 2]: exact in half and float, and so are the
    // small sums of products the programs form.
    double eighth() { return range(-16, 16) / 8.0; }
};

inline float halfToFloat(std::uint16_t h) {
    const int sign = (h >> 15) & 1, exponent = (h >> 10) & 31, mantissa = h & 1023;
    float v;
    if (exponent == 0) {
        v = std::ldexp(static_cast<float>(mantissa), -24);
    } else if (exponent == 31) {
        v = mantissa ? NAN : INFINITY;
    } else {
        v = std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
    }
    return sign ? -v : v;
}

inline std::string shapeOf(const std::vector<std::size_t>& s) {
    std::ostringstream os;
    os << "{";
    for (std::size_t i = 0; i < s.size(); ++i) {
        os << (i ? "," : "") << s[i];
    }
    os << "}";
    return os.str();
}

// Device tensors read back after the run and compared with references.
class Checks {
public:
    explicit Checks(poplar::Graph& graph)
        : graph_(graph) {}

    // `tolerance` is relative to max(1, |expected|); 0 asks for equality.
    void expect(const std::string& label, const poplar::Tensor& t,
                const std::vector<double>& expected, double tolerance = 0) {
        Item item;
        item.label = label;
        item.handle = "check" + std::to_string(items_.size());
        item.type = t.elementType();
        item.expected = expected;
        item.tolerance = tolerance;
        item.count = t.numElements();
        graph_.createHostRead(item.handle, t);
        items_.push_back(item);
    }

    // Reads every tensor and prints "<label>: ok" or the first mismatch.
    // Returns the number of failures.
    int report(poplar::Engine& engine) {
        int failures = 0;
        for (std::size_t i = 0; i < items_.size(); ++i) {
            const Item& item = items_[i];
            const std::vector<double> got = read(engine, item);
            std::string problem;
            if (got.size() != item.expected.size()) {
                problem = "has " + std::to_string(got.size()) + " elements, expected " +
                          std::to_string(item.expected.size());
            }
            for (std::size_t j = 0; problem.empty() && j < got.size(); ++j) {
                const double want = item.expected[j];
                const double scale = std::fabs(want) > 1 ? std::fabs(want) : 1;
                if (!(std::fabs(got[j] - want) <= item.tolerance * scale)) {
                    std::ostringstream os;
                    os << "element " << j << " is " << got[j] << ", expected " << want;
                    problem = os.str();
                }
            }
            if (problem.empty()) {
                std::cout << item.label << ": ok\n";
            } else {
                std::cout << item.label << ": MISMATCH " << problem << "\n";
                ++failures;
            }
        }
        return failures;
    }

    // Raw values of a check, for programs that test statistics.
    std::vector<double> values(poplar::Engine& engine, std::size_t index) {
        return read(engine, items_.at(index));
    }
    std::size_t size() const { return items_.size(); }

private:
    struct Item {
        std::string label, handle;
        poplar::Type type;
        std::vector<double> expected;
        double tolerance;
        std::size_t count;
    };

    static std::vector<double> read(poplar::Engine& engine, const Item& item) {
        std::vector<double> out(item.count);
        if (item.type == poplar::FLOAT) {
            std::vector<float> v(item.count);
            engine.readTensor(item.handle, v.data(), v.data() + v.size());
            out.assign(v.begin(), v.end());
        } else if (item.type == poplar::HALF) {
            std::vector<std::uint16_t> v(item.count);
            engine.readTensor(item.handle, v.data(), v.data() + v.size());
            for (std::size_t j = 0; j < v.size(); ++j) {
                out[j] = halfToFloat(v[j]);
            }
        } else if (item.type == poplar::INT) {
            std::vector<int> v(item.count);
            engine.readTensor(item.handle, v.data(), v.data() + v.size());
            out.assign(v.begin(), v.end());
        } else if (item.type == poplar::UNSIGNED_INT) {
            std::vector<unsigned> v(item.count);
            engine.readTensor(item.handle, v.data(), v.data() + v.size());
            out.assign(v.begin(), v.end());
        } else if (item.type == poplar::BOOL) {
            std::vector<unsigned char> v(item.count);
            engine.readTensor(item.handle, v.data(), v.data() + v.size());
            out.assign(v.begin(), v.end());
        }
        return out;
    }

    poplar::Graph& graph_;
    std::vector<Item> items_;
};

#endif
