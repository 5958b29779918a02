// tessera-cli workloads [--json] [--plugin LIB.so]...
#include "Commands.h"
#include "Output.h"
#include "WorkloadOptions.h"
#include "engine/workloads/Plugin.h"
#include "engine/workloads/Workload.h"
#include "reports/JsonWriter.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace tessera::cli {

namespace {

int listWorkloads(const ParsedArgs& args) {
    loadPlugins(args);
    const std::vector<const workloads::Workload*> all = workloads::available();
    std::map<const workloads::Workload*, std::string> pluginOf; // built-ins have none
    for (const workloads::LoadedPlugin* p : workloads::loadedPlugins()) {
        for (const workloads::Workload* w : p->workloads) {
            pluginOf[w] = p->path;
        }
    }
    if (args.has("--json")) {
        reports::JsonWriter j;
        j.beginArray();
        for (const workloads::Workload* w : all) {
            j.beginObject();
            j.key("name").value(w->name());
            j.key("description").value(w->description());
            if (pluginOf.count(w)) {
                j.key("plugin").value(pluginOf[w]);
            }
            j.key("parameters").beginArray();
            for (const workloads::Parameter& p : w->parameters()) {
                j.beginObject();
                j.key("name").value(p.name);
                j.key("default").value(p.defaultValue);
                j.key("description").value(p.description);
                j.key("kind").value(p.kindName());
                if (p.kind == workloads::ParameterKind::Integer) {
                    j.key("minimum").value(static_cast<std::int64_t>(p.minimum));
                    j.key("maximum").value(static_cast<std::int64_t>(p.maximum));
                } else if (p.kind == workloads::ParameterKind::Number) {
                    j.key("minimum").value(p.minimum);
                    j.key("maximum").value(p.maximum);
                } else if (p.kind == workloads::ParameterKind::Choice) {
                    j.key("choices").beginArray();
                    for (const std::string& c : p.choices) {
                        j.value(c);
                    }
                    j.endArray();
                }
                j.key("range").value(p.rangeText());
                j.endObject();
            }
            j.endArray();
            j.endObject();
        }
        j.endArray();
        printText(j.str());
        return kExitOk;
    }
    std::string out;
    for (const workloads::Workload* w : all) {
        out += w->name() + (pluginOf.count(w) ? "  (plugin " + pluginOf[w] + ")" : "") + "\n    " +
               w->description() + "\n";
        const auto params = w->parameters();
        std::size_t width = 0;
        for (const auto& p : params) {
            width = std::max(width, p.name.size() + 1 + p.defaultValue.size());
        }
        for (const auto& p : params) {
            const std::string left = p.name + "=" + p.defaultValue;
            const std::string range = p.rangeText();
            out += "    --set " + left + std::string(width + 2 - left.size(), ' ') + p.description +
                   (range.empty() ? "" : " (" + range + ")") + "\n";
        }
        out += "\n";
    }
    out += "Capture one with: tessera-cli capture WORKLOAD [--set NAME=VALUE]... -o FILE.tsr\n";
    printText(out);
    return kExitOk;
}

} // namespace

Command workloadsCommand() {
    CommandSpec spec;
    spec.name = "workloads";
    spec.summary = "List the workloads and their parameters (with defaults and ranges)";
    spec.synopsis = "[--json] [--plugin LIB.so]...";
    spec.description =
        "Each parameter is shown with its default and the values it takes (an integer or a\n"
        "number in a range, or one of a few words); capture and debug refuse any other\n"
        "value before building anything. --json gives, per parameter, name, default,\n"
        "description, kind (integer, number, choice or text), minimum and maximum (integer,\n"
        "number), choices (choice) and range (in words).";
    spec.options = {{"--json", "", "", "print JSON instead of text"},
                    {"--plugin", "", "LIB.so", "also list the workloads of a plugin", true}};
    return {spec, listWorkloads};
}

} // namespace tessera::cli
