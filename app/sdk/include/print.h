// <print.h>: Poplar codelets include it for printf; on Tessera a codelet runs
// on the host, so this is the C library's.
#ifndef TESSERA_POPLAR_PRINT_H
#define TESSERA_POPLAR_PRINT_H

#include <cstdio>

#endif
