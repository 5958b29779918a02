// Cycle estimators for codelets (Graph::registerPerfEstimator).
#ifndef TESSERA_POPLAR_PERFESTIMATEFUNC_HPP
#define TESSERA_POPLAR_PERFESTIMATEFUNC_HPP

#include <poplar/Target.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace poplar {

struct VertexPerfEstimate {
    VertexPerfEstimate()
        : cycles(0)
        , flops(0) {}
    VertexPerfEstimate(std::uint64_t c, std::uint64_t f = 0)
        : cycles(c)
        , flops(f) {}
    std::uint64_t cycles;
    std::uint64_t flops;
};

// What an estimator sees of one field: its size (elements, or list length).
class FieldData {
public:
    explicit FieldData(std::size_t size)
        : size_(size) {}
    std::size_t size() const { return size_; }

private:
    std::size_t size_;
};

// What an estimator sees of one vertex.
class VertexIntrospector {
public:
    virtual ~VertexIntrospector() {}
    virtual FieldData getFieldInfo(const std::string& name) const = 0;
    virtual std::string getVertexName() const = 0;
};

typedef std::function<VertexPerfEstimate(const VertexIntrospector&, const Target&)>
    PerfEstimateFunc;

} // namespace poplar

#endif
