#include "engine/core/ExceptionText.h"

#include "engine/core/Error.h"

#include <cxxabi.h>

#include <cstdlib>
#include <exception>
#include <memory>
#include <typeinfo>

namespace tessera {

namespace {

std::string demangled(const char* name) {
    int status = 0;
    const std::unique_ptr<char, decltype(&std::free)> text(
        abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
    return status == 0 && text ? std::string(text.get()) : std::string(name);
}

std::string oneLine(std::string text) {
    for (char& c : text) {
        if (c == '\n' || c == '\r') {
            c = ' ';
        }
    }
    return text;
}

} // namespace

std::string currentExceptionText() {
    try {
        throw;
    } catch (const Error& e) {
        return oneLine(e.what());
    } catch (const std::exception& e) {
        return demangled(typeid(e).name()) + ": " + oneLine(e.what());
    } catch (...) {
        const std::type_info* type = abi::__cxa_current_exception_type();
        return type != nullptr ? "an exception of type '" + demangled(type->name()) + "'"
                               : std::string("an exception of unknown type");
    }
}

} // namespace tessera
