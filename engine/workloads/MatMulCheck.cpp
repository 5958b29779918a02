#include "engine/workloads/MatMulCheck.h"

#include "engine/core/LargeArray.h"
#include "engine/runtime/ThreadPool.h"
#include "engine/workloads/HostBlas.h"
#include "engine/workloads/Library.h"

#include <algorithm>
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

// The check's arrays (megabytes each at 2048^3) on huge pages where the
// kernel gives them (LargeVector): fresh 4 KiB pages cost 7-17 us each in a
// guest, 40 ms of a 2048^3 check when these came from the heap.
using Doubles = LargeVector<double>;

// A double matrix, first filled by its user.
Doubles matrix(std::size_t elements) {
    return Doubles(std::max<std::size_t>(elements, 1));
}

struct ResultRun {
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
        const CounterRandom ra(seedA, Type::Float), rb(seedB, Type::Float);
        projectB(ra, rb);
        projectA(ra);
        return projectC();
    }

private:
    static constexpr std::size_t kNone = ~std::size_t{0};
    // Inputs are made a block of rows at a time into one reused buffer: no
    // host copy of A or B, and no page faults for one.
    static constexpr std::size_t kBlockBytes = std::size_t{2} << 20;

    std::size_t blockRows(std::size_t columns) const {
        return std::max<std::size_t>(1, kBlockBytes / sizeof(double) / columns);
    }

    // Y = B.X (k x groups, X's column v being x on group v's columns), the sum
    // of B's column norms over each group, and the sampled rows' reference
    // A[sampled rows].B, a block of B's rows at a time.
    void projectB(const CounterRandom& ra, const CounterRandom& rb) {
        const std::size_t rows = sampled_.size();
        Doubles aRows(rows * k_);
        for (std::size_t r = 0; r < rows; ++r) {
            fillDoubles(ra, sampled_[r] * k_, aRows.data() + r * k_, k_);
        }
        rowsRef_.assign(rows * n_, 0.0);
        y_.assign(k_ * groups_, 0.0);
        Doubles sq(n_, 0.0);
        const std::size_t step = blockRows(n_);
        auto block = matrix(std::min(step, k_) * n_);
        for (std::size_t l0 = 0; l0 < k_; l0 += step) {
            const std::size_t count = std::min(step, k_ - l0);
            pool_.parallelFor(count, [&](std::size_t begin, std::size_t end) {
                fillDoubles(rb, (l0 + begin) * n_, block.data() + begin * n_, (end - begin) * n_);
            });
            pool_.parallelFor(groups_, [&](std::size_t begin, std::size_t end) {
                for (std::size_t l = 0; l < count; ++l) {
                    const double* row = block.data() + l * n_;
                    for (std::size_t v = begin; v < end; ++v) {
                        double sum = 0;
                        for (std::size_t j = v * g_; j < std::min(n_, (v + 1) * g_); ++j) {
                            sum += row[j] * x_[j];
                            sq[j] += row[j] * row[j];
                        }
                        y_[(l0 + l) * groups_ + v] = sum;
                    }
                }
            });
            hostDgemm(rows, n_, count, 1.0, aRows.data() + l0, k_, block.data(), n_, 1.0,
                      rowsRef_.data(), n_);
        }
        normB_.assign(groups_, 0.0);
        for (std::size_t j = 0; j < n_; ++j) {
            normB_[j / g_] += std::sqrt(sq[j]);
        }
    }

    // Z = A.Y and A's row norms, a block of A's rows at a time.
    void projectA(const CounterRandom& ra) {
        z_.assign(m_ * groups_, 0.0);
        normA_.assign(m_, 0.0);
        const std::size_t step = blockRows(k_);
        auto block = matrix(std::min(step, m_) * k_);
        for (std::size_t i0 = 0; i0 < m_; i0 += step) {
            const std::size_t count = std::min(step, m_ - i0);
            pool_.parallelFor(count, [&](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i) {
                    double* row = block.data() + i * k_;
                    fillDoubles(ra, (i0 + i) * k_, row, k_);
                    double sum = 0;
                    for (std::size_t l = 0; l < k_; ++l) {
                        sum += row[l] * row[l];
                    }
                    normA_[i0 + i] = std::sqrt(sum);
                }
            });
            hostDgemm(count, groups_, k_, 1.0, block.data(), k_, y_.data(), groups_, 0.0,
                      z_.data() + i0 * groups_, groups_);
        }
    }

    // One pass over C in tile memory, rows split among the threads: C.x and
    // sum |C| per group, and the sampled rows element by element.
    Verification projectC() {
        std::vector<ResultRun> runs;
        engine_.forEachRun(c_, [&](std::size_t first, std::span<const std::byte> bytes) {
            runs.push_back({first, bytes});
        });
        std::sort(runs.begin(), runs.end(),
                  [](const ResultRun& a, const ResultRun& b) { return a.first < b.first; });
        const double atol = absoluteTolerance(Type::Float, k_),
                     rtol = relativeTolerance(Type::Float);
        w_.assign(m_ * groups_, 0.0);
        absC_.assign(m_ * groups_, 0.0);
        std::vector<std::size_t> counts(m_, 0);
        std::vector<Comparison> parts(m_, Comparison(atol, rtol));
        pool_.parallelFor(m_, [&](std::size_t begin, std::size_t end) {
            const std::size_t lo = begin * n_, hi = end * n_;
            auto it =
                std::upper_bound(runs.begin(), runs.end(), lo,
                                 [](std::size_t v, const ResultRun& r) { return v < r.first; });
            if (it != runs.begin()) {
                --it;
            }
            for (; it != runs.end() && it->first < hi; ++it) {
                const std::size_t count = it->bytes.size() / sizeof(float);
                const std::size_t from = std::max(lo, it->first);
                const std::size_t to = std::min(hi, it->first + count);
                // A row's stretch of the run at a time, a group's part of it
                // at a time (no division per element).
                for (std::size_t idx = from; idx < to;) {
                    const std::size_t i = idx / n_, j0 = idx % n_;
                    const std::size_t j1 = j0 + (std::min(to, (i + 1) * n_) - idx);
                    const std::byte* stretch = it->bytes.data() + (idx - it->first) * sizeof(float);
                    for (std::size_t j = j0; j < j1;) {
                        const std::size_t v = j / g_, groupEnd = std::min(j1, (v + 1) * g_);
                        double sum = 0, abs = 0;
                        for (; j < groupEnd; ++j) {
                            const double value = deviceFloat(Type::Float, stretch, j - j0);
                            sum += value * x_[j];
                            abs += std::fabs(value);
                        }
                        w_[i * groups_ + v] += sum;
                        absC_[i * groups_ + v] += abs;
                    }
                    if (sampleOf_[i] != kNone) {
                        for (std::size_t j = j0; j < j1; ++j) {
                            parts[i].check(i * n_ + j, deviceFloat(Type::Float, stretch, j - j0),
                                           rowsRef_[sampleOf_[i] * n_ + j]);
                        }
                    }
                    counts[i] += j1 - j0;
                    idx += j1 - j0;
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
        // The group furthest beyond its bound (NaN counts as infinitely far);
        // projectionBound's terms, each computed once.
        const double onAB = projectionBound(k_, g_, 1, 0), onC = projectionBound(k_, g_, 0, 1);
        double worst = 0;
        std::size_t worstAt = 0;
        for (std::size_t i = 0; i < m_; ++i) {
            for (std::size_t v = 0; v < groups_; ++v) {
                const std::size_t at = i * groups_ + v;
                const double gap = std::fabs(w_[at] - z_[at]);
                const double bound = onAB * (normA_[i] * normB_[v]) + onC * absC_[at];
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
    Doubles y_, z_, normA_, normB_, rowsRef_, w_, absC_;
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
