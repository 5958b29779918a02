#pragma once
// A workload's parameters: what each one takes (an integer or a number in a
// range, one of a few words) and the values given for one run, checked
// against that before anything is built, so a bad --set costs no time and
// no memory.
#include "engine/core/Type.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera::workloads {

enum class ParameterKind : std::uint8_t {
    Text,    // any text; the workload checks it (a plugin that declares no range)
    Integer, // a decimal integer in [minimum, maximum]
    Number,  // a finite decimal number in [minimum, maximum]
    Choice,  // one of `choices`
};

struct Parameter {
    Parameter() = default;
    // A Text parameter: {"rows", "16", "rows"} (what plugins wrote before ranges).
    Parameter(std::string name, std::string defaultValue, std::string description);

    std::string name;
    std::string defaultValue;
    std::string description;
    ParameterKind kind = ParameterKind::Text;
    double minimum = 0; // Integer and Number, inclusive (integers exact up to 2^53)
    double maximum = 0;
    std::vector<std::string> choices; // Choice

    static Parameter integer(std::string name, std::string defaultValue, std::string description,
                             std::uint64_t minimum, std::uint64_t maximum);
    static Parameter number(std::string name, std::string defaultValue, std::string description,
                            double minimum, double maximum);
    static Parameter choice(std::string name, std::string defaultValue, std::string description,
                            std::vector<std::string> choices);

    // The values it takes in words: "an integer from 1 to 65536", "a number
    // from 0 to 10", "float or half"; empty for Text.
    std::string rangeText() const;
    // "integer", "number", "choice" or "text" (the JSON listing's "kind").
    std::string kindName() const;
    // Throws Error "parameter 'm' must be an integer from 1 to 65536, not
    // '4294967297'" unless `value` is one of the values it takes.
    void check(const std::string& value) const;
};

// Parameter values by name, checked against a workload's declared parameters.
class Parameters {
public:
    Parameters() = default;
    // Defaults, overridden by `given`. Throws Error for an unknown name or a
    // value outside its parameter's range.
    Parameters(const std::vector<Parameter>& declared,
               const std::map<std::string, std::string>& given);
    std::size_t getSize(const std::string& name) const; // throws Error naming the parameter
    double getDouble(const std::string& name) const;
    Type getType(const std::string& name) const;
    const std::string& get(const std::string& name) const;
    const std::map<std::string, std::string>& values() const { return values_; }

private:
    std::map<std::string, std::string> values_;
};

} // namespace tessera::workloads
