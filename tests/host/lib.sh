# shellcheck shell=bash disable=SC2034
# SPDX-License-Identifier: GPL-2.0
# Shared by the host tests (bash): audit set-up, running the selected tests,
# the rules a test adds and removes, and readers of auditskip's JSON. Result
# lines, picking tests (-t, -l), saving and restoring audit policy and the
# metrics readers come from tests/lib/common.sh, the masks to expect from
# tests/lib/expected_mask.sh.
#
# Every rule a test adds carries a key from AUDIT_KEYS, so cleanup removes
# exactly those; each test adds the rules it needs and removes them again,
# so any test can run alone (-t NAME).

. tests/lib/common.sh
. tests/lib/expected_mask.sh

KEY=auditskip-test
AUDIT_KEYS="$KEY $KEY-full $KEY-metrics"
OUT=${OUT:-.output}
AUDITSKIP=$OUT/auditskip
GETPID_LOOP=$OUT/getpid_loop
TMP=

# Root, audit readable and not locked; saves the policy (restored at exit,
# with $TMP removed) and enables audit.
host_begin() {
	if [ "$(id -u)" != 0 ]; then
		echo "FAIL host tests: must run as root (they add audit rules and load BPF)"
		exit 1
	fi
	TMP=$(mktemp -d /tmp/auditskip-test.XXXXXX)
	if ! audit_policy_save "$TMP"; then
		echo "FAIL host tests: $AUDIT_POLICY_ERROR"
		rm -rf "$TMP"
		exit 1
	fi
	auditctl -e 1 >/dev/null
}

# Background processes a suite started ($BACKGROUND) stop before the audit
# policy is put back (host_begin's exit trap).
BACKGROUND=
before_policy_restore() {
	local p
	for p in $BACKGROUND; do
		kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
	done
}

# $TMP holds the files that watch and tree rules name: removed only once the
# rules are gone (a watched directory removed on the host leaves
# audit_n_rules stale until reboot).
after_policy_restore() {
	if [ "$RESTORE_STATUS" = 0 ]; then
		rm -rf "$TMP"
	else
		log "audit policy not restored exactly: $TMP left in place"
	fi
}

