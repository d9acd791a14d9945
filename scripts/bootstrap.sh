#!/usr/bin/env bash
# Installs the system packages the build and tests need, when missing: libsqlite3-dev, zlib1g-dev,
# libbsd-dev, the sqlite3 shell (tests read stores with it), libpq-dev (the PostgreSQL store's
# client library) and postgresql (the server scripts/postgres.sh starts for the tests). Works as root or through
# sudo; does nothing when everything is there.
set -euo pipefail

need=()
[[ -f /usr/include/sqlite3.h ]] || need+=(libsqlite3-dev)
[[ -f /usr/include/bsd/sys/tree.h ]] || need+=(libbsd-dev)
[[ -f /usr/include/zlib.h ]] || need+=(zlib1g-dev)
command -v sqlite3 >/dev/null || need+=(sqlite3)
[[ -f /usr/include/postgresql/libpq-fe.h ]] || need+=(libpq-dev)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
((${#need[@]})) || exit 0

as_root=()
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "bootstrap: need root or sudo to install ${need[*]}" >&2; exit 1; }
    as_root=(sudo)
fi
echo "== installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq "${need[@]}"
