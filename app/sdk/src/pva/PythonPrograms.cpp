// pva.Program and its per-type classes, and pva.ProgramVisitor: a Python
// subclass's visitXxx methods are called with the program as its class.
#include "PythonPrograms.h"

#include <pva/pva.hpp>
#include <pybind11/stl.h>

#include <string>

namespace py = pybind11;

namespace {

// Lets Python subclasses override the visit methods.
class PyProgramVisitor : public pva::ProgramVisitor {
public:
    using pva::ProgramVisitor::ProgramVisitor;
#define TESSERA_PVA_VISIT(method, Class)                                                           \
    void method(const pva::Class& p) override {                                                    \
        PYBIND11_OVERRIDE(void, pva::ProgramVisitor, method, p);                                   \
    }
    TESSERA_PVA_VISIT(visitProgram, Program)
    TESSERA_PVA_VISIT(visitEmpty, EmptyProgram)
    TESSERA_PVA_VISIT(visitSequence, SequenceProgram)
    TESSERA_PVA_VISIT(visitRepeat, RepeatProgram)
    TESSERA_PVA_VISIT(visitRepeatWhileTrue, RepeatWhileTrueProgram)
    TESSERA_PVA_VISIT(visitRepeatWhileFalse, RepeatWhileFalseProgram)
    TESSERA_PVA_VISIT(visitIf, IfProgram)
    TESSERA_PVA_VISIT(visitSwitch, SwitchProgram)
    TESSERA_PVA_VISIT(visitOnTileExecute, OnTileExecuteProgram)
    TESSERA_PVA_VISIT(visitDoExchange, DoExchangeProgram)
    TESSERA_PVA_VISIT(visitGlobalExchange, GlobalExchangeProgram)
    TESSERA_PVA_VISIT(visitStreamCopyBegin, StreamCopyBeginProgram)
    TESSERA_PVA_VISIT(visitStreamCopyMid, StreamCopyMidProgram)
    TESSERA_PVA_VISIT(visitStreamCopyEnd, StreamCopyEndProgram)
    TESSERA_PVA_VISIT(visitSync, SyncProgram)
    TESSERA_PVA_VISIT(visitCall, CallProgram)
    TESSERA_PVA_VISIT(visitBlock, BlockProgram)
    TESSERA_PVA_VISIT(visitPrintTensor, PrintTensorProgram)
#undef TESSERA_PVA_VISIT
};

template <typename T>
py::class_<T, pva::Program, std::shared_ptr<T>> programClass(py::module_& m, const char* name) {
    return py::class_<T, pva::Program, std::shared_ptr<T>>(m, name);
}

} // namespace

