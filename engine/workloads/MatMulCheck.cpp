#include "engine/workloads/MatMulCheck.h"

#include "engine/runtime/ThreadPool.h"
#include "engine/workloads/Library.h"

#include <cblas.h>

#include <algorithm>
#include <memory>
#include <sstream>

namespace tessera::workloads {

namespace {

// gamma_n = n u / (1 - n u): the relative bound of n roundings to unit u.
double gamma(double n, double u) {
    const double nu = n * u;
    return nu < 1 ? nu / (1 - nu) : INFINITY;
}

constexpr double kFloatUnit = 0x1p-24;
constexpr double kDoubleUnit = 0x1p-53;

// Elements [first, first + count) of an input, as doubles.
void fillDoubles(const CounterRandom& random, std::size_t first, double* out, std::size_t count) {
    constexpr std::size_t kBlock = 1024;
    float block[kBlock];
    for (std::size_t done = 0; done < count; done += kBlock) {
        const std::size_t n = std::min(kBlock, count - done);
        random.values(first + done, {block, n});
        std::copy(block, block + n, out + done);
    }
}

// An uninitialised double matrix, first touched by whoever fills it.
std::unique_ptr<double[]> matrix(std::size_t elements) {
    return std::unique_ptr<double[]>(new double[std::max<std::size_t>(elements, 1)]);
}

struct Run {
    std::size_t first;
    std::span<const std::byte> bytes;
};

Verification fullCheck(const Engine& e, const Tensor& c, std::size_t m, std::size_t k,
                       std::size_t n, std::uint32_t seedA, std::uint32_t seedB) {
    const Type type = c.elementType();
    const std::vector<double> reference =
        hostMatMul(randomDoubles(m * k, seedA, type), randomDoubles(k * n, seedB, type), m, k, n);
    // Checked in tile memory, on the engine's threads: no host copy of C.
    return checkRuns(e, c, absoluteTolerance(type, k), relativeTolerance(type), "C = A.B",
                     [&](std::size_t first, std::span<const std::byte> bytes, Comparison& cmp) {
                         const std::size_t count = bytes.size() / sizeOf(type);
                         for (std::size_t i = 0; i < count; ++i) {
                             cmp.check(first + i, deviceFloat(type, bytes.data(), i),
                                       reference[first + i]);
                         }
                     });
}

class Projection {
public:
    Projection(const Engine& e, const Tensor& c, std::size_t m, std::size_t k, std::size_t n,
               const MatMulCheckOptions& options)
        : engine_(e)
        , c_(c)
        , m_(m)
        , k_(k)
        , n_(n)
        , g_(std::max<std::size_t>(options.groupColumns, 1))
        , groups_((n + g_ - 1) / g_)
        , pool_(e.threads()) {
        const CounterRandom signs(options.signSeed, Type::Float);
        x_.resize(n);
        for (std::size_t j = 0; j < n; ++j) {
            x_[j] = signs.at(j) < 0 ? -1.0 : 1.0;
        }
        const std::size_t rows = std::min(m, std::max<std::size_t>(options.sampledRows, 1));
        sampleOf_.assign(m, kNone);
        for (std::size_t r = 0; r < rows; ++r) { // evenly spread, the first and last among them
            const std::size_t row = rows == 1 ? 0 : r * (m - 1) / (rows - 1);
            if (sampleOf_[row] == kNone) {
                sampleOf_[row] = sampled_.size();
                sampled_.push_back(row);
            }
        }
    }

    Verification check(std::uint32_t seedA, std::uint32_t seedB) {
        makeInputs(seedA, seedB);
        projectB();
        // Z = A.(B.x) and the sampled rows' reference, in double.
        z_ = matrix(m_ * groups_);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m_), int(groups_), int(k_), 1.0,
                    a_.get(), int(k_), y_.get(), int(groups_), 0.0, z_.get(), int(groups_));
        std::vector<double> aRows(sampled_.size() * k_);
        for (std::size_t r = 0; r < sampled_.size(); ++r) {
            std::copy_n(a_.get() + sampled_[r] * k_, k_, aRows.begin() + std::ptrdiff_t(r * k_));
        }
        rowsRef_.assign(sampled_.size() * n_, 0.0);
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(sampled_.size()), int(n_),
                    int(k_), 1.0, aRows.data(), int(k_), b_.get(), int(n_), 0.0, rowsRef_.data(),
                    int(n_));
        a_.reset();
        b_.reset();
        return projectC();
    }

