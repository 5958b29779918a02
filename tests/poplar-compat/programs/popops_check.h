// A small harness for the popops property tests: random inputs from a fixed
// seed, results read back after one run and compared with host references
// computed by the test itself; one summary line per group of checks.
#ifndef POPOPS_CHECK_H
#define POPOPS_CHECK_H

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Cast.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

// A portable generator (std distributions differ between libraries).
struct Rng {
    std::uint64_t s;
    explicit Rng(std::uint64_t seed)
        : s(seed) {}
    std::uint32_t next() {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<std::uint32_t>(s >> 33);
    }
    unsigned below(unsigned n) { return next() % n; }
    int between(int lo, int hi) { return lo + static_cast<int>(below(unsigned(hi - lo + 1))); }
    double uniform(double lo, double hi) { return lo + (hi - lo) * (next() / 2147483648.0); }
};

inline std::size_t count(const std::vector<std::size_t>& shape) {
    std::size_t n = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        n *= shape[i];
    }
    return n;
}

inline std::string shapeText(const std::vector<std::size_t>& shape) {
    std::ostringstream s;
    s << "{";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        s << (i ? "," : "") << shape[i];
    }
    s << "}";
    return s.str();
}

inline float toFloat(double v) {
    return static_cast<float>(v);
}

class Checker {
public:
    Checker(poplar::Graph& g, poplar::program::Sequence& p, Rng& r)
        : graph(g)
        , prog(p)
        , rng(r)
        , next_(0) {}

    // A constant tensor holding `values`, mapped linearly or onto one random tile.
    poplar::Tensor constant(const poplar::Type& type, const std::vector<std::size_t>& shape,
                            const std::vector<double>& values) {
        poplar::Tensor t = graph.addConstant<double>(type, shape, values);
        place(t);
        return t;
    }
    // A variable set to `values` before the run.
    poplar::Tensor variable(const poplar::Type& type, const std::vector<std::size_t>& shape,
                            const std::vector<double>& values) {
        poplar::Tensor t = graph.addVariable(type, shape);
        place(t);
        graph.setInitialValue(t, poplar::ArrayRef<double>(values));
        return t;
    }
    void place(const poplar::Tensor& t) {
        if (rng.below(2) == 0) {
            poputil::mapTensorLinearly(graph, t);
        } else {
            graph.setTileMapping(t, rng.below(graph.getTarget().getNumTiles()));
        }
    }

    // After the run, `t` must hold `expected` (within tol * max(1, |expected|)).
    void expect(const std::string& group, const std::string& what, const poplar::Tensor& t,
                const std::vector<double>& expected, double tol = 0) {
        Entry e;
        e.group = group;
        e.what = what;
        e.expected = expected;
        e.tol = tol;
        e.handle = "check" + std::to_string(next_++);
        e.type = t.elementType();
        poplar::Tensor read = t;
        if (t.elementType() == poplar::HALF || t.elementType() == poplar::BOOL) {
            read = popops::cast(graph, t, poplar::FLOAT, prog);
            e.type = poplar::FLOAT;
        }
        if (read.numElements() != expected.size()) {
            failures_.push_back(group + ": " + what + ": " + std::to_string(read.numElements()) +
                                " elements, expected " + std::to_string(expected.size()));
            return;
        }
        graph.createHostRead(e.handle, read);
        entries_.push_back(e);
        if (order_.count(group) == 0) {
            order_[group] = groups_.size();
            groups_.push_back(group);
        }
    }
    // A group line that is not about values (an exception caught, ...).
    void note(const std::string& group) {
        if (order_.count(group) == 0) {
            order_[group] = groups_.size();
            groups_.push_back(group);
        }
    }
    void fail(const std::string& group, const std::string& message) {
        note(group);
        failures_.push_back(group + ": " + message);
    }

    // An error case: what it is, and a call that must throw poplibs_error.
    struct ErrorCase {
        const char* what;
        std::function<void()> call;
    };
    // Runs each case, printing the ones caught; one that throws nothing
    // fails `group`.
    template <std::size_t N>
    void expectPoplibsErrors(const std::string& group, const ErrorCase (&cases)[N]) {
        for (const ErrorCase& k : cases) {
            try {
                k.call();
                fail(group, std::string(k.what) + ": no exception");
            } catch (const poputil::poplibs_error&) {
                std::cout << "caught poplibs_error: " << k.what << "\n";
            }
        }
        note(group);
    }

    // Runs `prog` and prints "<group>: ok" per group, or the failures.
    int run(const poplar::Device& device) {
        poplar::Engine engine(graph, prog);
        engine.load(device);
        engine.run(0);
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            compare(engine, entries_[i]);
        }
        std::map<std::string, int> bad;
        for (std::size_t i = 0; i < failures_.size(); ++i) {
            bad[failures_[i].substr(0, failures_[i].find(':'))]++;
        }
        for (std::size_t i = 0; i < groups_.size(); ++i) {
            if (bad.count(groups_[i]) == 0) {
                std::cout << groups_[i] << ": ok\n";
            }
        }
        for (std::size_t i = 0; i < failures_.size() && i < 40; ++i) {
            std::cout << "FAIL " << failures_[i] << "\n";
        }
        return failures_.empty() ? 0 : 1;
    }

    poplar::Graph& graph;
    poplar::program::Sequence& prog;
    Rng& rng;

private:
    struct Entry {
        std::string group, what, handle;
        std::vector<double> expected;
        double tol;
        poplar::Type type;
    };

    void compare(poplar::Engine& engine, const Entry& e) {
        std::vector<double> got(e.expected.size());
        if (e.type == poplar::FLOAT) {
            std::vector<float> v(got.size());
            engine.readTensor(e.handle, v.data(), v.data() + v.size());
            got.assign(v.begin(), v.end());
        } else if (e.type == poplar::INT) {
            std::vector<std::int32_t> v(got.size());
            engine.readTensor(e.handle, v.data(), v.data() + v.size());
            got.assign(v.begin(), v.end());
        } else {
            std::vector<std::uint32_t> v(got.size());
            engine.readTensor(e.handle, v.data(), v.data() + v.size());
            got.assign(v.begin(), v.end());
        }
        for (std::size_t i = 0; i < got.size(); ++i) {
            const double x = e.expected[i];
            const bool same = (std::isnan(x) && std::isnan(got[i])) || got[i] == x ||
                              std::fabs(got[i] - x) <= e.tol * std::max(1.0, std::fabs(x));
            if (!same) {
                std::ostringstream s;
                s << e.what << "[" << i << "] = " << got[i] << ", expected " << x;
                failures_.push_back(e.group + ": " + s.str());
                return;
            }
        }
    }

    unsigned next_;
    std::vector<Entry> entries_;
    std::vector<std::string> failures_;
    std::vector<std::string> groups_;
    std::map<std::string, std::size_t> order_;
};

#endif
