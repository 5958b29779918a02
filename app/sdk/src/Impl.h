#pragma once
// What the public poplar:: handles point at: the engine's own objects. Only
// the compat libraries include this (C++20); user code never sees it.
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/target/Target.h"

#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar::detail {

struct TargetImpl {
    tessera::Target target;
};

struct TensorImpl {
    tessera::Tensor tensor;
};

struct ProgramImpl {
    tessera::program::Program program;
};

struct ExecutableImpl;

struct GraphImpl {
    explicit GraphImpl(const tessera::Target& t)
        : graph(t)
        , target() {}
    tessera::Graph graph;
    poplar::Target target;
    std::vector<std::string> codeletObjects; // shared objects addCodelets loaded
};

// Libraries with codelets of their own (popops, popnn) register a function
// adding them to a graph, so a deserialised executable finds them.
void registerCodeletProvider(void (*provider)(tessera::Graph&));
void addProvidedCodelets(tessera::Graph& graph);

// Friend of every handle: converts between handles and engine objects.
struct Access {
    static const tessera::Target& target(const poplar::Target& t) { return t.impl_->target; }
    static poplar::Target makeTarget(const tessera::Target& t) {
        poplar::Target out;
        out.impl_ = std::make_shared<TargetImpl>(TargetImpl{t});
        return out;
    }

    static const tessera::Tensor& tensor(const poplar::Tensor& t);
    static poplar::Tensor makeTensor(tessera::Tensor t) {
        poplar::Tensor out;
        out.impl_ = std::make_shared<TensorImpl>(TensorImpl{std::move(t)});
        return out;
    }
    static std::vector<tessera::Tensor> tensors(const std::vector<poplar::Tensor>& ts) {
        std::vector<tessera::Tensor> out;
        out.reserve(ts.size());
        for (const poplar::Tensor& t : ts) {
            out.push_back(tensor(t));
        }
        return out;
    }

    static const tessera::program::Program& program(const poplar::program::Program& p) {
        return p.impl_->program;
    }
    static void setProgram(poplar::program::Program& p, tessera::program::Program engine) {
        p.impl_ = std::make_shared<ProgramImpl>(ProgramImpl{std::move(engine)});
    }

    static GraphImpl& graph(const poplar::Graph& g);
    static ExecutableImpl& executable(poplar::Executable& e);
    static void setExecutable(poplar::Executable& e, std::unique_ptr<ExecutableImpl> impl);
    static const std::shared_ptr<GraphImpl>& graphPtr(const poplar::Graph& g) { return g.impl_; }
};

// Runs an engine library operation that appends to a tessera Sequence, and
// appends what it added to the Poplar sequence `seq`.
template <typename F>
auto intoSequence(poplar::program::Sequence& seq, F&& f)
    -> decltype(f(std::declval<tessera::program::Sequence&>())) {
    tessera::program::Sequence tmp;
    auto appendTo = [&] {
        auto& children = Access::program(seq).node()->children;
        for (const auto& child : tmp.node()->children) {
            children.push_back(child);
        }
    };
    if constexpr (std::is_void_v<decltype(f(tmp))>) {
        f(tmp);
        appendTo();
    } else {
        auto result = f(tmp);
        appendTo();
        return result;
    }
}

// The engine's element type for a poplar::Type (throws poplar_error).
tessera::Type engineType(const poplar::Type& t);
poplar::Type poplarType(tessera::Type t);

// Runs `f`, turning the engine's errors into Poplar's exceptions.
template <typename F>
auto translate(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const tessera::OutOfMemoryError& e) {
        throw poplar::graph_memory_allocation_error(
            std::string(e.what()) +
            " (the engine option debug.allowOutOfMemory runs and profiles it anyway)");
    } catch (const tessera::ValidationError& e) {
        throw poplar::graph_program_compilation_error(e.what());
    } catch (const poplar::poplar_error&) {
        throw;
    } catch (const tessera::Error& e) {
        throw poplar::poplar_error(e.what());
    }
}

} // namespace poplar::detail
