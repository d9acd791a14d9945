#ifndef CCOREDATALIBPQ_SHIM_H
#define CCOREDATALIBPQ_SHIM_H
/* The system libpq (Debian's libpq-dev), PostgreSQL's C client, as one Clang module. Debian
 * installs its headers under /usr/include/postgresql. */
#include <postgresql/libpq-fe.h>
#endif
