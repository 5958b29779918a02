// poplar::Graph: variables and constants mapped to tiles, compute sets of
// vertices from codelets, host handles and streams. Backed by Tessera's engine.
#ifndef TESSERA_POPLAR_GRAPH_HPP
#define TESSERA_POPLAR_GRAPH_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar {

namespace detail {
struct GraphImpl;
struct Access;
} // namespace detail

enum class CodeletFileType {
    PreprocessedAsmSource,
    AsmSource,
    CSource,
    CppSource,
    IrSource,
    Object,
    Auto
};
enum class VariableMappingMethod { NONE, LINEAR };
enum class SerializationFormat { Binary, JSON };
enum class TensorCloneMethod {
    PRESERVE_ORDER_AND_ALIASES,
    CREATE_NEW_ORDER,
    PRESERVE_ORDER_UNLESS_ALIASES,
    GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES
};
enum class TensorCloneDuplicationMethod {
    DUPLICATE_BY_OUTER_DIMENSION,
    DUPLICATE_BY_TILE_CONTIGUOUS_REGION
};

// One entry of Graph::addVertex(cs, "Type", {{"field", tensor}, {"state", 3.0f}}):
// a tensor (or list of tensors) to connect, or a plain value for a state field.
struct ConnectionDesc {
    ConnectionDesc(const std::string& f, const Tensor& t)
        : field(f)
        , tensor(t)
        , isList(false)
        , isValue(false)
        , value(0) {}
    // The entries of a vector-list field (Vector<Input<Vector<T>>>).
    ConnectionDesc(const std::string& f, const std::vector<Tensor>& ts)
        : field(f)
        , tensors(ts)
        , isList(true)
        , isValue(false)
        , value(0) {}
    template <typename T, typename = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    ConnectionDesc(const std::string& f, T v)
        : field(f)
        , isList(false)
        , isValue(true)
        , value(static_cast<double>(v)) {}
    std::string field;
    Tensor tensor;               // one tensor (held without a list: a vertex has a few)
    std::vector<Tensor> tensors; // a vector list's entries, when isList
    bool isList;
    bool isValue;
    double value;
};

typedef std::vector<std::vector<Interval>> TileToTensorMapping;

class Graph {
public:
    explicit Graph(const Target& target);
    explicit Graph(const Device& device);
    ~Graph();
    Graph(Graph&& other);
    Graph& operator=(Graph&& other);

    const Target& getTarget() const;

    // Adds codelets from a C++ source (compiled now, cached by content) or a
    // file made by `popc` (.gp). Returns true; throws graph_object_load_error.
    bool addCodelets(StringRef src, CodeletFileType type = CodeletFileType::Auto,
                     StringRef compileFlags = "");
    void addCodelets(ArrayRef<std::string> srcs, StringRef compileFlags = "");
    void addCodelets(std::initializer_list<std::string> srcs, StringRef compileFlags = "");
    // A C++ codelet source read from a stream.
    void addCodelets(std::istream& stream, StringRef compileFlags = "",
                     CodeletFileType type = CodeletFileType::CppSource);

