// poplar/CodeletFileType.hpp: CodeletFileType (defined with Graph::addCodelets).
#ifndef TESSERA_POPLAR_CODELETFILETYPE_HPP
#define TESSERA_POPLAR_CODELETFILETYPE_HPP

#include <poplar/Graph.hpp>

#endif
