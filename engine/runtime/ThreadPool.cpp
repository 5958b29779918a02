#include "engine/runtime/ThreadPool.h"

#include <algorithm>

namespace tessera {

namespace {
// Chunks a thread: enough that one late thread costs little and the last
// chunks even out, few enough that claiming them (an atomic add) is nothing
// beside the work. A 512^3 matMul's products run as 184 units (a cluster of
// tiles each): in 16 chunks of 11 or 12 units the run took 1.54 ms, in 64
// chunks 1.49 ms, a unit a chunk 1.43 ms (two threads, docs/BENCHMARKS.md).
constexpr std::size_t kChunksPerThread = 128;
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
    for (;;) {
        const std::size_t chunk = next_.fetch_add(1, std::memory_order_relaxed);
        if (chunk >= chunks_) {
            return;
        }
        const std::size_t begin = n_ * chunk / chunks_;
        const std::size_t end = n_ * (chunk + 1) / chunks_;
        try {
            (*body_)(begin, end);
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!error_ || chunk < errorChunk_) {
                error_ = std::current_exception();
                errorChunk_ = chunk;
            }
        }
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
        chunks_ = std::min<std::size_t>(n, kChunksPerThread * size());
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
