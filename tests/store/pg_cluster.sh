#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
#
# A throwaway PostgreSQL cluster for the store tests: initdb into a new
# directory under /tmp (a short path: a Unix socket's name has at most 107
# bytes, and the server's user must reach it), its socket there and
# 127.0.0.1 on a free port, run as an unprivileged user (postgres refuses
# root: as root, the `postgres` user Debian's package made, through
# setpriv). Nothing listens beyond loopback. DIR says where it is.
#
#   tests/store/pg_cluster.sh start DIR
#   tests/store/pg_cluster.sh stop DIR
#
# start writes DIR/env, which the tests read: BC_PG_ADMIN, a libpq name
# of the cluster's superuser over the socket (trust), BC_PG_HOST and
# BC_PG_PORT for 127.0.0.1, where a password is asked (scram-sha-256), and
# BC_PG_WRITER/BC_PG_PASSWORD, a role that logs in with it. Where the
# server cannot start (no postgresql package, no unprivileged user), start
# writes DIR/skip with the reason and exits 0: the tests that need it
# skip and print it. stop stops it and removes DIR.
set -euo pipefail

cmd=${1:?usage: pg_cluster.sh start|stop DIR}
dir=${2:?usage: pg_cluster.sh start|stop DIR}

skip() {
	mkdir -p "$dir"
	echo "$*" >"$dir/skip"
	echo "pg_cluster: $*" >&2
	exit 0
}

bin=
for v in 17 16 15 14 13; do
	if [ -x "/usr/lib/postgresql/$v/bin/initdb" ]; then
		bin=/usr/lib/postgresql/$v/bin
		break
	fi
done

# As the unprivileged user when root; as oneself otherwise.
as_user() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid="$user" --regid="$user" --init-groups --reset-env -- "$@"
	else
		"$@"
	fi
}

case $cmd in
start)
	if [ -f "$dir/cluster" ]; then
		"$0" stop "$dir"
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	[ -n "$bin" ] || skip "no PostgreSQL server installed (scripts/setup.sh installs Debian's postgresql)"
	user=$(id -un)
	if [ "$(id -u)" -eq 0 ]; then
		user=postgres
		id "$user" >/dev/null 2>&1 ||
			skip "postgres refuses to run as root, and there is no 'postgres' user to run it as"
		command -v setpriv >/dev/null || skip "no setpriv to run the server as '$user'"
	fi
	cluster=$(mktemp -d /tmp/bc-pg.XXXXXX)
	echo "$cluster" >"$dir/cluster"
	[ "$(id -u)" -ne 0 ] || chown "$user" "$cluster"
	chmod 0755 "$cluster"
	# a free port: the first of a few that nothing listens on
	port=
	for p in $(shuf -i 20000-60000 -n 20); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			port=$p
			break
		fi
	done
	[ -n "$port" ] || skip "no free port on 127.0.0.1"
	pwfile=$(mktemp)
	echo "postgres-admin-$$" >"$pwfile"
	chmod 0644 "$pwfile"
	if ! as_user "$bin/initdb" -D "$cluster/data" -U postgres --auth-local=trust \
		--auth-host=scram-sha-256 --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 \
		>"$dir/initdb.log" 2>&1; then
		rm -f "$pwfile"
		skip "initdb failed: $(tail -n 1 "$dir/initdb.log")"
	fi
	rm -f "$pwfile"
	if ! as_user "$bin/pg_ctl" -D "$cluster/data" -l "$cluster/server.log" -w -t 30 \
		-o "-k $cluster -c listen_addresses=127.0.0.1 -p $port -c fsync=off" start >/dev/null 2>&1; then
		skip "the server did not start: $(tail -n 1 "$cluster/server.log" 2>/dev/null)"
	fi
	echo "$port" >"$dir/port"
	admin="host=$cluster port=$port user=postgres dbname=postgres"
	password="bc-writer-Secr3t-$$"
	psql=$(command -v psql || echo "$bin/psql")
	if ! "$psql" -X -q -v ON_ERROR_STOP=1 "$admin" >/dev/null 2>"$dir/psql.log" <<EOF
CREATE ROLE bc_writer LOGIN PASSWORD '$password';
CREATE ROLE bc_reader LOGIN PASSWORD '$password';
EOF
	then
		skip "cannot make the test roles: $(tail -n 1 "$dir/psql.log")"
	fi
	# KEY='VALUE' lines: sourced by the shell tests, read by the C ones
	cat >"$dir/env" <<EOF
BC_PG_ADMIN='$admin'
BC_PG_SOCKET='$cluster'
BC_PG_HOST='127.0.0.1'
BC_PG_PORT='$port'
BC_PG_WRITER='bc_writer'
BC_PG_READER='bc_reader'
BC_PG_PASSWORD='$password'
BC_PG_BIN='$bin'
EOF
	chmod 0644 "$dir/env"
	echo "pg_cluster: PostgreSQL in $cluster, 127.0.0.1:$port" >&2
	;;
stop)
	cluster=$(cat "$dir/cluster" 2>/dev/null || true)
	case $cluster in
	/tmp/bc-pg.*)
		if [ -n "$bin" ] && [ -d "$cluster/data" ]; then
			user=$(stat -c %U "$cluster/data")
			as_user "$bin/pg_ctl" -D "$cluster/data" -m fast -w stop >/dev/null 2>&1 || true
		fi
		rm -rf "$cluster"
		;;
	esac
	rm -rf "$dir"
	;;
*)
	echo "pg_cluster.sh: unknown command '$cmd'; expected start or stop" >&2
	exit 2
	;;
esac
