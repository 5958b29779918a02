// tessera-sdk-build-bench: graph construction through the Poplar API, as a
// user's program builds it (issue 17). The same graph as the engine's build
// benchmark (GraphBuildBenchmarks.cpp), made with poplar::Graph in the two
// ways Poplar code connects vertices: a braced list in addVertex, and
// addVertex then connect per field, each the best of two runs. Prints one
// JSON object a line, as tessera-bench does; `tessera-bench --only build`
// runs this program.
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>
#include <vector>

using namespace poplar;

namespace {

constexpr double kGoalVerticesPerSecond = 2e6;
constexpr std::size_t kComputeSets = 4;
constexpr std::size_t kElementsPerVertex = 8;

enum class Style { BracedList, Connect };

void printResult(const std::string& name, double value, const std::string& unit, double reference) {
    std::printf("{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"reference\": %.6g, "
                "\"ratio\": %.4g}\n",
                name.c_str(), value, unit.c_str(), reference, value / reference);
    std::fflush(stdout);
}

double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Four float tensors mapped linearly over the tiles, then four compute
// sets (c = a + b, d = c * a, a = d - b, b = a + c), one vertex per
// 8-element slice on the tile holding the slice.
// Returns the vertex count the graph's ids say it made.
std::size_t buildGraph(Graph& graph, std::size_t vertices, Style style) {
    const std::size_t perSet = vertices / kComputeSets;
    const std::size_t elements = perSet * kElementsPerVertex;
    const std::size_t tiles = graph.getTarget().getNumTiles();
    std::vector<Tensor> t;
    for (const char* name : {"a", "b", "c", "d"}) {
        t.push_back(graph.addVariable(FLOAT, {elements}, name));
    }
    auto tileBegin = [&](std::size_t tile) { return perSet * tile / tiles * kElementsPerVertex; };
    for (const Tensor& x : t) {
        for (std::size_t tile = 0; tile < tiles; ++tile) {
            if (tileBegin(tile) < tileBegin(tile + 1)) {
                graph.setTileMapping(x.slice(tileBegin(tile), tileBegin(tile + 1)),
                                     static_cast<unsigned>(tile));
            }
        }
    }
    const struct {
        const char* codelet;
        std::size_t in1, in2, out;
    } ops[kComputeSets] = {{"Add<float>", 0, 1, 2},
                           {"Mul<float>", 2, 0, 3},
                           {"Sub<float>", 3, 1, 0},
                           {"Add<float>", 0, 2, 1}};
    VertexRef last;
    for (std::size_t k = 0; k < kComputeSets; ++k) {
        const ComputeSet cs = graph.addComputeSet("op" + std::to_string(k));
        for (std::size_t tile = 0; tile < tiles; ++tile) {
            for (std::size_t b = tileBegin(tile); b < tileBegin(tile + 1);
                 b += kElementsPerVertex) {
                const std::size_t e = b + kElementsPerVertex;
                VertexRef v;
                if (style == Style::BracedList) {
                    v = graph.addVertex(cs, ops[k].codelet,
                                        {{"in1", t[ops[k].in1].slice(b, e)},
                                         {"in2", t[ops[k].in2].slice(b, e)},
                                         {"out", t[ops[k].out].slice(b, e)}});
                } else {
                    v = graph.addVertex(cs, ops[k].codelet);
                    graph.connect(v["in1"], t[ops[k].in1].slice(b, e));
                    graph.connect(v["in2"], t[ops[k].in2].slice(b, e));
                    graph.connect(v["out"], t[ops[k].out].slice(b, e));
                }
                graph.setTileMapping(v, static_cast<unsigned>(tile));
                last = v;
            }
        }
    }
    return last.graph() ? std::size_t{last.getId()} + 1 : 0;
}

struct Seconds {
    double wall = 1e300;
    double cpu = 1e300;
};

// One size and style in a forked child, so no run builds on the memory
// another left behind; its times come back through a pipe.
bool measure(const Target& target, std::size_t vertices, Style style, Seconds& best) {
    int fds[2];
    if (pipe(fds) != 0) {
        return false;
    }
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return false;
    }
    if (pid == 0) {
        close(fds[0]);
        Seconds s;
        try {
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = cpuSeconds();
            Graph graph(target);
            const std::size_t made = buildGraph(graph, vertices, style);
            s.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            s.cpu = cpuSeconds() - c0;
            if (made != vertices) {
                std::fprintf(stderr, "tessera-sdk-build-bench: made %zu vertices, not %zu\n", made,
                             vertices);
                _exit(1);
            }
        } catch (const std::exception& e) {
            std::fprintf(stderr, "tessera-sdk-build-bench: %s\n", e.what());
            _exit(1);
        }
        const bool sent = write(fds[1], &s, sizeof s) == static_cast<ssize_t>(sizeof s);
        _exit(sent ? 0 : 1);
    }
    close(fds[1]);
    Seconds s;
    const bool got = read(fds[0], &s, sizeof s) == static_cast<ssize_t>(sizeof s);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return false;
    }
    best.wall = std::min(best.wall, s.wall);
    best.cpu = std::min(best.cpu, s.cpu);
    return true;
}

void print(std::size_t vertices, Style style, const Seconds& best) {
    const std::string name = "build.vertices_" + std::to_string(vertices) +
                             (style == Style::BracedList ? ".construction_poplar_braced"
                                                         : ".construction_poplar_connect");
    const double n = static_cast<double>(vertices);
    printResult(name, n / best.wall, "vertices/s", kGoalVerticesPerSecond);
    printResult(name + "_cpu", n / best.cpu, "vertices/cpu-s", kGoalVerticesPerSecond);
}

} // namespace

int main(int argc, char** argv) {
    bool quick = false;
    std::size_t maxVertices = 0;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            quick = true;
        } else if (std::strcmp(argv[i], "--max-vertices") == 0 && i + 1 < argc) {
            maxVertices = std::strtoull(argv[++i], nullptr, 10);
        } else {
            const bool help = std::strcmp(argv[i], "--help") == 0;
            std::fprintf(help ? stdout : stderr,
                         "usage: tessera-sdk-build-bench [--quick] [--max-vertices N]\n");
            return help ? 0 : 2;
        }
    }
    try {
        IPUModel model("ipu2");
        const Target target = model.createTarget();
        { // The codelet table and the target's tables, outside the measured children.
            Graph graph(target);
            buildGraph(graph, kComputeSets, Style::BracedList);
        }
        std::vector<std::size_t> sizes = {10'000, 100'000};
        if (!quick) {
            sizes.push_back(1'000'000);
            sizes.push_back(10'000'000);
        }
        for (const std::size_t n : sizes) {
            if (maxVertices != 0 && n > maxVertices) {
                continue;
            }
            // Each style twice, in the order A B B A, best of its two: a
            // child that follows another meets this guest's memory warmer
            // or colder than the first (docs/BENCHMARKS.md).
            Seconds braced, connect;
            for (const Style style :
                 {Style::BracedList, Style::Connect, Style::Connect, Style::BracedList}) {
                if (!measure(target, n, style, style == Style::BracedList ? braced : connect)) {
                    std::fprintf(stderr, "tessera-sdk-build-bench: %zu vertices failed\n", n);
                    return 1;
                }
            }
            print(n, Style::BracedList, braced);
            print(n, Style::Connect, connect);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tessera-sdk-build-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
