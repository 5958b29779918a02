#include "Options.h"

#include <poplar/exceptions.hpp>

#include <cctype>
#include <cstdlib>
#include <regex>

namespace poplar::detail {

namespace {

bool boolValue(const std::string& key, const std::string& value) {
    if (value == "true" || value == "1") {
        return true;
    }
    if (value == "false" || value == "0") {
        return false;
    }
    throw invalid_option("option '" + key + "': '" + value + "' is not true or false");
}

class JsonReader {
public:
    JsonReader(const std::string& s, const std::string& origin)
        : s_(s)
        , origin_(origin) {}

    OptionFlags object() {
        OptionFlags out;
        space();
        expect('{');
        space();
        if (peek() == '}') {
            ++i_;
            return out;
        }
        for (;;) {
            space();
            const std::string key = string();
            space();
            expect(':');
            space();
            out.set(key, value());
            space();
            if (peek() == ',') {
                ++i_;
                continue;
            }
            expect('}');
            space();
            if (i_ != s_.size()) {
                fail("unexpected text after the object");
            }
            return out;
        }
    }

private:
    char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
    void space() {
        while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) {
            ++i_;
        }
    }
    void expect(char c) {
        if (peek() != c) {
            fail(std::string("expected '") + c + "'");
        }
        ++i_;
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw invalid_option(origin_ + " is not a flat JSON object of options: " + what +
                             " at offset " + std::to_string(i_));
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i_ < s_.size() && s_[i_] != '"') {
            if (s_[i_] == '\\' && i_ + 1 < s_.size()) {
                ++i_;
            }
            out += s_[i_++];
        }
        expect('"');
        return out;
    }
    std::string value() {
        if (peek() == '"') {
            return string();
        }
        std::string out;
        while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) ||
                                  s_[i_] == '.' || s_[i_] == '-' || s_[i_] == '+')) {
            out += s_[i_++];
        }
        if (out.empty()) {
            fail("expected a value");
        }
        return out;
    }

    const std::string& s_;
    std::string origin_;
    std::size_t i_ = 0;
};

bool isProfilerOption(const std::string& key) {
    return key == "profiler.blocks.filter" || key == "profiler.programs.filter" ||
           key == "profiler.blocks.implicitFlush" || key == "profiler.blocks.bufferSize" ||
           key == "debug.instrumentExternalExchange";
}

// Validates a lightweight-profiling option and records it (a later value of
// the same key replaces an earlier one).
void setProfilerOption(EngineConfig& c, const std::string& key, const std::string& value) {
    if (key == "profiler.blocks.filter" || key == "profiler.programs.filter") {
        try {
            std::regex check(value);
        } catch (const std::regex_error& e) {
            throw invalid_option("option '" + key + "': '" + value +
                                 "' is not a regular expression: " + e.what());
        }
    } else if (key == "profiler.blocks.bufferSize") {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos ||
            value.size() > 12) {
            throw invalid_option("option '" + key + "': '" + value + "' is not a byte count");
        }
    } else {
        boolValue(key, value);
    }
    for (auto& [k, v] : c.profilerOptions) {
        if (k == key) {
            v = value;
            return;
        }
    }
    c.profilerOptions.emplace_back(key, value);
}

void apply(EngineConfig& c, const OptionFlags& flags) {
    for (const auto& [key, value] : flags) {
        if (key == "debug.allowOutOfMemory") {
            c.allowOutOfMemory = boolValue(key, value);
        } else if (key == "debug.instrument") {
            c.instrument = boolValue(key, value);
        } else if (key == "autoReport.all" || key == "autoReport.outputGraphProfile" ||
                   key == "autoReport.outputExecutionProfile") {
            c.report = c.report || boolValue(key, value);
        } else if (key == "autoReport.directory") {
            c.reportDirectory = value.empty() ? "." : value;
        } else if (key == "debug.name") {
            c.name = value;
        } else if (isProfilerOption(key)) {
            setProfilerOption(c, key, value);
        }
        // Other options (profiler.*, target.*, opt.*, ...) change nothing here.
    }
}

} // namespace

OptionFlags parseJsonOptions(const std::string& json, const std::string& origin) {
    return JsonReader(json, origin).object();
}

EngineConfig engineConfig(const OptionFlags& options) {
    EngineConfig c;
    apply(c, options);
    if (const char* env = std::getenv("POPLAR_ENGINE_OPTIONS")) {
        apply(c, parseJsonOptions(env, "POPLAR_ENGINE_OPTIONS"));
    }
    return c;
}

} // namespace poplar::detail
