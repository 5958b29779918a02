// Host callbacks for data streams (Engine::connectStreamToCallback).
#ifndef TESSERA_POPLAR_STREAMCALLBACK_HPP
#define TESSERA_POPLAR_STREAMCALLBACK_HPP

#include <functional>
#include <memory>

namespace poplar {

class StreamCallback {
public:
    enum class Result { Success, NotAvailable };
    virtual ~StreamCallback() {}
    // May fill `p` ahead of time; NotAvailable means fetch() will be called.
    virtual Result prefetch(void* p) = 0;
    // Fills (host-to-device) or consumes (device-to-host) one transfer at `p`.
    virtual void fetch(void* p) = 0;
    // The transfer that used the data has completed.
    virtual void complete() = 0;
    virtual void invalidatePrefetched() {}
};

// A callback with only fetch(): no prefetching.
class LegacyStreamCallback : public StreamCallback {
public:
    Result prefetch(void*) override { return Result::NotAvailable; }
    void complete() override {}
};

// A callback made from a function.
class StreamCallbackFunction : public LegacyStreamCallback {
public:
    explicit StreamCallbackFunction(const std::function<void(void*)>& f)
        : f_(f) {}
    void fetch(void* p) override { f_(p); }

private:
    std::function<void(void*)> f_;
};

typedef std::unique_ptr<StreamCallback> StreamCallbackHandle;

} // namespace poplar

#endif
