// poplar/VertexIntrospector.hpp: VertexIntrospector (defined with the perf estimator types).
#ifndef TESSERA_POPLAR_VERTEXINTROSPECTOR_HPP
#define TESSERA_POPLAR_VERTEXINTROSPECTOR_HPP

#include <poplar/PerfEstimateFunc.hpp>

#endif
