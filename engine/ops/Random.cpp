#include "engine/ops/Random.h"

#include "engine/core/Error.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"

namespace tessera::ops {

namespace {

constexpr const char* kStateName = "poprand/generatorState";
constexpr std::size_t kRandomGrain = 16;

std::uint64_t mix(std::uint64_t z) { // splitmix64's finaliser
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The graph's generator state: two words per tile, all equal, made on first use.
Tensor generatorState(Graph& graph) {
    const auto& variables = graph.variables();
    for (std::size_t i = 0; i < variables.size(); ++i) {
        if (variables[i].name == kStateName) {
            return graph.tensorOf(record::idAt<VariableId>(i));
        }
    }
    const std::size_t tiles = graph.getTarget().numTiles();
    Tensor state = graph.addVariable(Type::UnsignedInt, {tiles, 2}, kStateName);
    for (std::size_t t = 0; t < tiles; ++t) {
        graph.setTileMapping(state[t], record::idAt<TileId>(t));
    }
    // A fixed start, so a program's numbers are the same on every run of it.
    std::vector<double> initial(2 * tiles);
    for (std::size_t t = 0; t < tiles; ++t) {
        initial[2 * t] = 0x2545F491;
        initial[2 * t + 1] = 0x4F6CDD1D;
    }
    graph.setInitialValue(state, initial);
    return state;
}

void checkSeed(const Tensor& seed, const std::string& name) {
    if (seed.elementType() != Type::UnsignedInt || seed.numElements() != 2) {
        throw Error(name + ": the seed " + seed.describe() + " must be two unsigned ints, not " +
                    std::to_string(seed.numElements()) + " " +
                    std::string(typeName(seed.elementType())));
    }
}

// The vertices of one call on `out`'s tiles, then (without a seed) the state's advance.
template <typename Connect>
void generate(Graph& graph, program::Sequence& seq, const Tensor& out, const RandomSpec& spec,
              const std::string& codelet, const std::string& name, Connect&& connect) {
    std::optional<Tensor> state;
    if (spec.seed) {
        checkSeed(*spec.seed, name);
    } else {
        state = generatorState(graph);
    }
    const ComputeSet cs = graph.addComputeSet(name);
    const Tensor flat = out.flatten();
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    for (const TileRange& r : tileRanges(graph, out)) {
        for (const auto& [b, e] : splitRange(r.begin, r.end, workers, kRandomGrain)) {
            VertexRef v = graph.addVertex(
                cs, codelet,
                {{"out", flat.slice(b, e)},
                 {"seed", spec.seed ? spec.seed->flatten() : (*state)[r.tile.value()]}});
            connect(v, b, e);
            graph.setInitialValue(v["modifier"], double(spec.seedModifier));
            graph.setInitialValue(v["offset"], double(b));
            graph.setTileMapping(v, r.tile);
        }
    }
    program::Sequence body{program::Execute(cs)};
    if (state) {
        const ComputeSet advance = graph.addComputeSet(name + "/advance");
        for (std::size_t t = 0; t < state->dim(0); ++t) {
            VertexRef v = graph.addVertex(advance, "poprand::Advance", {{"state", (*state)[t]}});
            graph.setTileMapping(v, record::idAt<TileId>(t));
        }
        body.add(program::Execute(advance));
    }
    seq.add(program::Block(body, name, program::LibraryCall{__func__}));
}

} // namespace

std::uint64_t randomBits(std::uint64_t seed, std::uint32_t modifier, Distribution d,
                         std::uint64_t index, std::uint32_t draw) {
    const std::uint64_t stream = (std::uint64_t{modifier} << 32) ^
                                 (std::uint64_t{static_cast<std::uint8_t>(d)} << 24) ^ draw;
    return mix(mix(seed ^ mix(stream)) + index);
}

Tensor random(Graph& graph, program::Sequence& seq, const Tensor& reference, Type type,
              const RandomSpec& spec, const std::string& name) {
    const Distribution d = spec.distribution;
    const bool floating = type == Type::Float || type == Type::Half;
    if (d == Distribution::Dropout) {
        throw Error(name + ": dropout takes an input (use ops::dropout)");
    }
    if (!(floating ||
          (type == Type::Int && (d == Distribution::Uniform || d == Distribution::Bernoulli)))) {
        throw Error(name + ": cannot generate " + std::string(typeName(type)) +
                    " numbers of this distribution (float, half; int for uniform and bernoulli)");
    }
    if (d == Distribution::Uniform && spec.b < spec.a) {
        throw Error(name + ": uniform needs minVal <= maxVal, got [" + std::to_string(spec.a) +
                    ", " + std::to_string(spec.b) + "]");
    }
    if ((d == Distribution::Normal || d == Distribution::TruncatedNormal) && spec.b < 0) {
        throw Error(name + ": the standard deviation " + std::to_string(spec.b) + " is negative");
    }
    if (d == Distribution::TruncatedNormal && spec.c <= 0) {
        throw Error(name + ": truncatedNormal needs alpha > 0, got " + std::to_string(spec.c));
    }
    if (d == Distribution::Bernoulli && (spec.a < 0 || spec.a > 1)) {
        throw Error(name + ": the probability " + std::to_string(spec.a) + " is not in [0, 1]");
    }
    const Tensor out = cloneLike(graph, reference, type, name + "/out");
    generate(graph, seq, out, spec, "poprand::Random<" + std::string(typeName(type)) + ">", name,
             [&](VertexRef v, std::size_t, std::size_t) {
                 graph.setInitialValue(v["distribution"], double(static_cast<int>(d)));
                 graph.setInitialValue(v["a"], spec.a);
                 graph.setInitialValue(v["b"], spec.b);
                 graph.setInitialValue(v["c"], spec.c);
             });
    return out;
}

Tensor dropout(Graph& graph, program::Sequence& seq, const Tensor& input, const Tensor& reference,
               const RandomSpec& spec, const std::string& name) {
    if (input.shape() != reference.shape()) {
        throw Error(name + ": the input " + input.describe() + " " + shapeString(input.shape()) +
                    " and the reference " + reference.describe() + " " +
                    shapeString(reference.shape()) + " differ in shape");
    }
    if (input.elementType() != Type::Float && input.elementType() != Type::Half) {
        throw Error(name + ": dropout takes float or half, not " +
                    std::string(typeName(input.elementType())));
    }
    if (spec.a <= 0 || spec.a > 1) {
        throw Error(name + ": the keep probability " + std::to_string(spec.a) +
                    " is not in (0, 1]");
    }
    const Tensor out = cloneLike(graph, reference, input.elementType(), name + "/out");
    const Tensor in = input.flatten();
    generate(graph, seq, out, spec,
             "poprand::Dropout<" + std::string(typeName(input.elementType())) + ">", name,
             [&](VertexRef v, std::size_t b, std::size_t e) {
                 graph.connect(v["in"], in.slice(b, e));
                 graph.setInitialValue(v["keep"], spec.a);
                 graph.setInitialValue(v["scale"], spec.b);
             });
    return out;
}

void setSeed(Graph& graph, program::Sequence& seq, const Tensor& seed, std::uint32_t seedModifier,
             const std::string& name) {
    checkSeed(seed, name);
    const Tensor state = generatorState(graph);
    const ComputeSet cs = graph.addComputeSet(name);
    for (std::size_t t = 0; t < state.dim(0); ++t) {
        VertexRef v = graph.addVertex(cs, "poprand::SetSeed",
                                      {{"seed", seed.flatten()}, {"state", state[t]}});
        graph.setInitialValue(v["modifier"], double(seedModifier));
        graph.setTileMapping(v, record::idAt<TileId>(t));
    }
    seq.add(program::Block(program::Sequence{program::Execute(cs)}, name,
                           program::LibraryCall{__func__}));
}

} // namespace tessera::ops
