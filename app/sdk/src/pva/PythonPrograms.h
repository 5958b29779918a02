#pragma once
// The Python module's programs: pva.Program, one subclass per program type,
// pva.ComputeSet, and pva.ProgramVisitor, subclassable in Python.
#include <pybind11/pybind11.h>

void bindPrograms(pybind11::module_& m);
