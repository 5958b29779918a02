#pragma once
// The byte level of a saved executable (Serialize.h): little-endian 64-bit
// integers, length-prefixed strings and tensor views by variable regions.
// The reader bounds every count and index it reads, so a damaged stream is a
// poplar_error naming what is wrong, never a crash or a huge allocation.
#include "engine/graph/Graph.h"

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace poplar::detail::format {

// "TSRX" + format version. 0003: codelet object checksums, generated codelet
// recipes, remote buffers. 0004: the library function that opened a Block.
inline constexpr char kMagic[8] = {'T', 'S', 'R', 'X', '0', '0', '0', '4'};

std::uint64_t checksum(const std::string& bytes); // FNV-1a, 64 bits

class Writer {
public:
    explicit Writer(std::ostream& out)
        : out_(out) {}
    void u64(std::uint64_t v);
    void f64(double v);
    void str(const std::string& s);
    void sizes(const std::vector<std::size_t>& v);
    void tensor(const tessera::Tensor& t);
    // A vertex field's connection, as tensor() writes it: the graph keeps a
    // connection's regions, not its view's shape, so the shape is 1-D.
    void connection(const tessera::Connection& c);

private:
    std::ostream& out_;
};

class Reader {
public:
    explicit Reader(std::istream& in)
        : in_(in) {}
    std::uint64_t u64();
    double f64();
    // A count or index below `limit`; `what` names it in the error.
    std::size_t below(std::uint64_t limit, const char* what);
    bool flag(const char* what) { return below(2, what) != 0; }
    tessera::Type type();
    std::string str();
    std::vector<std::size_t> shape();
    // A tensor view of `g`'s variables; checked against them.
    tessera::Tensor tensor(const tessera::Graph& g);

    [[noreturn]] static void damaged(const std::string& what);

private:
    std::istream& in_;
};

} // namespace poplar::detail::format
