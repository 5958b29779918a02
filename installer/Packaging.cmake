# CPack: `cpack --preset release` (or installer/package.sh) turns the release
# build into a Debian package and a relocatable tarball, both holding
# bin/tessera, bin/tessera-cli, the Poplar-compatible SDK (lib/tessera/poplar-sdk),
# the .desktop entry, the MIME type and the icons.
# Install rules live next to what they install: app/CMakeLists.txt (binaries),
# app/sdk/CMakeLists.txt (the Poplar-compatible SDK, <prefix>/lib/tessera/poplar-sdk),
# resources/CMakeLists.txt (desktop integration).
include(GNUInstallDirs)

set(CPACK_PACKAGE_NAME "tessera")
set(CPACK_PACKAGE_VENDOR "The Tessera developers")
set(CPACK_PACKAGE_CONTACT "Tessera developers <tessera-dev@tessera.invalid>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Tile-level profiler and visual debugger for bulk-synchronous (IPU-style) programs")
set(CPACK_PACKAGE_DESCRIPTION
    "Tessera runs Poplar-style programs on an embedded execution engine that models \
IPU-like processors (many tiles, each with its own SRAM, running bulk-synchronous \
supersteps) and records what a tile-level profiler needs into an SQLite report. \
The tessera GUI explores and compares reports and steps through programs; \
tessera-cli captures, summarises, diffs and exports reports headlessly, e.g. in CI.")
set(CPACK_PACKAGE_DIRECTORY "${CMAKE_BINARY_DIR}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB;TGZ")

# Tarball: tessera-<version>-linux-<arch>.tar.gz with one top-level folder.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(_tessera_arch "x86_64")
else()
  set(_tessera_arch "${CMAKE_SYSTEM_PROCESSOR}")
endif()
set(CPACK_PACKAGE_FILE_NAME "tessera-${PROJECT_VERSION}-linux-${_tessera_arch}")
set(CPACK_ARCHIVE_FILE_NAME "${CPACK_PACKAGE_FILE_NAME}")

# Debian: tessera_<version>-1_<arch>.deb, installed under /usr, run-time
# dependencies computed by dpkg-shlibdeps (package dpkg-dev) from the binaries.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_NAME "tessera")
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# OpenBLAS is loaded when a workload's host check first needs it, not linked
# (engine/workloads/HostBlas.cpp), so dpkg-shlibdeps cannot see it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libopenblas0")
# The icon theme and MIME database pick up the installed files through dpkg
# triggers of these packages; recommended, not required.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hicolor-icon-theme, shared-mime-info, desktop-file-utils")
# CPACK_PACKAGING_INSTALL_PREFIX is left unset on purpose: the DEB generator
# then installs under /usr, the tarball holds bin/ and share/ at its top.

# The Python module pva lives in the SDK's python/ directory; a .pth file in
# Debian's dist-packages puts it on Python's path (the line is relative to the
# .pth file: /usr/lib/python3/dist-packages -> /usr/lib/tessera/poplar-sdk/python),
# so `import pva` works without sourcing enable.sh.
if(TESSERA_PVA_PYTHON)
  file(WRITE ${CMAKE_BINARY_DIR}/tessera-pva.pth "../../tessera/poplar-sdk/python\n")
  install(FILES ${CMAKE_BINARY_DIR}/tessera-pva.pth DESTINATION lib/python3/dist-packages)
endif()

set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/" "/\\\\.cache/" "\\\\.tsr$")

include(CPack)
