// The system zlib: raw DEFLATE for the model a SQLite store keeps in Z_MODELCACHE.
#ifndef CCOREDATAZLIB_SHIM_H
#define CCOREDATAZLIB_SHIM_H
#include <zlib.h>

// deflateInit2/inflateInit2 are macros over the _ functions; Swift cannot call macros.
static inline int cdz_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
static inline int cdz_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}
#endif