# Rules with one of AUDIT_KEYS loaded now, one a line.
test_rules_loaded() {
	local keys=${AUDIT_KEYS// /|}
	audit_rules_now | grep -E -- "(key=| -k )($keys)\$" || true
}

# run_tests: each selected test NAME runs as test_NAME (dashes become
# underscores) under run_test (a test that prints no result fails), between
# before_test and after_test (a suite may redefine
# them to set up and take down what each of its tests needs); rules a test
# left behind are removed before the next one.
before_test() { :; }
after_test() { :; }
run_tests() {
	local name key
	for name in $SELECTED; do
		before_test
		run_test "$name" "test_${name//-/_}"
		after_test
		if [ -n "$(test_rules_loaded)" ]; then
			log "test $name left rules loaded; removing them"
			for key in $AUDIT_KEYS; do
				auditctl -D -k "$key" >/dev/null 2>&1
			done
		fi
	done
}

# add_rules COUNT SYSCALL [KEY [UID]]: COUNT rules that name SYSCALL but
# cannot match (uids UID+1... no process has), loaded with one auditctl -R.
add_rules() {
	local i batch=$TMP/add.rules
	: >"$batch"
	for i in $(seq 1 "$1"); do
		echo "-a always,exit -F arch=b64 -S $2 -F uid=$((${4:-4000000} + i)) -k ${3:-$KEY}" >>"$batch"
	done
	auditctl -R "$batch" >"$TMP/auditctl.err" 2>&1
}

# rules_beside_getpid NAME COUNT KEY UID: for a test that counts getpid
# walks as skippable: true once getpid is skippable with the host's own rules
# and COUNT openat rules that cannot match (add_rules) are loaded; else a
# FAIL line of NAME says why.
rules_beside_getpid() {
	if ! "$AUDITSKIP" rules --json >"$TMP/pre.json" ||
		! jq -e '.skipped_syscalls | index("getpid")' "$TMP/pre.json" >/dev/null; then
		fail "$1" "getpid is not skippable with this host's rules; loaded now: $(auditctl -l | head -n 5)"
		return 1
	fi
	if ! add_rules "$2" openat "$3" "$4"; then
		fail "$1" "cannot add rules: $(head -c 300 "$TMP/auditctl.err")"
		return 1
	fi
}

# prometheus_start SCRAPE_CONFIGS: a Prometheus server on PROM_PORT (its
# pid PROM_PID, stopped at exit too) that scrapes every second the jobs
# SCRAPE_CONFIGS lists (YAML: the items of scrape_configs, indented by 2);
# true once it says it is ready, within 30 s.
PROM_PORT=
PROM_PID=
prometheus_start() {
	PROM_PORT=$(free_port)
	{
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\n'
		printf 'scrape_configs:\n%s\n' "$1"
	} >"$TMP/prometheus.yml"
	prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/prometheus-data" \
		--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$TMP/prometheus.log" 2>&1 &
	PROM_PID=$!
	BACKGROUND="$BACKGROUND $PROM_PID"
	wait_for 30 curl -sf -o /dev/null "http://127.0.0.1:$PROM_PORT/-/ready"
}

prometheus_stop() {
	[ -n "$PROM_PID" ] || return 0
	kill "$PROM_PID" 2>/dev/null
	wait "$PROM_PID" 2>/dev/null
	BACKGROUND=${BACKGROUND/ $PROM_PID/}
	PROM_PID=
}

# remove_rules [KEY]: every rule with KEY (default $KEY).
# shellcheck disable=SC2120
remove_rules() {
	auditctl -D -k "${1:-$KEY}" >/dev/null
}

# A syscall's field from a summary line: syscall_field FILE NAME FIELD
syscall_field() {
	jq -r --arg n "$2" --arg f "$3" \
		'select(.type == "summary") | ([.syscalls[] | select(.name == $n) | .[$f]] | add) // 0' "$1"
}

summary_field() {
	jq -r --arg f "$2" 'select(.type == "summary") | .[$f]' "$1"
}

# Program names the kernel keeps (15 characters) for everything auditskip loads.
leftover_programs() {
	bpftool prog list 2>/dev/null |
		grep -cE 'name (start_filter_|end_filter_|count_|follow_fork|forget_exit|mirror_)' || true
}

# check_detached NAME [WHAT]: nothing auditskip loads is still loaded. The
# kernel frees a closed program after an RCU grace period, so give it a few
# seconds; a program still listed after that is really left behind.
check_detached() {
	local left tries=0
	while left=$(leftover_programs) && [ "$left" != 0 ] && [ $tries -lt 50 ]; do
		sleep 0.1
		tries=$((tries + 1))
	done
	check_eq "$1" "$left" 0 "${2:+$2: }nothing left attached"
}

# expect_refusal NAME PATTERN ARGS...: non-zero exit, PATTERN on stderr, nothing attached.
expect_refusal() {
	local name=$1 pattern=$2 status
	shift 2
	"$AUDITSKIP" "$@" >/dev/null 2>"$TMP/err"
	status=$?
	if [ "$status" = 0 ]; then
		fail "$name" "exit status 0"
	elif ! grep -qE -e "$pattern" "$TMP/err"; then
		fail "$name" "message '$(head -c 300 "$TMP/err")' lacks /$pattern/"
	else
		pass "$name" "exit $status: $(head -n 1 "$TMP/err")"
	fi
	check_detached "$name"
}

# write_transforms_rules FILE: the rules file that takes every transform of
# a line into what the kernel lists (tests/host/rulesfile.sh, transforms;
# tests/host/ruletext.sh reads it back), with the paths it watches in $TMP.
write_transforms_rules() {
	mkdir -p "$TMP/tree"
	touch "$TMP/watched"
	cat >"$1" <<-EOF
		-a always,exit -F arch=b64 -S 2047 -k auditskip-test
		-a always,exit -F arch=b64 -S 2046 -F uid=4000001 -k auditskip-test
		-a always,exit -F arch=b64 -S 2045 -F uid=4000002 -k auditskip-test
		-a always,exit -F arch=b32 -S 2044 -F uid=4000003 -k auditskip-test
		-a always,exit -F arch=b64 -S 2043,2041,2039 -F uid=4000004 -k auditskip-test
		-a always,exit -F arch=b32 -S 2042,2040,2038 -F uid=4000005 -k auditskip-test
		-a always,exit -F arch=b64 -S 2037,2036 -F uid=4000006 -k auditskip-test
		-A always,exit -F arch=b64 -S getppid -F uid=4000007 -k auditskip-test
		-a always,exit -S openat -F auid!=unset -F exit=-EACCES -k auditskip-test
		-a never,exit -F arch=b64 -S getpid -F uid=4000008 -k auditskip-gone
		-a always,exit -F arch=b64 -S getpid -F uid=4000009 -k auditskip-test
		-D -k auditskip-gone
		-a always,exit -F arch=b64 -S getpid -F uid=4000010 -k auditskip-test
		-d always,exit -F arch=b64 -S getpid -F uid=4000010 -k auditskip-test
		-w $TMP/watched -p wa -k auditskip-test
		-w $TMP/tree/ -p r -k auditskip-test -k second
		-a always,exit -F arch=b64 -S execve -F exe=/usr/bin/true -k auditskip-test
		-a always,exit -F arch=b64 -S setuid -C uid!=euid -F a0&0x10 -k auditskip-test
		-a exit,never -F arch=b32 -S all -F auid=4000011
		-a always,exclude -F msgtype=CWD
		-a never,filesystem -F fstype=tracefs -k auditskip-test
		-a always,exit -F arch=b64 -S open -F perm=w -F inode=1234 -k auditskip-test
	EOF
	chmod 0640 "$1"
}

# write_mix_rules FILE: rules of every kind advise treats (tests/host/advise.sh;
# tests/host/ruletext.sh reads it back), with the paths they name in $TMP.
write_mix_rules() {
	mkdir -p "$TMP/d" "$TMP/w"
	: >"$TMP/w/f"
	cat >"$1" <<-EOF
		-a always,exit -F dir=$TMP/d -F perm=wa -k $KEY
		-a always,exit -F arch=b64 -S openat,getpid,execve -F perm=x -k $KEY
		-a always,exit -F arch=b32 -S chmod,fchmodat -F auid>=1000 -F auid!=unset -k $KEY
		-a always,exit -F arch=aarch64 -S openat -k $KEY
		-w $TMP/w/f -p wa -k $KEY
		-a always,exit -F arch=b64 -S getpid,read,openat -F perm=r -F dir=$TMP/d -k $KEY
		-a always,exit -F arch=b64 -S mkdir -C uid!=euid -F exit=-EACCES -k $KEY
		-a never,exit -F arch=b64 -S getpid -F uid=4000001 -k $KEY
		-a always,exit -F arch=b64 -S openat -F filetype=file -F success=0 -k $KEY
		-a always,exit -F arch=b64 -S kill -F a1=9 -F pid!=1 -k $KEY
	EOF
	chmod 0640 "$1"
}
