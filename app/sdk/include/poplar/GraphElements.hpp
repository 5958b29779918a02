// Handles to graph objects: compute sets, vertices, vertex fields, streams.
#ifndef TESSERA_POPLAR_GRAPHELEMENTS_HPP
#define TESSERA_POPLAR_GRAPHELEMENTS_HPP

#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace poplar {

class Graph;
namespace detail {
struct GraphImpl;
struct ProgramImpl;
struct Access;
} // namespace detail

class ComputeSet {
public:
    ComputeSet()
        : id_(~0u) {}
    explicit ComputeSet(unsigned id)
        : id_(id) {}
    unsigned getId() const { return id_; }
    bool operator==(const ComputeSet& o) const { return id_ == o.id_; }

private:
    unsigned id_;
};

class FieldRef {
public:
    FieldRef()
        : graph_(nullptr)
        , vertex_(~0u)
        , index_(~std::size_t(0)) {}
    FieldRef(const Graph* g, unsigned vertex, const std::string& field,
             std::size_t index = ~std::size_t(0))
        : graph_(g)
        , vertex_(vertex)
        , field_(field)
        , index_(index) {}
    // One entry of a vector-list field (Vector<Input<Vector<T>>>).
    FieldRef operator[](std::size_t i) const { return FieldRef(graph_, vertex_, field_, i); }
    const Graph* graph() const { return graph_; }
    unsigned vertexId() const { return vertex_; }
    const std::string& name() const { return field_; }
    bool isIndexed() const { return index_ != ~std::size_t(0); }
    std::size_t index() const { return index_; }

private:
    const Graph* graph_;
    unsigned vertex_;
    std::string field_;
    std::size_t index_;
};

class VertexRef {
public:
    VertexRef()
        : graph_(nullptr)
        , id_(~0u) {}
    VertexRef(const Graph* g, unsigned id)
        : graph_(g)
        , id_(id) {}
    FieldRef operator[](const std::string& field) const { return FieldRef(graph_, id_, field); }
    unsigned getId() const { return id_; }
    const Graph* graph() const { return graph_; }

private:
    const Graph* graph_;
    unsigned id_;
};

class DataStream {
public:
    DataStream()
        : numElements_(0)
        , toDevice_(true) {}
    DataStream(const std::string& handle, const Type& type, std::size_t n, bool toDevice)
        : handle_(handle)
        , type_(type)
        , numElements_(n)
        , toDevice_(toDevice) {}
    const std::string& handle() const { return handle_; }
    Type elementType() const { return type_; }
    std::size_t numElements() const { return numElements_; }
    bool isToDevice() const { return toDevice_; }

private:
    std::string handle_;
    Type type_;
    std::size_t numElements_;
    bool toDevice_;
};

// Host-side memory (the IPU's "remote" DRAM) of `repeats` rows of
// numElements() elements; Graph::addRemoteBuffer makes one.
class RemoteBuffer {
public:
    RemoteBuffer()
        : numElements_(0)
        , repeats_(0) {}
    const std::string& handle() const { return handle_; }
    Type elementType() const { return type_; }
    std::size_t numElements() const { return numElements_; }
    std::size_t getRepeats() const { return repeats_; }
    bool operator==(const RemoteBuffer& o) const {
        return graph_ == o.graph_ && handle_ == o.handle_;
    }
    bool operator!=(const RemoteBuffer& o) const { return !(*this == o); }

private:
    friend struct detail::Access;
    std::shared_ptr<detail::GraphImpl> graph_;
    std::string handle_;
    Type type_;
    std::size_t numElements_;
    std::size_t repeats_;
};

// A program added once to a graph (Graph::addFunction) and run by program::Call.
class Function {
public:
    Function()
        : id_(~0u) {}
    unsigned getId() const { return id_; }
    bool operator==(const Function& o) const { return id_ == o.id_ && body_ == o.body_; }

private:
    friend struct detail::Access;
    unsigned id_;
    std::shared_ptr<detail::ProgramImpl> body_;
};

} // namespace poplar

#endif
