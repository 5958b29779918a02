// Workload inputs made in place and results checked in place, run by run on
// the engine's thread count: no host copy of a large tensor, and neither the
// values nor the verdict depend on the threads (each element's input is a
// function of its index; comparisons merge in element order).
#include "engine/runtime/ThreadPool.h"
#include "engine/workloads/Library.h"

#include <algorithm>
#include <cstring>

namespace tessera::workloads {

namespace {

// Runs grouped into contiguous batches of at least this many bytes, so a
// tensor of many small runs costs no task per run.
constexpr std::size_t kBatchBytes = std::size_t{1} << 18;

template <typename Byte>
struct ByteRun {
    std::size_t first;
    std::span<Byte> bytes;
};

// Starts of the batches of `runs`, and runs.size() last.
template <typename Byte>
std::vector<std::size_t> batches(const std::vector<ByteRun<Byte>>& runs) {
    std::vector<std::size_t> starts;
    std::size_t bytes = kBatchBytes;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (bytes >= kBatchBytes) {
            starts.push_back(i);
            bytes = 0;
        }
        bytes += runs[i].bytes.size();
    }
    starts.push_back(runs.size());
    return starts;
}

void fillRun(const CounterRandom& random, Type type, std::size_t first, std::span<std::byte> run) {
    const std::size_t size = sizeOf(type);
    const std::size_t count = run.size() / size;
    // Made a block at a time on the stack and copied in: tile memory need not
    // be aligned for the element type.
    constexpr std::size_t kBlock = 1024;
    for (std::size_t done = 0; done < count; done += kBlock) {
        const std::size_t n = std::min(kBlock, count - done);
        std::byte* p = run.data() + done * size;
        if (type == Type::Float) {
            float block[kBlock];
            random.values(first + done, {block, n});
            std::memcpy(p, block, n * sizeof(float));
        } else if (type == Type::Half) {
            std::uint16_t block[kBlock];
            random.halfValues(first + done, {block, n});
            std::memcpy(p, block, n * sizeof(std::uint16_t));
        } else {
            for (std::size_t i = 0; i < n; ++i) {
                storeFromDouble(type, p + i * size, random.at(first + done + i));
            }
        }
    }
}

} // namespace

std::vector<float> randomValues(std::size_t n, std::uint32_t seed, Type type, float lo, float hi) {
    std::vector<float> v(n);
    CounterRandom(seed, type, lo, hi).values(0, v);
    return v;
}

std::vector<double> randomDoubles(std::size_t n, std::uint32_t seed, Type type, float lo,
                                  float hi) {
    const CounterRandom random(seed, type, lo, hi);
    std::vector<double> v(n);
    constexpr std::size_t kBlock = 1024;
    float block[kBlock];
    for (std::size_t done = 0; done < n; done += kBlock) {
        const std::size_t count = std::min(kBlock, n - done);
        random.values(done, {block, count});
        std::copy(block, block + count, v.begin() + static_cast<std::ptrdiff_t>(done));
    }
    return v;
}

void fillRandom(Engine& engine, const Tensor& t, std::uint32_t seed, float lo, float hi) {
    const Type type = t.elementType();
    const CounterRandom random(seed, type, lo, hi);
    std::vector<ByteRun<std::byte>> runs;
    engine.forEachRun(t, [&](std::size_t first, std::span<std::byte> bytes) {
        runs.push_back({first, bytes});
    });
    const std::vector<std::size_t> starts = batches(runs);
    ThreadPool pool(engine.threads());
    pool.parallelFor(starts.size() - 1, [&](std::size_t begin, std::size_t end) {
        for (std::size_t r = starts[begin]; r < starts[end]; ++r) {
            fillRun(random, type, runs[r].first, runs[r].bytes);
        }
    });
}

Verification checkRuns(const Engine& engine, const Tensor& t, double atol, double rtol,
                       const std::string& what, const RunCheck& check) {
    std::vector<ByteRun<const std::byte>> runs;
    engine.forEachRun(t, [&](std::size_t first, std::span<const std::byte> bytes) {
        runs.push_back({first, bytes});
    });
    const std::vector<std::size_t> starts = batches(runs);
    std::vector<Comparison> parts(starts.size() - 1, Comparison(atol, rtol));
    ThreadPool pool(engine.threads());
    pool.parallelFor(parts.size(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t b = begin; b < end; ++b) {
            for (std::size_t r = starts[b]; r < starts[b + 1]; ++r) {
                check(runs[r].first, runs[r].bytes, parts[b]);
            }
        }
    });
    Comparison all(atol, rtol);
    for (const Comparison& part : parts) {
        all.merge(part);
    }
    return all.result(what, t.numElements());
}

} // namespace tessera::workloads
