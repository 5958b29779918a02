#pragma once
// PopLibs' error convention for poplin, popnn, poprand and gcl: a bad argument
// is a poputil::poplibs_error (a std::runtime_error, not a poplar_error);
// memory, graph validity and Tessera's own "not supported" stay Poplar's.
#include "Impl.h"

#include <poputil/exceptions.hpp>

#include <string>

namespace poplar::detail {

// Runs `f`, turning the engine's errors into the exceptions PopLibs throws.
template <typename F>
auto translatePoplibs(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const tessera::OutOfMemoryError& e) {
        throw poplar::graph_memory_allocation_error(
            std::string(e.what()) +
            " (the engine option debug.allowOutOfMemory runs and profiles it anyway)");
    } catch (const tessera::ValidationError& e) {
        throw poplar::graph_program_compilation_error(e.what());
    } catch (const tessera::Error& e) {
        throw poputil::poplibs_error(e.what());
    }
}

} // namespace poplar::detail
