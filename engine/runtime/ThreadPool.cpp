#include "engine/runtime/ThreadPool.h"

namespace tessera {

ThreadPool::ThreadPool(unsigned threads) {
    if (threads == 0) {
        threads = std::max(1u, std::thread::hardware_concurrency());
    }
    for (unsigned i = 1; i < threads; ++i) {
        workers_.emplace_back([this, i] { workerLoop(i); });
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

void ThreadPool::runChunk(unsigned index) {
    const std::size_t parts = size();
    const std::size_t begin = n_ * index / parts;
    const std::size_t end = n_ * (index + 1) / parts;
    if (begin < end) {
        try {
            (*body_)(begin, end);
        } catch (...) {
            std::lock_guard lock(mutex_);
            if (!error_ || index < errorChunk_) {
                error_ = std::current_exception();
                errorChunk_ = index;
            }
        }
    }
}

void ThreadPool::workerLoop(unsigned index) {
    std::size_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) {
                return;
            }
            seen = generation_;
        }
        runChunk(index);
        {
            std::lock_guard lock(mutex_);
            if (--pending_ == 0) {
                done_.notify_one();
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
        error_ = nullptr;
        pending_ = static_cast<unsigned>(workers_.size());
        ++generation_;
    }
    wake_.notify_all();
    runChunk(0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    body_ = nullptr;
    if (error_) {
        std::exception_ptr e = error_;
        error_ = nullptr;
        std::rethrow_exception(e);
    }
}

} // namespace tessera
