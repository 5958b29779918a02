// The Python module pva: libpva's object model with libpva's Python spelling
// (attributes, not calls: report.compilation.target.numTiles), and a
// subclassable pva.ProgramVisitor (PythonPrograms.cpp).
#include "PythonPrograms.h"

#include <pva/pva.hpp>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace {

template <typename T>
std::string versionRepr(const T& v) {
    return "<pva.Version " + v.string() + ">";
}

} // namespace

PYBIND11_MODULE(pva, m) {
    m.doc() = "The PopVision analysis API (libpva) over Tessera reports";
    py::register_exception<pva::error>(m, "Error", PyExc_RuntimeError);

    m.def("openReport", &pva::openReport, py::arg("reportPath"), py::arg("debugPath") = "",
          "Opens a Tessera report (profile.pop or .tsr)");

    py::class_<pva::Version>(m, "Version")
        .def_property_readonly("major", &pva::Version::major)
        .def_property_readonly("minor", &pva::Version::minor)
        .def_property_readonly("point", &pva::Version::point)
        .def_property_readonly("string", &pva::Version::string)
        .def("__str__", &pva::Version::string)
        .def("__repr__", &versionRepr<pva::Version>);

    py::class_<pva::Target>(m, "Target")
        .def_property_readonly("type", &pva::Target::type)
        .def_property_readonly("name", &pva::Target::name)
        .def_property_readonly("numIPUs", &pva::Target::numIPUs)
        .def_property_readonly("tilesPerIpu", &pva::Target::tilesPerIpu)
        .def_property_readonly("numTiles", &pva::Target::numTiles)
        .def_property_readonly("bytesPerTile", &pva::Target::bytesPerTile)
        .def_property_readonly("bytesPerIPU", &pva::Target::bytesPerIPU)
        .def_property_readonly("totalMemory", &pva::Target::totalMemory)
        .def_property_readonly("clockFrequency", &pva::Target::clockFrequency)
        .def_property_readonly("numReplicas", &pva::Target::numReplicas)
        .def_property_readonly("ipusPerReplica", &pva::Target::ipusPerReplica)
        .def_property_readonly("tilesPerReplica", &pva::Target::tilesPerReplica)
        .def_property_readonly("memoryPerReplica", &pva::Target::memoryPerReplica);

    py::class_<pva::Graph>(m, "Graph")
        .def_property_readonly("numComputeSets", &pva::Graph::numComputeSets)
        .def_property_readonly("numVertices", &pva::Graph::numVertices)
        .def_property_readonly("numEdges", &pva::Graph::numEdges)
        .def_property_readonly("numVariables", &pva::Graph::numVariables);

    py::class_<pva::MemoryUsage>(m, "MemoryUsage")
        .def_property_readonly("includingGaps", &pva::MemoryUsage::includingGaps)
        .def_property_readonly("excludingGaps", &pva::MemoryUsage::excludingGaps);

    py::class_<pva::MemoryCategory>(m, "MemoryCategory")
        .def_property_readonly("total", &pva::MemoryCategory::total);

    py::class_<pva::MemoryCategories>(m, "MemoryCategories")
        .def_property_readonly("alwaysLiveVariables", &pva::MemoryCategories::alwaysLiveVariables)
        .def_property_readonly("notAlwaysLiveVariables",
                               &pva::MemoryCategories::notAlwaysLiveVariables)
        .def_property_readonly("constants", &pva::MemoryCategories::constants)
        .def_property_readonly("vertexInstanceState", &pva::MemoryCategories::vertexInstanceState)
        .def_property_readonly("vectorListDescriptor", &pva::MemoryCategories::vectorListDescriptor)
        .def_property_readonly("vertexCode", &pva::MemoryCategories::vertexCode)
        .def_property_readonly("internalExchangeCode", &pva::MemoryCategories::internalExchangeCode)
        .def_property_readonly("hostExchangeCode", &pva::MemoryCategories::hostExchangeCode)
        .def_property_readonly("controlCode", &pva::MemoryCategories::controlCode)
        .def_property_readonly("stack", &pva::MemoryCategories::stack);

    py::class_<pva::MemoryRegion>(m, "MemoryRegion")
        .def_property_readonly("name", &pva::MemoryRegion::name)
        .def_property_readonly("bytes", &pva::MemoryRegion::bytes);

    py::class_<pva::TileMemoryUsage>(m, "TileMemoryUsage")
        .def_property_readonly("total", &pva::TileMemoryUsage::total)
        .def_property_readonly("category", &pva::TileMemoryUsage::category)
        .def_property_readonly("alwaysLiveBytes", &pva::TileMemoryUsage::alwaysLiveBytes)
        .def_property_readonly("notAlwaysLiveBytes", &pva::TileMemoryUsage::notAlwaysLiveBytes)
        .def_property_readonly("gapBytes", &pva::TileMemoryUsage::gapBytes)
        .def_property_readonly("overflowed", &pva::TileMemoryUsage::overflowed)
        .def_property_readonly("isOverflowed", &pva::TileMemoryUsage::isOverflowed)
        .def_property_readonly("interleaved", &pva::TileMemoryUsage::interleaved)
        .def_property_readonly("nonInterleaved", &pva::TileMemoryUsage::nonInterleaved)
        .def_property_readonly("regions", &pva::TileMemoryUsage::regions);

    py::class_<pva::Tile>(m, "Tile")
        .def_property_readonly("number", &pva::Tile::number)
        .def_property_readonly("ipu", &pva::Tile::ipu)
        .def_property_readonly("memory", &pva::Tile::memory);

    bindPrograms(m);

    py::class_<pva::Variable>(m, "Variable")
        .def_property_readonly("id", &pva::Variable::id)
        .def_property_readonly("name", &pva::Variable::name)
        .def_property_readonly("type", &pva::Variable::type)
        .def_property_readonly("size", &pva::Variable::size)
        .def_property_readonly("isConstant", &pva::Variable::isConstant);

    py::class_<pva::NotAlwaysLiveMemory>(m, "NotAlwaysLiveMemory")
        .def_property_readonly("bytes", &pva::NotAlwaysLiveMemory::bytes)
        .def_property_readonly("variables", &pva::NotAlwaysLiveMemory::variables);

    py::class_<pva::ProgramStep>(m, "ProgramStep")
        .def_property_readonly("id", &pva::ProgramStep::id)
        .def_property_readonly("program", &pva::ProgramStep::program)
        .def_property_readonly("notAlwaysLiveMemory", &pva::ProgramStep::notAlwaysLiveMemory)
        .def("notAlwaysLiveMemoryForTile", &pva::ProgramStep::notAlwaysLiveMemoryForTile,
             py::arg("tile"));

    py::class_<pva::Compilation>(m, "Compilation")
        .def_property_readonly("target", &pva::Compilation::target)
        .def_property_readonly("graph", &pva::Compilation::graph)
        .def_property_readonly("tiles", &pva::Compilation::tiles)
        .def_property_readonly("programs", &pva::Compilation::programs)
        .def_property_readonly("controlPrograms", &pva::Compilation::controlPrograms)
        .def_property_readonly("computeSets", &pva::Compilation::computeSets)
        .def_property_readonly("livenessProgramSteps", &pva::Compilation::livenessProgramSteps)
        .def_property_readonly("alwaysLiveVariables", &pva::Compilation::alwaysLiveVariables);

    py::class_<pva::IpuStep>(m, "IpuStep")
        .def_property_readonly("ipu", &pva::IpuStep::ipu)
        .def_property_readonly("cycles", &pva::IpuStep::cycles)
        .def_property_readonly("tileBalance", &pva::IpuStep::tileBalance)
        .def_property_readonly("activeTileBalance", &pva::IpuStep::activeTileBalance)
        .def_property_readonly("activeTiles", &pva::IpuStep::activeTiles)
        .def_property_readonly("dataIn", &pva::IpuStep::dataIn)
        .def_property_readonly("dataOut", &pva::IpuStep::dataOut);

    py::class_<pva::ExecutionStep>(m, "ExecutionStep")
        .def_property_readonly("run", &pva::ExecutionStep::run)
        .def_property_readonly("sequence", &pva::ExecutionStep::sequence)
        .def_property_readonly("cyclesFrom", &pva::ExecutionStep::cyclesFrom)
        .def_property_readonly("cyclesTo", &pva::ExecutionStep::cyclesTo)
        .def_property_readonly("cycles", &pva::ExecutionStep::cycles)
        .def_property_readonly("program", &pva::ExecutionStep::program)
        .def_property_readonly("cyclesByTile", &pva::ExecutionStep::cyclesByTile)
        .def_property_readonly("computeSets", &pva::ExecutionStep::computeSets)
        .def_property_readonly("ipus", &pva::ExecutionStep::ipus);

    py::class_<pva::Run>(m, "Run")
        .def_property_readonly("id", &pva::Run::id)
        .def_property_readonly("programIndex", &pva::Run::programIndex)
        .def_property_readonly("program", &pva::Run::program)
        .def_property_readonly("cyclesFrom", &pva::Run::cyclesFrom)
        .def_property_readonly("cyclesTo", &pva::Run::cyclesTo)
        .def_property_readonly("cycles", &pva::Run::cycles)
        .def_property_readonly("completed", &pva::Run::completed)
        .def_property_readonly("steps", &pva::Run::steps);

    py::class_<pva::Block>(m, "Block")
        .def_property_readonly("tile", &pva::Block::tile)
        .def_property_readonly("program", &pva::Block::program)
        .def_property_readonly("cyclesFrom", &pva::Block::cyclesFrom)
        .def_property_readonly("cyclesTo", &pva::Block::cyclesTo)
        .def_property_readonly("isCommon", &pva::Block::isCommon)
        .def_property_readonly("isOverflow", &pva::Block::isOverflow)
        .def_property_readonly("isBlockFlush", &pva::Block::isBlockFlush)
        .def_property_readonly("isStreamCopy", &pva::Block::isStreamCopy);

    py::class_<pva::Execution>(m, "Execution")
        .def_property_readonly("runs", &pva::Execution::runs)
        .def_property_readonly("steps", &pva::Execution::steps)
        .def_property_readonly("totalCycles", &pva::Execution::totalCycles)
        .def("blocks", &pva::Execution::blocks, py::arg("tile"));

    py::class_<pva::Report>(m, "Report")
        .def_property_readonly("version", &pva::Report::version)
        .def_property_readonly("poplarVersion", &pva::Report::poplarVersion)
        .def_property_readonly("compilation", &pva::Report::compilation)
        .def_property_readonly("execution", &pva::Report::execution)
        .def_property_readonly("path", &pva::Report::path);
}
