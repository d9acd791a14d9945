#!/usr/bin/env bash
# Builds the C API in release mode and installs it under a prefix:
#   PREFIX/include/coredata.h
#   PREFIX/lib/libcoredata.so            (as `swift build --product coredata` makes it:
#                                          soname libcoredata.so, exports only cd_* symbols)
#   PREFIX/lib/pkgconfig/coredata.pc     (Cflags, Libs with rpaths to the library and the
#                                          Swift runtime it needs at run time)
# Usage: scripts/install-capi.sh PREFIX        (default /usr/local)
# Environment: SCRATCH, the SwiftPM build folder (default .build-capi-release).
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=${1:-/usr/local}
scratch=${SCRATCH:-.build-capi-release}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

# Where the Swift runtime libraries (libswiftCore.so, libFoundation.so, ...) live.
swift_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
swift_libdir=$(cd "$swift_bin/../lib/swift/linux" && pwd)

# `swift build --product coredata` makes libcoredata.so (the product is named after the
# library, README "C quick start"). The version script keeps every symbol but cd_* local,
# so the Swift metadata of CoreData and CoreDataC ($s... symbols) and the private runtime
# shim stay out of the dynamic symbol table. It is passed here, not in Package.swift,
# because library targets take no unsafeFlags (STYLE.md); so is the soname (SwiftPM sets
# none); the runpath lets the library find the Swift runtime.
echo "== swift build -c release --product coredata"
swift build -c release --product coredata --scratch-path "$scratch" \
    -Xswiftc -use-ld=lld \
    -Xlinker --version-script="$PWD/Sources/CoreDataC/exports.map" \
    -Xlinker -soname=libcoredata.so \
    -Xlinker -rpath="$swift_libdir"
built=$(swift build -c release --product coredata --scratch-path "$scratch" --show-bin-path)/libcoredata.so
[[ -f $built ]] || { echo "install-capi: swift build made no $built" >&2; exit 1; }

# Programs linked with -lcoredata record the library's soname as their dependency: it must
# be the installed file's name.
soname=$(readelf -d "$built" | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
if [[ $soname != libcoredata.so ]]; then
    echo "install-capi: $built has the soname '${soname:-none}', not libcoredata.so" >&2
    exit 1
fi

echo "== installing into $prefix"
install -d "$prefix/include" "$prefix/lib/pkgconfig"
install -m 644 include/coredata.h "$prefix/include/coredata.h"
install -m 755 "$built" "$prefix/lib/libcoredata.so"
version=$(sed -n 's/^#define CD_VERSION "\(.*\)"$/\1/p' include/coredata.h)
cat > "$prefix/lib/pkgconfig/coredata.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include
swiftlibdir=$swift_libdir

Name: coredata
Description: OpenCoreData's C API: Apple's Core Data stack on Linux over SQLite
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lcoredata -Wl,-rpath,\${libdir} -Wl,-rpath,\${swiftlibdir}
PC
echo "installed: $prefix/include/coredata.h $prefix/lib/libcoredata.so $prefix/lib/pkgconfig/coredata.pc"
