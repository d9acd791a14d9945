#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests and for trying the PostgreSQL store (issue 16).
#
#   scripts/postgres.sh start [DIR]   initdb in DIR (made if missing), start the server on a Unix
#                                     socket in DIR (no TCP port: nothing to conflict with), and
#                                     print the line `export COREDATA_TEST_POSTGRES_URL=...`
#   scripts/postgres.sh env [DIR]     print that line again for a running cluster
#   scripts/postgres.sh stop [DIR]    stop the server and remove DIR
#
# DIR defaults to $COREDATA_POSTGRES_DIR, else ${TMPDIR:-/tmp}/coredata-postgres. The server runs
# as the calling user; as root (initdb refuses root) it runs as the `postgres` user of Debian's
# package through `runuser`, and DIR is given to that user. Durability is off (fsync=off): the
# cluster is for tests, never for data. Typical use:
#
#   eval "$(scripts/postgres.sh start)"; swift test; scripts/postgres.sh stop
set -euo pipefail

command=${1:-}
dir=${2:-${COREDATA_POSTGRES_DIR:-${TMPDIR:-/tmp}/coredata-postgres}}

bindir() {
    local candidate
    if command -v pg_config >/dev/null && candidate=$(pg_config --bindir 2>/dev/null) \
        && [[ -x $candidate/initdb ]]; then
        echo "$candidate"; return
    fi
    for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [[ -x $candidate/initdb ]] && { echo "$candidate"; return; }
    done
    command -v initdb >/dev/null && { dirname "$(command -v initdb)"; return; }
    echo "postgres.sh: PostgreSQL's server programs (initdb, pg_ctl) are not installed:" \
         "run scripts/bootstrap.sh or apt-get install postgresql" >&2
    exit 1
}

# Runs a server program as the cluster's owner.
as_owner() {
    if [[ $(id -u) -eq 0 ]]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

url() {
    # libpq's URI form: the database `postgres`, user `coredata`, the socket folder as host.
    local host
    host=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$dir")
    echo "postgresql://coredata@/postgres?host=$host"
}

case $command in
start)
    bin=$(bindir)
    if [[ -f $dir/data/postmaster.pid ]] && as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
        echo "export COREDATA_TEST_POSTGRES_URL='$(url)'"
        exit 0
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    if [[ $(id -u) -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || { echo "postgres.sh: running as root needs the postgres user (Debian's postgresql package)" >&2; exit 1; }
        chown postgres: "$dir"
        # Every folder above DIR must let the postgres user through.
        parent=$(dirname "$dir")
        while [[ $parent != / ]]; do
            [[ $(stat -c %a "$parent") =~ [1357]$ ]] || chmod o+x "$parent"
            parent=$(dirname "$parent")
        done
    fi
    if [[ ! -f $dir/data/PG_VERSION ]]; then
        as_owner "$bin/initdb" -D "$dir/data" -U coredata -A trust -E UTF8 --locale=C.UTF-8 \
            >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-k $dir -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
        start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "export COREDATA_TEST_POSTGRES_URL='$(url)'"
    ;;
env)
    [[ -f $dir/data/postmaster.pid ]] || { echo "postgres.sh: no cluster running in $dir" >&2; exit 1; }
    dir=$(cd "$dir" && pwd)
    echo "export COREDATA_TEST_POSTGRES_URL='$(url)'"
    ;;
stop)
    if [[ -f $dir/data/PG_VERSION ]]; then
        bin=$(bindir)
        as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: scripts/postgres.sh start|env|stop [DIR]" >&2
    exit 2
    ;;
esac
