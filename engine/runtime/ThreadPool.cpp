#include "engine/runtime/ThreadPool.h"

#include <algorithm>

namespace tessera {

namespace {
// Guided chunks: each claim takes 1 / kShares of a thread's fair share of
// what is left (at least one index), so a call is a few large chunks, then
// ever smaller ones, and the threads finish together. The sizes depend only
// on where a chunk begins, not on which thread claims it. A 512^3 matMul's
// products run as 184 units (a cluster of tiles each): in 16 equal chunks the
// run took 1.54 ms, a unit a chunk 1.43 ms, but a conv2d's 1472 small tiles a
// chunk each cost 12 % in claims (docs/BENCHMARKS.md).
constexpr std::size_t kShares = 2;
} // namespace

ThreadPool::ThreadPool(unsigned threads) {
    if (threads == 0) {
        threads = std::max(1u, std::thread::hardware_concurrency());
    }
    for (unsigned i = 1; i < threads; ++i) {
        workers_.emplace_back([this] { workerLoop(); });
    }
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) {
        t.join();
    }
}

void ThreadPool::runChunks() {
    const std::size_t shares = kShares * size();
    std::size_t begin = next_.load(std::memory_order_relaxed);
    for (;;) {
        std::size_t end = 0;
        do {
            if (begin >= n_) {
                return;
            }
            end = begin + std::max<std::size_t>(1, (n_ - begin) / shares);
        } while (!next_.compare_exchange_weak(begin, end, std::memory_order_relaxed));
        try {
            (*body_)(begin, end);
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!error_ || begin < errorBegin_) {
                error_ = std::current_exception();
                errorBegin_ = begin;
            }
        }
        begin = next_.load(std::memory_order_relaxed);
    }
}

void ThreadPool::workerLoop() {
    std::size_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || (open_ && generation_ != seen); });
            if (stopping_) {
                return;
            }
            seen = generation_;
            ++active_;
        }
        runChunks();
        {
            std::lock_guard lock(mutex_);
            if (--active_ == 0) {
                idle_.notify_one();
            }
        }
    }
}

void ThreadPool::parallelFor(std::size_t n,
                             const std::function<void(std::size_t, std::size_t)>& body) {
    if (n == 0) {
        return;
    }
    if (workers_.empty() || n == 1) {
        body(0, n);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        body_ = &body;
        n_ = n;
        next_.store(0, std::memory_order_relaxed);
        error_ = nullptr;
        open_ = true;
        ++generation_;
    }
    wake_.notify_all();
    runChunks();
    std::unique_lock lock(mutex_);
    open_ = false; // a worker not yet in finds nothing to do and stays asleep
    idle_.wait(lock, [&] { return active_ == 0; });
    body_ = nullptr;
    if (error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

} // namespace tessera
