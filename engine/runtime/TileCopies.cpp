#include "engine/runtime/TileCopies.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace tessera::runtime {

namespace {

std::uintptr_t address(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p);
}

#if defined(__x86_64__)
constexpr std::size_t kLine = 64;

// Reads the bytes of a run of ops in order, crossing from one op to the next.
class Cursor {
public:
    explicit Cursor(const CopyOp* ops)
        : op_(ops) {}
    // Bytes left in the current op.
    std::size_t available() const { return op_->bytes - offset_; }
    const std::byte* here() const { return op_->source + offset_; }
    // Copies the next `n` bytes of the run to `out`.
    void take(std::byte* out, std::size_t n) {
        while (n > 0) {
            const std::size_t piece = std::min(n, available());
            std::memcpy(out, here(), piece);
            out += piece;
            n -= piece;
            skip(piece);
        }
    }
    void skip(std::size_t n) {
        offset_ += n;
        if (offset_ == op_->bytes) {
            ++op_;
            offset_ = 0;
        }
    }

private:
    const CopyOp* op_;
    std::size_t offset_ = 0;
};

void streamLine(std::byte* destination, const std::byte* source) {
    const auto* s = reinterpret_cast<const __m128i*>(source);
    auto* d = reinterpret_cast<__m128i*>(destination);
    const __m128i v0 = _mm_loadu_si128(s);
    const __m128i v1 = _mm_loadu_si128(s + 1);
    const __m128i v2 = _mm_loadu_si128(s + 2);
    const __m128i v3 = _mm_loadu_si128(s + 3);
    _mm_stream_si128(d, v0);
    _mm_stream_si128(d + 1, v1);
    _mm_stream_si128(d + 2, v2);
    _mm_stream_si128(d + 3, v3);
}

// ops[0, n): destinations contiguous from ops[0].destination, `total` bytes.
void streamRange(const CopyOp* ops, std::size_t total) {
    std::byte* destination = ops[0].destination;
    Cursor cursor(ops);
    const std::size_t head = std::min(total, (kLine - address(destination) % kLine) % kLine);
    cursor.take(destination, head);
    destination += head;
    total -= head;
    alignas(kLine) std::byte line[kLine];
    for (; total >= kLine; total -= kLine, destination += kLine) {
        if (cursor.available() >= kLine) {
            streamLine(destination, cursor.here());
            cursor.skip(kLine);
        } else {
            cursor.take(line, kLine);
            streamLine(destination, line);
        }
    }
    cursor.take(destination, total);
}
#endif

} // namespace

void copyRuns(const std::vector<CopyOp>& ops) {
    if (ops.empty()) {
        return;
    }
    std::byte* destination = ops[0].destination;
    const std::byte* source = ops[0].source;
    std::size_t bytes = ops[0].bytes;
    for (std::size_t i = 1; i < ops.size(); ++i) {
        const CopyOp& op = ops[i];
        const std::size_t merged = bytes + op.bytes;
        // Only while the merged ranges stay apart, so the order of the copies
        // inside a run cannot matter.
        const auto d = address(destination);
        const auto src = address(source);
        if (address(op.destination) == d + bytes && address(op.source) == src + bytes &&
            (d + merged <= src || src + merged <= d)) {
            bytes = merged;
            continue;
        }
        std::memcpy(destination, source, bytes);
        destination = op.destination;
        source = op.source;
        bytes = op.bytes;
    }
    std::memcpy(destination, source, bytes);
}

void streamRuns(const std::vector<CopyOp>& ops) {
#if defined(__x86_64__)
    for (std::size_t i = 0; i < ops.size();) {
        std::size_t total = ops[i].bytes, j = i + 1;
        while (j < ops.size() && ops[j].destination == ops[i].destination + total) {
            total += ops[j].bytes;
            ++j;
        }
        if (total > 0) {
            streamRange(&ops[i], total);
        }
        i = j;
    }
    // Non-temporal stores are weakly ordered: make them visible before the
    // pool's barrier hands the step to the compute phase.
    _mm_sfence();
#else
    copyRuns(ops);
#endif
}

namespace {
std::atomic<Streaming> streamingMode{Streaming::Auto};
}

void setStreaming(Streaming mode) {
    streamingMode = mode;
}

bool worthStreaming(std::size_t bytes) {
    static const std::size_t cache = [] {
        const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
        return l3 > 0 ? static_cast<std::size_t>(l3) : std::size_t{32} << 20;
    }();
    switch (streamingMode.load()) {
    case Streaming::Always:
        return true;
    case Streaming::Never:
        return false;
    case Streaming::Auto:
        break;
    }
    return bytes > cache;
}

} // namespace tessera::runtime
