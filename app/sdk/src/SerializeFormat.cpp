#include "SerializeFormat.h"

#include <poplar/exceptions.hpp>

#include <cstring>
#include <limits>

namespace poplar::detail::format {

namespace {
constexpr std::uint64_t kMaxString = std::uint64_t(1) << 31; // a codelet object at most
constexpr std::uint64_t kMaxRank = 64;
constexpr std::uint64_t kMaxElements = std::uint64_t(1) << 40; // any tensor
constexpr std::uint64_t kMaxRegions = std::uint64_t(1) << 26;
} // namespace

std::uint64_t checksum(const std::string& bytes) {
    std::uint64_t h = 1469598103934665603ull;
    for (unsigned char c : bytes) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

void Writer::u64(std::uint64_t v) {
    unsigned char b[8];
    for (int i = 0; i < 8; ++i) {
        b[i] = static_cast<unsigned char>(v >> (8 * i));
    }
    out_.write(reinterpret_cast<const char*>(b), 8);
}

void Writer::f64(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    u64(bits);
}

void Writer::str(const std::string& s) {
    u64(s.size());
    out_.write(s.data(), static_cast<std::streamsize>(s.size()));
}

void Writer::sizes(const std::vector<std::size_t>& v) {
    u64(v.size());
    for (std::size_t x : v) {
        u64(x);
    }
}

void Writer::tensor(const tessera::Tensor& t) {
    u64(t.valid() ? 1 : 0);
    if (!t.valid()) {
        return;
    }
    sizes(t.shape());
    u64(t.regions().size());
    for (const tessera::VariableRegion& r : t.regions()) {
        u64(r.var.value());
        u64(r.begin);
        u64(r.end);
    }
}

void Writer::connection(const tessera::Connection& c) {
    u64(c.connected ? 1 : 0);
    if (!c.connected) {
        return;
    }
    sizes({c.numElements()});
    u64(c.regions.size());
    for (const tessera::VariableRegion& r : c.regions) {
        u64(r.var.value());
        u64(r.begin);
        u64(r.end);
    }
}

void Reader::damaged(const std::string& what) {
    throw poplar_error("Executable::deserialize: damaged stream: " + what);
}

std::uint64_t Reader::u64() {
    unsigned char b[8];
    in_.read(reinterpret_cast<char*>(b), 8);
    if (!in_) {
        throw poplar_error("Executable::deserialize: the stream ends early");
    }
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) {
        v |= std::uint64_t(b[i]) << (8 * i);
    }
    return v;
}

double Reader::f64() {
    const std::uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, 8);
    return v;
}

std::size_t Reader::below(std::uint64_t limit, const char* what) {
    const std::uint64_t v = u64();
    if (v >= limit) {
        damaged(std::string(what) + " " + std::to_string(v) + " (at most " +
                std::to_string(limit - 1) + ")");
    }
    return static_cast<std::size_t>(v);
}

tessera::Type Reader::type() {
    return static_cast<tessera::Type>(below(tessera::kTypeCount, "element type"));
}

std::string Reader::str() {
    const std::size_t n = below(kMaxString, "string length");
    // Read in chunks so a length the stream does not hold allocates nothing large.
    std::string s;
    constexpr std::size_t kChunk = 1 << 20;
    while (s.size() < n) {
        const std::size_t take = std::min(kChunk, n - s.size());
        const std::size_t at = s.size();
        s.resize(at + take);
        in_.read(s.data() + at, static_cast<std::streamsize>(take));
        if (!in_) {
            throw poplar_error("Executable::deserialize: the stream ends early");
        }
    }
    return s;
}

std::vector<std::size_t> Reader::shape() {
    std::vector<std::size_t> v(below(kMaxRank + 1, "rank"));
    std::uint64_t elements = 1;
    for (std::size_t& x : v) {
        x = below(kMaxElements + 1, "dimension");
        if (x != 0 && elements > kMaxElements / x) {
            damaged("a shape of more than 2^40 elements");
        }
        elements *= x;
    }
    return v;
}

tessera::Tensor Reader::tensor(const tessera::Graph& g) {
    if (!flag("tensor presence flag")) {
        return {};
    }
    const std::vector<std::size_t> dims = shape();
    const std::size_t n = below(kMaxRegions, "region count");
    std::vector<tessera::Tensor> parts;
    std::size_t total = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const auto var =
            tessera::record::idAt<tessera::VariableId>(below(g.variables().size(), "variable"));
        const std::size_t size = g.variable(var).numElements;
        const std::size_t b = below(std::uint64_t(size) + 1, "region start");
        const std::size_t e = below(std::uint64_t(size) + 1, "region end");
        if (e <= b) {
            damaged("an empty or reversed region [" + std::to_string(b) + ", " + std::to_string(e) +
                    ")");
        }
        parts.push_back(g.tensorOf(var).flatten().slice(b, e));
        total += e - b;
    }
    std::size_t elements = 1;
    for (const std::size_t d : dims) {
        elements *= d;
    }
    if (parts.empty() && elements == 0) {
        throw unsupported_feature_error("an empty tensor view in a saved executable");
    }
    if (parts.empty() || total != elements) {
        damaged("a tensor view whose regions hold " + std::to_string(total) +
                " elements for a shape of " + std::to_string(elements));
    }
    const tessera::Tensor flat = parts.size() == 1 ? parts[0] : tessera::concat(parts, 0);
    return flat.reshape(dims);
}

} // namespace poplar::detail::format
