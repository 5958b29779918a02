#include "engine/workloads/Workload.h"

#include "engine/core/Error.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/Plugin.h"

#include <charconv>

namespace tessera::workloads {

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
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != text.size()) {
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

const std::vector<const Workload*>& all() {
    static const std::vector<const Workload*> list = {
        &matmulWorkload(),    &elementwiseWorkload(),   &reduceWorkload(),
        &softmaxWorkload(),   &conv2dWorkload(),        &mlpTrainWorkload(),
        &attentionWorkload(), &gatherScatterWorkload(), &stressWorkload(),
    };
    return list;
}

const Workload& find(const std::string& name) {
    std::string known;
    for (const Workload* w : available()) { // built-ins, then loaded plugins
        if (w->name() == name) {
            return *w;
        }
        known += (known.empty() ? "" : ", ") + w->name();
    }
    throw Error("unknown workload '" + name + "' (known: " + known + ")");
}

RunResult run(const Workload& workload, const Target& target,
              const std::map<std::string, std::string>& given, const EngineOptions& options) {
    const Parameters params(workload.parameters(), given);
    Graph graph(target);
    Built built = workload.build(graph, params);
    Engine engine(graph, built.programs, options);
    if (built.setUp) {
        built.setUp(engine);
    }
    for (unsigned program : built.runOrder) {
        engine.run(program);
    }
    RunResult result;
    result.verification = built.verify(engine);
    result.cycles = engine.cyclesSoFar();
    if (options.recorder) {
        options.recorder->onVerification({workload.name(), result.verification.passed,
                                          result.verification.maxAbsError,
                                          result.verification.detail});
    }
    return result;
}

} // namespace tessera::workloads
