#pragma once
// A fixed pool that runs index ranges in parallel; the caller's thread takes
// a share too. Work is split into equal contiguous chunks, so which thread
// runs which tile never changes a result.
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera {

class ThreadPool {
public:
    explicit ThreadPool(unsigned threads = 0); // 0: one per hardware thread
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
    // Calls body(begin, end) over [0, n) split among the threads; returns when
    // all are done. If bodies throw, the exception of the lowest chunk is
    // rethrown here (whatever its type), so which one is reported does not
    // depend on timing or the number of threads.
    void parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body);

private:
    void workerLoop(unsigned index);
    void runChunk(unsigned index);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
    std::size_t n_ = 0;
    std::size_t generation_ = 0;
    unsigned pending_ = 0;
    bool stopping_ = false;
    std::exception_ptr error_;
    unsigned errorChunk_ = 0;
};

} // namespace tessera