    Tensor addVariable(const Type& type, ArrayRef<std::size_t> shape,
                       const DebugContext& debugContext = DebugContext());
    Tensor addVariable(const Type& type, ArrayRef<std::size_t> shape,
                       VariableMappingMethod mappingMethod,
                       const DebugContext& debugContext = DebugContext());
    // A new variable of t's shape and tile mapping (every clone method keeps
    // the element order and the mapping).
    Tensor clone(const Tensor& t, const DebugContext& debugContext = DebugContext(),
                 TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
    Tensor clone(const Type& type, const Tensor& t,
                 const DebugContext& debugContext = DebugContext(),
                 TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
    // n clones stacked in a new outer dimension, each mapped as t is.
    Tensor cloneN(const Tensor& t, std::size_t n, const DebugContext& debugContext = DebugContext(),
                  TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES,
                  TensorCloneDuplicationMethod duplicationMethod =
                      TensorCloneDuplicationMethod::DUPLICATE_BY_OUTER_DIMENSION);
    Tensor cloneN(const Type& type, const Tensor& t, std::size_t n,
                  const DebugContext& debugContext = DebugContext(),
                  TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES,
                  TensorCloneDuplicationMethod duplicationMethod =
                      TensorCloneDuplicationMethod::DUPLICATE_BY_OUTER_DIMENSION);

    template <typename T>
    Tensor addConstant(const Type& type, ArrayRef<std::size_t> shape, ArrayRef<T> values,
                       const DebugContext& debugContext = DebugContext()) {
        std::vector<double> v;
        for (std::size_t i = 0; i < values.size(); ++i) {
            v.push_back(static_cast<double>(values[i]));
        }
        return addConstantValues(type, shape, v, false, debugContext);
    }
    template <typename T>
    Tensor addConstant(const Type& type, ArrayRef<std::size_t> shape, const T* values,
                       const DebugContext& debugContext = DebugContext()) {
        std::size_t n = 1;
        for (std::size_t i = 0; i < shape.size(); ++i) {
            n *= shape[i];
        }
        std::vector<double> v;
        for (std::size_t i = 0; i < n; ++i) {
            v.push_back(static_cast<double>(values[i]));
        }
        return addConstantValues(type, shape, v, false, debugContext);
    }
    template <typename T>
    typename std::enable_if<std::is_arithmetic<T>::value, Tensor>::type
    addConstant(const Type& type, ArrayRef<std::size_t> shape, T value,
                const DebugContext& debugContext = DebugContext()) {
        return addConstantValues(type, shape, std::vector<double>(1, static_cast<double>(value)),
                                 true, debugContext);
    }

    template <typename T>
    typename std::enable_if<std::is_arithmetic<T>::value>::type setInitialValue(const Tensor& t,
                                                                                T value) {
        setInitialValues(t, std::vector<double>(1, static_cast<double>(value)), true);
    }
    template <typename T>
    void setInitialValue(const Tensor& t, ArrayRef<T> values) {
        std::vector<double> v;
        for (std::size_t i = 0; i < values.size(); ++i) {
            v.push_back(static_cast<double>(values[i]));
        }
        setInitialValues(t, v, false);
    }
    template <typename T>
    void setInitialValue(const Tensor& t, const std::vector<T>& values) {
        setInitialValue(t, ArrayRef<T>(values));
    }
    // Vertex state: a plain data member of the codelet class.
    template <typename T>
    typename std::enable_if<std::is_arithmetic<T>::value>::type setInitialValue(const FieldRef& f,
                                                                                T value) {
        setStateValue(f, static_cast<double>(value));
    }

    void setTileMapping(const Tensor& t, unsigned tile);
    void setTileMapping(VertexRef v, unsigned tile);
    void setTileMapping(const Tensor& t, const TileToTensorMapping& mapping);
    TileToTensorMapping getTileMapping(const Tensor& t) const;

    ComputeSet addComputeSet(const DebugContext& debugContext = DebugContext());
    VertexRef addVertex(ComputeSet cs, StringRef vertexType);
    VertexRef addVertex(ComputeSet cs, StringRef vertexType,
                        std::initializer_list<ConnectionDesc> connections);
    VertexRef addVertex(ComputeSet cs, StringRef vertexType,
                        const std::vector<ConnectionDesc>& connections);
    void connect(const FieldRef& field, const Tensor& t);
    void connect(const FieldRef& field, const std::vector<Tensor>& tensors);
    void setFieldSize(const FieldRef& field, std::size_t size);
    void setPerfEstimate(const VertexRef& v, std::uint64_t cycles, std::uint64_t flops = 0);
    // The older name of setPerfEstimate.
    void setCycleEstimate(const VertexRef& v, std::uint64_t cycles);
    void registerPerfEstimator(StringRef vertexTypeName, PerfEstimateFunc f);

    void createHostWrite(StringRef handle, const Tensor& t, bool rearrangeOnHost = false);
    void createHostRead(StringRef handle, const Tensor& t, bool rearrangeOnHost = false);
    DataStream addHostToDeviceFIFO(StringRef handle, const Type& elementType,
                                   std::size_t numElements,
                                   const OptionFlags& options = OptionFlags());
    DataStream addDeviceToHostFIFO(StringRef handle, const Type& elementType,
                                   std::size_t numElements,
                                   const OptionFlags& options = OptionFlags());
    // Host-side (DRAM) memory of `repeats` rows of numElements elements,
    // copied with program::Copy and Engine::copyTo/FromRemoteBuffer. Its
    // transfers cost what the host link costs.
    RemoteBuffer addRemoteBuffer(StringRef handle, const Type& elementType, std::size_t numElements,
                                 std::size_t repeats = 1, bool rearrangeOnHost = false,
                                 bool optimiseMemory = false);
    // A program run by program::Call (Tessera runs the body in place).
    Function addFunction(const program::Program& program);

    // The graph as text: JSON (variables, compute sets, vertices, their
    // edges) or Tessera's binary executable format.
    void serialize(std::ostream& out, SerializationFormat format) const;
    void serialize(std::ostream& out, const std::vector<program::Program>& progs,
                   SerializationFormat format) const;
    // Graphviz DOT: vertices and the tensors their fields connect
    // (outputVertexGraph); compute sets and the variables they read and write
    // (outputComputeGraph).
    void outputVertexGraph(std::ostream& out,
                           ArrayRef<program::Program> progs = ArrayRef<program::Program>()) const;
    void outputComputeGraph(std::ostream& out,
                            ArrayRef<program::Program> progs = ArrayRef<program::Program>()) const;

private:
    friend struct detail::Access;
    Tensor addConstantValues(const Type& type, ArrayRef<std::size_t> shape,
                             const std::vector<double>& values, bool fill, const DebugContext& dc);
    void setInitialValues(const Tensor& t, const std::vector<double>& values, bool fill);
    void setStateValue(const FieldRef& f, double value);
    VertexRef addVertexConnected(ComputeSet cs, StringRef vertexType,
                                 const ConnectionDesc* connections, std::size_t count);
    std::shared_ptr<detail::GraphImpl> impl_;
};

} // namespace poplar

#endif