void bindPrograms(py::module_& m) {
    py::class_<pva::ComputeSet>(m, "ComputeSet")
        .def_property_readonly("id", &pva::ComputeSet::id)
        .def_property_readonly("name", &pva::ComputeSet::name)
        .def_property_readonly("numVertices", &pva::ComputeSet::numVertices);

    py::class_<pva::Program, std::shared_ptr<pva::Program>> program(m, "Program");
    py::enum_<pva::Program::Type>(program, "Type")
        .value("Unknown", pva::Program::Type::Unknown)
        .value("Empty", pva::Program::Type::Empty)
        .value("Sequence", pva::Program::Type::Sequence)
        .value("Repeat", pva::Program::Type::Repeat)
        .value("RepeatWhileTrue", pva::Program::Type::RepeatWhileTrue)
        .value("RepeatWhileFalse", pva::Program::Type::RepeatWhileFalse)
        .value("If", pva::Program::Type::If)
        .value("Switch", pva::Program::Type::Switch)
        .value("OnTileExecute", pva::Program::Type::OnTileExecute)
        .value("DoExchange", pva::Program::Type::DoExchange)
        .value("GlobalExchange", pva::Program::Type::GlobalExchange)
        .value("StreamCopyBegin", pva::Program::Type::StreamCopyBegin)
        .value("StreamCopyMid", pva::Program::Type::StreamCopyMid)
        .value("StreamCopyEnd", pva::Program::Type::StreamCopyEnd)
        .value("Sync", pva::Program::Type::Sync)
        .value("Call", pva::Program::Type::Call)
        .value("Block", pva::Program::Type::Block)
        .value("PrintTensor", pva::Program::Type::PrintTensor);
    program.def_property_readonly("name", &pva::Program::name)
        .def_property_readonly("type", &pva::Program::type)
        .def_property_readonly("children", &pva::Program::children)
        .def_property_readonly("id", &pva::Program::id)
        .def_property_readonly("_id", &pva::Program::_id)
        .def("accept", &pva::Program::accept, py::arg("visitor"))
        .def("__repr__", [](const pva::Program& p) {
            return std::string("<pva.Program ") + pva::typeName(p.type()) + " '" + p.name() + "'>";
        });

    programClass<pva::EmptyProgram>(m, "EmptyProgram");
    programClass<pva::SequenceProgram>(m, "SequenceProgram");
    programClass<pva::RepeatProgram>(m, "RepeatProgram");
    programClass<pva::RepeatWhileTrueProgram>(m, "RepeatWhileTrueProgram");
    programClass<pva::RepeatWhileFalseProgram>(m, "RepeatWhileFalseProgram");
    programClass<pva::IfProgram>(m, "IfProgram");
    programClass<pva::SwitchProgram>(m, "SwitchProgram");
    // libpva's Python tutorial spells the compute set `computeset`.
    programClass<pva::OnTileExecuteProgram>(m, "OnTileExecuteProgram")
        .def_property_readonly("computeSet", &pva::OnTileExecuteProgram::computeSet)
        .def_property_readonly("computeset", &pva::OnTileExecuteProgram::computeSet);
    programClass<pva::DoExchangeProgram>(m, "DoExchangeProgram");
    programClass<pva::GlobalExchangeProgram>(m, "GlobalExchangeProgram");
    programClass<pva::StreamCopyBeginProgram>(m, "StreamCopyBeginProgram");
    programClass<pva::StreamCopyMidProgram>(m, "StreamCopyMidProgram");
    programClass<pva::StreamCopyEndProgram>(m, "StreamCopyEndProgram");
    programClass<pva::SyncProgram>(m, "SyncProgram");
    programClass<pva::CallProgram>(m, "CallProgram");
    programClass<pva::BlockProgram>(m, "BlockProgram");
    programClass<pva::PrintTensorProgram>(m, "PrintTensorProgram");

    py::class_<pva::ProgramVisitor, PyProgramVisitor>(m, "ProgramVisitor")
        .def(py::init<>())
        .def("visitProgram", &pva::ProgramVisitor::visitProgram)
        .def("visitEmpty", &pva::ProgramVisitor::visitEmpty)
        .def("visitSequence", &pva::ProgramVisitor::visitSequence)
        .def("visitRepeat", &pva::ProgramVisitor::visitRepeat)
        .def("visitRepeatWhileTrue", &pva::ProgramVisitor::visitRepeatWhileTrue)
        .def("visitRepeatWhileFalse", &pva::ProgramVisitor::visitRepeatWhileFalse)
        .def("visitIf", &pva::ProgramVisitor::visitIf)
        .def("visitSwitch", &pva::ProgramVisitor::visitSwitch)
        .def("visitOnTileExecute", &pva::ProgramVisitor::visitOnTileExecute)
        .def("visitDoExchange", &pva::ProgramVisitor::visitDoExchange)
        .def("visitGlobalExchange", &pva::ProgramVisitor::visitGlobalExchange)
        .def("visitStreamCopyBegin", &pva::ProgramVisitor::visitStreamCopyBegin)
        .def("visitStreamCopyMid", &pva::ProgramVisitor::visitStreamCopyMid)
        .def("visitStreamCopyEnd", &pva::ProgramVisitor::visitStreamCopyEnd)
        .def("visitSync", &pva::ProgramVisitor::visitSync)
        .def("visitCall", &pva::ProgramVisitor::visitCall)
        .def("visitBlock", &pva::ProgramVisitor::visitBlock)
        .def("visitPrintTensor", &pva::ProgramVisitor::visitPrintTensor);
}
