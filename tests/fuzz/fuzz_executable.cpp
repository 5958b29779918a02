// libFuzzer target for Executable::deserialize (a saved Poplar executable):
// any bytes must either load or fail with a poplar_error; never crash, hang,
// leak or throw anything else. An input that loads is also serialised again,
// which walks everything the reader built.
//
// Built only with clang by the `fuzz` preset; tests/fuzz/CMakeLists.txt runs
// it for a bounded time from seeds written by tessera_executable_seeds.
#include <poplar/Engine.hpp>
#include <poplar/exceptions.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // Embedded codelet objects go to the cache: keep it out of the user's home.
    if (std::getenv("TESSERA_CODELET_CACHE") == nullptr) {
        ::setenv("TESSERA_CODELET_CACHE", "fuzz-codelet-cache", 1);
    }
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        poplar::Executable exe = poplar::Executable::deserialize(in);
        std::ostringstream again;
        exe.serialize(again);
    } catch (const poplar::poplar_error&) {
        // The one accepted failure: a clear error naming the damage.
    }
    return 0;
}
