// poplar/DataStream.hpp: DataStream and RemoteBuffer (defined with the other graph handles).
#ifndef TESSERA_POPLAR_DATASTREAM_HPP
#define TESSERA_POPLAR_DATASTREAM_HPP

#include <poplar/GraphElements.hpp>

#endif
