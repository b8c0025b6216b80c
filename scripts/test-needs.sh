# What `npm test` needs beside Node.js, found or made ready; sourced by
# scripts/test.sh, so that what it exports reaches the tests.
#
# - Debian's chromium, haproxy, redis-server, postgresql and prometheus (for
#   promtool, which checks deploy/prometheus): installed with
#   apt-get when missing and running as root; otherwise the run stops at once
#   with the one command to run.
# - A PostgreSQL server that lets the tests in without a password
#   (TEST_DATABASE_URL, by default postgres@127.0.0.1:5432): the machine's own
#   if it answers, or its Debian cluster started if it is down; failing both,
#   a cluster of the run's own under the temporary directory (trust
#   authentication, port 55432), left running for the next run.
# The tests start every Redis they need themselves, from the redis-server binary.

needs_fail() {
  echo "npm test: $1" >&2
  exit 1
}

needs_missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || needs_missing+=(chromium)
[ -x "${HAPROXY_BIN:-/usr/sbin/haproxy}" ] || needs_missing+=(haproxy)
[ -x "${PROMTOOL_BIN:-/usr/bin/promtool}" ] || needs_missing+=(prometheus)
command -v redis-server >/dev/null || needs_missing+=(redis-server)
needs_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }
[ -n "${POSTGRES_BIN:-$(needs_pg_bin)}" ] || needs_missing+=(postgresql)
if [ ${#needs_missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "npm test: installing ${needs_missing[*]} (Debian packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${needs_missing[@]}" >/dev/null
  else
    needs_fail "missing ${needs_missing[*]}: run  sudo apt-get install -y ${needs_missing[*]}  (or set CHROMIUM_PATH, HAPROXY_BIN, PROMTOOL_BIN, POSTGRES_BIN)"
  fi
fi
export POSTGRES_BIN="${POSTGRES_BIN:-$(needs_pg_bin)}"

needs_pg_lets_in() { psql "$1" -w -Atqc 'SELECT 1' >/dev/null 2>&1; }
needs_pg_wait() {
  for _ in $(seq 1 30); do needs_pg_lets_in "$1" && return 0; sleep 1; done
  return 1
}
needs_url="${TEST_DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
if ! needs_pg_lets_in "$needs_url"; then
  [ -n "${TEST_DATABASE_URL:-}" ] && needs_fail "PostgreSQL does not let the tests in at TEST_DATABASE_URL ($TEST_DATABASE_URL)"
  if [ "$(id -u)" = 0 ] && ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null && [ -d /etc/postgresql ] && [ -n "$(ls /etc/postgresql)" ]; then
    echo "npm test: starting the machine's PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -n 1)" main start || true
    needs_pg_wait "$needs_url" || true
  fi
fi
if ! needs_pg_lets_in "$needs_url"; then
  needs_dir="${TMPDIR:-/tmp}/oanquan-test-postgres"
  needs_url="postgresql://postgres@127.0.0.1:55432/postgres"
  needs_as_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
  if ! needs_pg_lets_in "$needs_url"; then
    echo "npm test: the tests' own PostgreSQL in $needs_dir, port 55432"
    if [ ! -f "$needs_dir/PG_VERSION" ]; then
      mkdir -p "$needs_dir"
      [ "$(id -u)" = 0 ] && chown postgres "$needs_dir"
      needs_as_owner "$POSTGRES_BIN/initdb" -D "$needs_dir" -U postgres --auth=trust >/dev/null
    fi
    needs_as_owner "$POSTGRES_BIN/pg_ctl" -D "$needs_dir" -l "$needs_dir/log" -w \
      -o "-p 55432 -c listen_addresses=127.0.0.1 -k $needs_dir -c max_connections=200" start >/dev/null
    needs_pg_wait "$needs_url" || needs_fail "the tests' own PostgreSQL did not start: see $needs_dir/log"
  fi
  export TEST_DATABASE_URL="$needs_url"
fi
