#include "Args.h"

#include <algorithm>
#include <charconv>

namespace tessera::cli {

namespace {

const OptionSpec* findOption(const CommandSpec& spec, const std::string& name) {
    for (const OptionSpec& o : spec.options) {
        if (o.name == name || (!o.shortName.empty() && o.shortName == name)) {
            return &o;
        }
    }
    return nullptr;
}

std::string seeHelp(const CommandSpec& spec) {
    return " (see 'tessera-cli " + spec.name + " --help')";
}

} // namespace

std::string ParsedArgs::value(const std::string& option, const std::string& fallback) const {
    const auto it = values_.find(option);
    return it == values_.end() || it->second.empty() ? fallback : it->second.back();
}

const std::vector<std::string>& ParsedArgs::values(const std::string& option) const {
    static const std::vector<std::string> none;
    const auto it = values_.find(option);
    return it == values_.end() ? none : it->second;
}

ParsedArgs parseArgs(const CommandSpec& spec, std::span<const std::string> args) {
    ParsedArgs parsed;
    bool optionsEnded = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (optionsEnded || arg.size() < 2 || arg[0] != '-') {
            parsed.positionals.push_back(arg);
            continue;
        }
        if (arg == "--") {
            optionsEnded = true;
            continue;
        }
        if (arg == "-h" || arg == "--help") {
            parsed.help = true;
            continue;
        }
        std::string name = arg;
        std::string inlineValue;
        bool hasInlineValue = false;
        if (const auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            name = arg.substr(0, eq);
            inlineValue = arg.substr(eq + 1);
            hasInlineValue = true;
        }
        const OptionSpec* option = findOption(spec, name);
        if (option == nullptr) {
            throw UsageError("unknown option '" + name + "' for '" + spec.name + "'" +
                             seeHelp(spec));
        }
        auto& slot = parsed.values_[option->name];
        if (!slot.empty() && !option->repeatable) {
            throw UsageError("option '" + option->name + "' given more than once");
        }
        if (option->valueName.empty()) {
            if (hasInlineValue) {
                throw UsageError("option '" + option->name + "' takes no value");
            }
            slot.push_back("1");
        } else if (hasInlineValue) {
            slot.push_back(inlineValue);
        } else if (i + 1 < args.size()) {
            slot.push_back(args[++i]);
        } else {
            throw UsageError("option '" + option->name + "' needs a value (" + option->valueName +
                             ")");
        }
    }
    if (parsed.help) {
        return parsed; // --help wins over anything missing
    }
    if (parsed.positionals.size() < spec.minPositionals) {
        throw UsageError("'" + spec.name + "' needs " + spec.positionalNames + seeHelp(spec));
    }
    if (parsed.positionals.size() > spec.maxPositionals) {
        throw UsageError("unexpected argument '" + parsed.positionals[spec.maxPositionals] +
                         "' for '" + spec.name + "'" + seeHelp(spec));
    }
    return parsed;
}

std::string helpText(const CommandSpec& spec) {
    std::string out =
        "Usage: tessera-cli " + spec.name + " " + spec.synopsis + "\n\n" + spec.summary + "\n";
    if (!spec.description.empty()) {
        out += "\n" + spec.description + "\n";
    }
    out += "\nOptions:\n";
    std::vector<std::pair<std::string, std::string>> rows;
    for (const OptionSpec& o : spec.options) {
        std::string left = o.shortName.empty() ? "    " + o.name : o.shortName + ", " + o.name;
        if (!o.valueName.empty()) {
            left += " " + o.valueName;
        }
        rows.emplace_back(left, o.help + (o.repeatable ? " (repeatable)" : ""));
    }
    rows.emplace_back("-h, --help", "show this help and exit");
    std::size_t width = 0;
    for (const auto& r : rows) {
        width = std::max(width, r.first.size());
    }
    for (const auto& [left, right] : rows) {
        out += "  " + left + std::string(width + 2 - left.size(), ' ') + right + "\n";
    }
    out += "\nExit status: 0 success, 1 a check failed (verification, threshold), 2 usage or input "
           "error.\n";
    return out;
}

std::uint64_t parseCount(const std::string& option, const std::string& text, std::uint64_t min,
                         std::uint64_t max) {
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const bool digits = !text.empty() && std::all_of(text.begin(), text.end(),
                                                     [](char c) { return c >= '0' && c <= '9'; });
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (!digits || ec != std::errc() || ptr != end || value < min || value > max) {
        throw UsageError("option '" + option + "' expects an integer from " + std::to_string(min) +
                         " to " + std::to_string(max) + ", not '" + text + "'");
    }
    return value;
}

std::pair<std::string, std::string> splitAssignment(const std::string& text,
                                                    const std::string& option) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw UsageError("option '" + option + "' expects NAME=VALUE, not '" + text + "'");
    }
    return {text.substr(0, eq), text.substr(eq + 1)};
}

} // namespace tessera::cli
