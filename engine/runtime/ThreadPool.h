#pragma once
// A fixed pool that runs index ranges in parallel; the caller's thread takes
// a share too. [0, n) is cut into contiguous chunks, large first and ever
// smaller (their bounds fixed by n and the thread count), that the threads claim one
// at a time, so a thread the OS runs late (the host is shared) leaves its
// chunks to the others instead of holding up the step; which thread runs
// which chunk never changes a result.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <exception>
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
    // all are done. If bodies throw, every other chunk still runs and the
    // exception of the lowest chunk is rethrown here (whatever its type), so
    // which one is reported depends neither on timing nor on the threads.
    void parallelFor(std::size_t n, const std::function<void(std::size_t, std::size_t)>& body);

private:
    void workerLoop();
    void runChunks(); // claims chunks of the current call until none is left

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, idle_;
    // The current call; written under mutex_ before it opens, read by the
    // threads that joined it.
    const std::function<void(std::size_t, std::size_t)>* body_ = nullptr;
    std::size_t n_ = 0;
    std::atomic<std::size_t> next_{0}; // where the next chunk begins
    std::size_t generation_ = 0;
    bool open_ = false;   // workers may still join the current call
    unsigned active_ = 0; // workers inside the current call
    bool stopping_ = false;
    std::exception_ptr error_;
    std::size_t errorBegin_ = 0; // of the chunk whose error_ is kept
};

} // namespace tessera
