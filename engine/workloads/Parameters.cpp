#include "engine/workloads/Parameters.h"

#include "engine/core/Error.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tessera::workloads {

namespace {

// Integers and numbers in text: "65536", "0.1", "1e-3" (no sign but '-', no
// spaces, no hexadecimal, nothing after the number).
bool parseInteger(const std::string& text, std::int64_t& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end;
}

bool parseNumber(const std::string& text, double& value) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    return ec == std::errc() && ptr == end && std::isfinite(value);
}

std::string formatNumber(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.15g", v);
    return text;
}

} // namespace

Parameter::Parameter(std::string name_, std::string defaultValue_, std::string description_)
    : name(std::move(name_))
    , defaultValue(std::move(defaultValue_))
    , description(std::move(description_)) {}

Parameter Parameter::integer(std::string name, std::string defaultValue, std::string description,
                             std::uint64_t minimum, std::uint64_t maximum) {
    Parameter p(std::move(name), std::move(defaultValue), std::move(description));
    p.kind = ParameterKind::Integer;
    p.minimum = static_cast<double>(minimum);
    p.maximum = static_cast<double>(maximum);
    return p;
}

Parameter Parameter::number(std::string name, std::string defaultValue, std::string description,
                            double minimum, double maximum) {
    Parameter p(std::move(name), std::move(defaultValue), std::move(description));
    p.kind = ParameterKind::Number;
    p.minimum = minimum;
    p.maximum = maximum;
    return p;
}

Parameter Parameter::choice(std::string name, std::string defaultValue, std::string description,
                            std::vector<std::string> choices) {
    Parameter p(std::move(name), std::move(defaultValue), std::move(description));
    p.kind = ParameterKind::Choice;
    p.choices = std::move(choices);
    return p;
}

std::string Parameter::rangeText() const {
    switch (kind) {
    case ParameterKind::Integer:
        return "an integer from " + formatNumber(minimum) + " to " + formatNumber(maximum);
    case ParameterKind::Number:
        return "a number from " + formatNumber(minimum) + " to " + formatNumber(maximum);
    case ParameterKind::Choice: {
        std::string out;
        for (std::size_t i = 0; i < choices.size(); ++i) {
            out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
        }
        return out;
    }
    case ParameterKind::Text:
        break;
    }
    return {};
}

std::string Parameter::kindName() const {
    switch (kind) {
    case ParameterKind::Integer:
        return "integer";
    case ParameterKind::Number:
        return "number";
    case ParameterKind::Choice:
        return "choice";
    case ParameterKind::Text:
        break;
    }
    return "text";
}

void Parameter::check(const std::string& value) const {
    bool ok = true;
    switch (kind) {
    case ParameterKind::Integer: {
        std::int64_t v = 0;
        ok = parseInteger(value, v) && static_cast<double>(v) >= minimum &&
             static_cast<double>(v) <= maximum;
        break;
    }
    case ParameterKind::Number: {
        double v = 0;
        ok = parseNumber(value, v) && v >= minimum && v <= maximum;
        break;
    }
    case ParameterKind::Choice:
        ok = false;
        for (const std::string& c : choices) {
            ok = ok || c == value;
        }
        break;
    case ParameterKind::Text:
        break;
    }
    if (!ok) {
        throw Error("parameter '" + name + "' must be " + rangeText() + ", not '" + value + "'");
    }
}

Parameters::Parameters(const std::vector<Parameter>& declared,
                       const std::map<std::string, std::string>& given) {
    for (const Parameter& p : declared) {
        values_[p.name] = p.defaultValue;
    }
    for (const auto& [name, value] : given) {
        if (!values_.count(name)) {
            std::string known;
            for (const Parameter& p : declared) {
                known += (known.empty() ? "" : ", ") + p.name;
            }
            throw Error("unknown parameter '" + name +
                        "' (known: " + (known.empty() ? "none" : known) + ")");
        }
        values_[name] = value;
    }
    for (const Parameter& p : declared) {
        p.check(values_[p.name]);
    }
}

const std::string& Parameters::get(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) {
        throw Error("internal: parameter '" + name + "' not declared");
    }
    return it->second;
}

std::size_t Parameters::getSize(const std::string& name) const {
    const std::string& text = get(name);
    std::size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value == 0) {
        throw Error("parameter '" + name + "': '" + text + "' is not a positive integer");
    }
    return value;
}

double Parameters::getDouble(const std::string& name) const {
    const std::string& text = get(name);
    double value = 0;
    if (!parseNumber(text, value)) {
        throw Error("parameter '" + name + "': '" + text + "' is not a number");
    }
    return value;
}

Type Parameters::getType(const std::string& name) const {
    const Type t = typeFromName(get(name));
    if (t != Type::Float && t != Type::Half) {
        throw Error("parameter '" + name + "': type must be float or half, not '" + get(name) +
                    "'");
    }
    return t;
}

} // namespace tessera::workloads
