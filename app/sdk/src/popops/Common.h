#pragma once
// What every popops source shares: the engine graph behind a poplar::Graph,
// the operation's name, error translation (PopLibs throws
// poputil::poplibs_error for bad arguments) and the record of codelets the
// engine generated, so a deserialised executable finds them.
#include "Impl.h"
#include "engine/ops/MapExpr.h"
#include "engine/program/SourceLocation.h"

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <popops/Expr.hpp>
#include <poputil/exceptions.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace popops::detail {

using poplar::detail::Access;
using poplar::detail::intoSequence;

// `body` as one Block named `name` of the PopLibs layer: the profile names
// the function `where` is in (poplar::program::Block is the application's).
inline poplar::program::Program
libraryBlock(const poplar::program::Program& body, const std::string& name,
             const tessera::SourceLocation& where = tessera::SourceLocation::current()) {
    poplar::program::Program out;
    Access::setProgram(out, tessera::program::Block(Access::program(body), name,
                                                    tessera::program::LibraryCall::at(where)));
    return out;
}

inline tessera::Graph& eg(const poplar::Graph& g) {
    return Access::graph(g).graph;
}
inline const tessera::Tensor& et(const poplar::Tensor& t) {
    return Access::tensor(t);
}
inline poplar::Tensor pt(tessera::Tensor t) {
    return Access::makeTensor(std::move(t));
}

// The Block's name: the debug context's path, else the operation's own name.
inline std::string nameOf(const poplar::DebugContext& dc, const std::string& op) {
    return dc.getPathName().empty() ? op : dc.getPathName();
}

// Keeps a copy of every codelet the engine added to `graph` for vertices
// from `firstVertex` on that is not a built-in (map expressions, reduction
// stages), for executables deserialised in this process.
void rememberCodelets(const tessera::Graph& graph, std::size_t firstVertex);

// Runs `f` (which builds on `graph`), translating the engine's errors:
// argument errors become poputil::poplibs_error, as PopLibs throws.
template <typename F>
auto run(const poplar::Graph& graph, F&& f) -> decltype(f()) {
    const std::size_t first = eg(graph).vertices().size();
    try {
        if constexpr (std::is_void_v<decltype(f())>) {
            f();
            rememberCodelets(eg(graph), first);
        } else {
            auto result = f();
            rememberCodelets(eg(graph), first);
            return result;
        }
    } catch (const tessera::OutOfMemoryError& e) {
        throw poplar::graph_memory_allocation_error(e.what());
    } catch (const tessera::ValidationError& e) {
        throw poplar::graph_program_compilation_error(e.what());
    } catch (const poplar::poplar_error&) {
        throw;
    } catch (const poputil::poplibs_error&) {
        throw;
    } catch (const tessera::Error& e) {
        throw poputil::poplibs_error(e.what());
    }
}

[[noreturn]] void unsupported(const std::string& item);

// popops::expr trees as the engine's expressions.
tessera::ops::expr::Expression toEngine(const expr::Expr& e);
// "ADD", "IS_FINITE", ...
const char* opName(expr::UnaryOpType op);
const char* opName(expr::BinaryOpType op);

// A one-placeholder expression: Cast(_1, type).
tessera::ops::expr::Expression castExpression(tessera::Type to);

} // namespace popops::detail
