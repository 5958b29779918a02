// <ipudef.h>: the IPU's short vector types, as codelets use them. On Tessera
// codelets run on the host, so these are GCC vector types of the same width
// (element access [i], element-wise arithmetic). half vectors hold _Float16.
#ifndef TESSERA_IPUDEF_H
#define TESSERA_IPUDEF_H

typedef float float2 __attribute__((vector_size(8)));
typedef float float4 __attribute__((vector_size(16)));
typedef _Float16 half2 __attribute__((vector_size(4)));
typedef _Float16 half4 __attribute__((vector_size(8)));
typedef _Float16 half8 __attribute__((vector_size(16)));
typedef int int2 __attribute__((vector_size(8)));
typedef int int4 __attribute__((vector_size(16)));
typedef unsigned int uint2 __attribute__((vector_size(8)));
typedef unsigned int uint4 __attribute__((vector_size(16)));
typedef short short2 __attribute__((vector_size(4)));
typedef short short4 __attribute__((vector_size(8)));
typedef unsigned short ushort2 __attribute__((vector_size(4)));
typedef unsigned short ushort4 __attribute__((vector_size(8)));
typedef signed char char2 __attribute__((vector_size(2)));
typedef signed char char4 __attribute__((vector_size(4)));
typedef unsigned char uchar2 __attribute__((vector_size(2)));
typedef unsigned char uchar4 __attribute__((vector_size(4)));
typedef long long2 __attribute__((vector_size(16)));

#endif