private:
    static constexpr std::size_t kNone = ~std::size_t{0};

    void makeInputs(std::uint32_t seedA, std::uint32_t seedB) {
        const CounterRandom ra(seedA, Type::Float), rb(seedB, Type::Float);
        a_ = matrix(m_ * k_);
        b_ = matrix(k_ * n_);
        normA_.assign(m_, 0.0);
        pool_.parallelFor(m_, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i) {
                double* row = a_.get() + i * k_;
                fillDoubles(ra, i * k_, row, k_);
                double sq = 0;
                for (std::size_t l = 0; l < k_; ++l) {
                    sq += row[l] * row[l];
                }
                normA_[i] = std::sqrt(sq);
            }
        });
        pool_.parallelFor(k_, [&](std::size_t begin, std::size_t end) {
            fillDoubles(rb, begin * n_, b_.get() + begin * n_, (end - begin) * n_);
        });
    }

    // Y = B.X (k x groups, X's column v being x on group v's columns) and the
    // sum of B's column norms over each group.
    void projectB() {
        y_ = matrix(k_ * groups_);
        normB_.assign(groups_, 0.0);
        pool_.parallelFor(groups_, [&](std::size_t begin, std::size_t end) {
            const std::size_t j0 = begin * g_, j1 = std::min(n_, end * g_);
            std::vector<double> sq(j1 - j0, 0.0);
            for (std::size_t l = 0; l < k_; ++l) {
                const double* row = b_.get() + l * n_;
                for (std::size_t v = begin; v < end; ++v) {
                    double sum = 0;
                    for (std::size_t j = v * g_; j < std::min(n_, (v + 1) * g_); ++j) {
                        sum += row[j] * x_[j];
                        sq[j - j0] += row[j] * row[j];
                    }
                    y_[l * groups_ + v] = sum;
                }
            }
            for (std::size_t j = j0; j < j1; ++j) {
                normB_[j / g_] += std::sqrt(sq[j - j0]);
            }
        });
    }

    // One pass over C in tile memory, rows split among the threads: C.x and
    // sum |C| per group, and the sampled rows element by element.
    Verification projectC() {
        std::vector<Run> runs;
        engine_.forEachRun(c_, [&](std::size_t first, std::span<const std::byte> bytes) {
            runs.push_back({first, bytes});
        });
        std::sort(runs.begin(), runs.end(),
                  [](const Run& a, const Run& b) { return a.first < b.first; });
        const double atol = absoluteTolerance(Type::Float, k_),
                     rtol = relativeTolerance(Type::Float);
        w_.assign(m_ * groups_, 0.0);
        absC_.assign(m_ * groups_, 0.0);
        std::vector<std::size_t> counts(m_, 0);
        std::vector<Comparison> parts(m_, Comparison(atol, rtol));
        pool_.parallelFor(m_, [&](std::size_t begin, std::size_t end) {
            const std::size_t lo = begin * n_, hi = end * n_;
            auto it = std::upper_bound(runs.begin(), runs.end(), lo,
                                       [](std::size_t v, const Run& r) { return v < r.first; });
            if (it != runs.begin()) {
                --it;
            }
            for (; it != runs.end() && it->first < hi; ++it) {
                const std::size_t count = it->bytes.size() / sizeof(float);
                const std::size_t from = std::max(lo, it->first);
                const std::size_t to = std::min(hi, it->first + count);
                for (std::size_t idx = from; idx < to; ++idx) {
                    const double value =
                        deviceFloat(Type::Float, it->bytes.data(), idx - it->first);
                    const std::size_t i = idx / n_, j = idx % n_;
                    w_[i * groups_ + j / g_] += value * x_[j];
                    absC_[i * groups_ + j / g_] += std::fabs(value);
                    ++counts[i];
                    if (sampleOf_[i] != kNone) {
                        parts[i].check(idx, value, rowsRef_[sampleOf_[i] * n_ + j]);
                    }
                }
            }
        });
        return verdict(counts, parts);
    }

    Verification verdict(const std::vector<std::size_t>& counts,
                         const std::vector<Comparison>& parts) const {
        const double atol = absoluteTolerance(Type::Float, k_),
                     rtol = relativeTolerance(Type::Float);
        Comparison rows(atol, rtol);
        for (std::size_t row : sampled_) {
            rows.merge(parts[row]);
        }
        Verification result = rows.result("C = A.B", sampled_.size() * n_);
        std::size_t seen = 0;
        for (std::size_t count : counts) {
            seen += count;
        }
        if (seen != m_ * n_) {
            result.passed = false;
            result.detail =
                "C = A.B: " + std::to_string(seen) + " values, expected " + std::to_string(m_ * n_);
            return result;
        }
        // The group furthest beyond its bound (NaN counts as infinitely far).
        double worst = 0;
        std::size_t worstAt = 0;
        for (std::size_t i = 0; i < m_; ++i) {
            for (std::size_t v = 0; v < groups_; ++v) {
                const std::size_t at = i * groups_ + v;
                const double gap = std::fabs(w_[at] - z_[at]);
                const double bound = projectionBound(k_, g_, normA_[i] * normB_[v], absC_[at]);
                const double excess = gap <= bound ? 0 : std::isnan(gap) ? INFINITY : gap / bound;
                if (excess > worst) {
                    worst = excess;
                    worstAt = at;
                }
            }
        }
        std::ostringstream os;
        if (worst > 0) {
            const std::size_t i = worstAt / groups_, v = worstAt % groups_;
            os << "C = A.B: row " << i << ", columns [" << v * g_ << ", "
               << std::min(n_, (v + 1) * g_) << "): C.x is " << w_[worstAt] << ", A.(B.x) is "
               << z_[worstAt] << ", beyond the float rounding bound "
               << projectionBound(k_, g_, normA_[i] * normB_[v], absC_[worstAt]);
            result.passed = false;
            result.detail = os.str() + (rows.result("", sampled_.size() * n_).passed
                                            ? ""
                                            : "; sampled rows: " + result.detail);
            return result;
        }
        if (result.passed) {
            os << "C = A.B: " << m_ * n_ << " values within the float rounding bound (C.x against "
               << "A.(B.x), " << g_ << " columns a group); " << sampled_.size() << " sampled rows, "
               << sampled_.size() * n_ << " values, match (max abs error " << result.maxAbsError
               << ")";
            result.detail = os.str();
        }
        return result;
    }

    const Engine& engine_;
    const Tensor& c_;
    std::size_t m_, k_, n_, g_, groups_;
    ThreadPool pool_;
    std::vector<double> x_;
    std::vector<std::size_t> sampleOf_, sampled_;
    std::unique_ptr<double[]> a_, b_, y_, z_;
    std::vector<double> normA_, normB_, rowsRef_, w_, absC_;
};

} // namespace

double projectionBound(std::size_t k, std::size_t groupColumns, double normsAB, double absC) {
    const double g = double(groupColumns);
    return (gamma(double(k), kFloatUnit) + gamma(double(k) + g + 1, kDoubleUnit)) * normsAB +
           gamma(g, kDoubleUnit) * absC;
}

Verification checkMatMul(const Engine& engine, const Tensor& c, std::size_t m, std::size_t k,
                         std::size_t n, std::uint32_t seedA, std::uint32_t seedB,
                         const MatMulCheckOptions& options) {
    const bool small = std::uint64_t(m) * k * n <= options.fullCheckUpTo;
    if (small || c.elementType() != Type::Float || m == 0 || n == 0 || k == 0 ||
        gamma(double(k), kFloatUnit) > 0.5) {
        return fullCheck(engine, c, m, k, n, seedA, seedB);
    }
    return Projection(engine, c, m, k, n, options).check(seedA, seedB);
}

} // namespace tessera::workloads
