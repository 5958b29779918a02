#include "InputErrors.h"

namespace tessera::cli {

std::string namingInput(std::string message, const std::string& path, std::string_view role,
                        std::string_view alsoNamed) {
    const bool named = message.find(path) != std::string::npos ||
                       (!alsoNamed.empty() && message.find(alsoNamed) != std::string::npos);
    if (!named) {
        message = path + ": " + message;
    }
    if (!role.empty()) {
        message = std::string(role) + " " + message;
    }
    return message;
}

} // namespace tessera::cli
