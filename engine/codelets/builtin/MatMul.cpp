// Dense block product: out rows = a (rows x k, row-major) times b (k x cols,
// row-major). Each output row is its own edge, so rows can land straight in a
// larger matrix. Accumulates in float.
#include "engine/codelets/Vertex.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/target/Target.h"

#include <vector>

namespace tessera {

namespace {

template <typename In, typename Out>
class MatMulPartial : public Vertex {
public:
    Input<Vector<In>> a;
    Input<Vector<In>> b;
    Vector<Output<Vector<Out>>> out;
    bool compute() {
        const std::size_t rows = out.size();
        if (rows == 0) {
            return true;
        }
        const std::size_t cols = out[0].size();
        const std::size_t k = a.size() / rows;
        std::vector<float> acc(cols);
        for (std::size_t r = 0; r < rows; ++r) {
            std::fill(acc.begin(), acc.end(), 0.0f);
            const In* arow = a.data() + r * k;
            for (std::size_t x = 0; x < k; ++x) {
                const float av = float(arow[x]);
                const In* brow = b.data() + x * cols;
                for (std::size_t c = 0; c < cols; ++c) {
                    acc[c] += av * float(brow[c]);
                }
            }
            Out* o = out[r].data();
            for (std::size_t c = 0; c < cols; ++c) {
                o[c] = Out(acc[c]);
            }
        }
        return true;
    }
};

template <typename In, typename Out>
void add(CodeletRegistry& r) {
    using C = MatMulPartial<In, Out>;
    const std::string name = "MatMulPartial<" + std::string(typeName(TypeOf<In>::value)) + "," +
                             std::string(typeName(TypeOf<Out>::value)) + ">";
    r.add(CodeletBuilder<C>(name)
              .field("a", &C::a)
              .field("b", &C::b)
              .field("out", &C::out)
              .sameSize({"out"})
              .validator([](const VertexIntrospector& v) -> std::string {
                  const std::size_t rows = v.fieldSize("out");
                  const std::vector<std::size_t> sizes = v.listSizes("out");
                  const std::size_t cols = sizes.empty() ? 0 : sizes[0];
                  const std::size_t a = v.fieldSize("a"), b = v.fieldSize("b");
                  if (rows == 0) {
                      return {};
                  }
                  if (a % rows != 0) {
                      return "field 'a' has " + std::to_string(a) +
                             " elements, not a multiple of the " + std::to_string(rows) +
                             " output rows";
                  }
                  if (b != a / rows * cols) {
                      return "field 'b' has " + std::to_string(b) +
                             " elements but k x cols = " + std::to_string(a / rows) + " x " +
                             std::to_string(cols);
                  }
                  return {};
              })
              .codeBytes(512)
              .stackBytes(96)
              .estimator("24 + 6 * rows + ceil(2 * rows * k * cols / flopsPerCycle)",
                         [](const VertexIntrospector& v, const Target& t) {
                             const std::size_t rows = v.fieldSize("out");
                             const std::vector<std::size_t> sizes = v.listSizes("out");
                             const std::size_t cols = sizes.empty() ? 0 : sizes[0];
                             const std::size_t k = rows ? v.fieldSize("a") / rows : 0;
                             const std::uint64_t flops = 2ull * rows * k * cols;
                             const std::uint64_t rate = TypeOf<In>::value == Type::Half
                                                            ? t.fp16FlopsPerCycle
                                                            : t.fp32FlopsPerCycle;
                             return PerfEstimate{24 + 6 * rows + (flops + rate - 1) / rate, flops};
                         })
              .build());
}

} // namespace

void registerMatMulCodelets(CodeletRegistry& registry) {
    add<float, float>(registry);
    add<half, half>(registry);
    add<half, float>(registry);
}

} // namespace tessera
