// popnn::PoolingType: MAX, AVG (the mean of the window's non-padding
// elements) and SUM.
#ifndef TESSERA_POPNN_POOLINGDEF_HPP
#define TESSERA_POPNN_POOLINGDEF_HPP

namespace popnn {

enum class PoolingType { MAX, AVG, SUM };

} // namespace popnn

#endif
