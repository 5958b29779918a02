// Constants of popops' encodings: the index of a masked label (its one-hot
// row is all off) and the small values added before a natural logarithm.
#ifndef TESSERA_POPOPS_ENCODINGCONSTANTS_HPP
#define TESSERA_POPOPS_ENCODINGCONSTANTS_HPP

#define MASKED_LABEL_CODE 0xFFFFFFFFU
#define EPS_LOG_N_FLOAT (1.17549435e-38F)
#define EPS_LOG_N_HALF (0.000000059605F)

#endif
