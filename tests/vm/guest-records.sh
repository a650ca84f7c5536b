#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What the record suites share (guest-advise.sh, guest-prefix.sh): the rule
# sets, the workload, and its records reduced to what a rule change must
# not alter. Sourced after guest-lib.sh, with RECORDS_SUITE set to the
# suite's result prefix and its suite_tests defined.
#
# The workload runs with loginuid 1000 (the example sets audit auid>=1000
# only), and touches the directories and files the sets name with syscalls
# in and outside the permission classes, native and i386; it also archives
# and extracts with tar.

W=/tmp/records  # scratch files of the suite
OWN=/tmp/advd   # the directory the suite's own rules name
# Directories the sets' dir= and -w rules name, and the suite's own.
DIRS="/etc/selinux /etc/sudoers.d /etc/NetworkManager /var/log/audit $OWN"
SETS="30-stig 30-pci-dss-v31 30-ospp-v42 30-nispom own"
# The suite's suite_tests reads SETS: declaring ends here (guest-lib.sh).
declared
mkdir -p "$W" $DIRS

own_rules() {
	cat <<EOF
-a always,exit -F dir=$OWN -F perm=wa -k own-wa
-a always,exit -F dir=$OWN -F perm=r -F auid>=1000 -k own-r
-a always,exit -F arch=b32 -F dir=$OWN -F perm=rwxa -k own-b32
-a always,exit -F arch=b64 -S openat,getpid,unlinkat,execve -F dir=$OWN -F perm=x -k own-x
-a always,exit -F arch=b64 -S getpid -F perm=r -k own-never
-a always,exit -F arch=aarch64 -S openat -k own-foreign
-a always,exit -F arch=b64 -S getpid -F auid=1000 -k own-getpid
-w $OWN/watched -p wa -k own-watch
EOF
}

# The workload: each directory gets both corpus builds' perm run (one
# syscall of every permission kind, then an exec) and busybox's file
# commands; the watched files are read and written; a few syscalls no rule
# narrows. Run with loginuid 1000.
cat >"$W/workload.sh" <<EOF
for d in $DIRS; do
	/bin/corpus perm \$d \$d/x
	/bin/corpus32 perm \$d \$d/x32
	ls -l \$d >/dev/null
	stat \$d/x >/dev/null
	cat \$d/x >/dev/null
	echo hi >\$d/new
	chmod 600 \$d/new
	mv \$d/new \$d/new2
	rm \$d/new2
	mkdir \$d/sub
	rmdir \$d/sub
	touch \$d/t
	ln -s t \$d/ln
	readlink \$d/ln >/dev/null
	rm \$d/t \$d/ln
	cd \$d && cd /
	tar -cf \$d/a.tar -C /etc passwd group && tar -xf \$d/a.tar -C \$d
	rm -f \$d/a.tar \$d/passwd \$d/group
done
cat /etc/passwd /etc/group /etc/hosts >/dev/null
echo '127.0.0.2 vmtest2' >>/etc/hosts
echo x >>$OWN/watched
chmod 644 /etc/group
/bin/corpus getpid 20
/bin/corpus32 getpid 20
/bin/corpus exec 2
/bin/corpus fork 3
EOF

# The same state before each run: each directory holds only the two
# executables the perm runs exec (the directories themselves stay: some
# are watched, and removing a watched tree kills its rule).
prepare() {
	for _d in $DIRS; do
		find "$_d" -mindepth 1 -maxdepth 1 -exec rm -rf {} \;
		cp /bin/corpus "$_d/x"
		cp /bin/corpus32 "$_d/x32"
	done
	: >"$OWN/watched"
	printf '127.0.0.1 localhost\n' >/etc/hosts
}

# records NAME: the workload's audit records, reduced, counted, in
# $W/NAME.recs ("COUNT type=N field=value ...").
records() {
	prepare
	# Records logged while no audit daemon listened (loading the rules,
	# advise, prepare) wait in the hold queue for the next one: a first
	# listener takes them, so the run's own sees only what follows.
	listen "$W/$1.held" "$W/ready"
	kill -TERM $LISTENER
	wait $LISTENER
	listen "$W/$1.raw" "$W/ready"
	_rp=$LISTENER
	sh -c "echo 1000 >/proc/self/loginuid && exec sh $W/workload.sh" >/dev/null 2>&1
	kill -TERM $_rp
	wait $_rp
	_rrc=$?
	if [ $_rrc -ne 0 ]; then
		fail "$RECORDS_SUITE/$1/records" "audit_records exit status $_rrc: $(head -n 3 "$W/$1.raw.err")"
		return 1
	fi
	# (CONFIG_CHANGE, 1305: the listeners' own registration as the audit
	# daemon, whose records may land on either side of a run, not the
	# workload's)
	awk '$1 == "type=1305" { next }
	{
		out = $1
		for (i = 2; i <= NF; i++)
			if ($i ~ /^(arch|syscall|success|key|comm|exe|name|nametype|cwd|proctitle)=/)
				out = out " " $i
		print out
	}' "$W/$1.raw" | sort | uniq -c | sed 's/^ *//' >"$W/$1.recs"
}

# records_begin: the tools the suite needs, audit on with a backlog that
# holds a run's records while audit_records reads them, the own set written.
records_begin() {
	log "$RECORDS_SUITE: kernel $KVER"
	for _b in auditskip corpus corpus32 audit_records; do
		if ! command -v $_b >/dev/null; then
			fail "$RECORDS_SUITE/tools" "$_b missing from the initramfs (make static)"
			exit 1
		fi
	done
	auditctl -e 1 >/dev/null
	auditctl -b 65536 >/dev/null
	own_rules >"$W/own.rules"
}

# records_total NAME: how many records $W/NAME.recs holds.
records_total() {
	awk '{ s += $1 } END { print s + 0 }' "$W/$1.recs"
}

# records_same A B: whether runs A and B made the same records; if not,
# $RECORDS_DIFF shows the first differences (- A, + B), all of them in
# $W/B.diff.
records_same() {
	diff "$W/$1.recs" "$W/$2.recs" >"$W/$2.diff" && return 0
	RECORDS_DIFF=$(grep '^[-+][0-9]' "$W/$2.diff" | head -n 8 | tr '\n' ';' | cut -c1-900)
	return 1
}

# records_control BROKEN WHAT: the comparison can fail. BROKEN, the own
# set's file with WHAT done to it, loaded, must lose records of the own set
# as loaded.
records_control() {
	rules_reset
	auditctl -R "$1" >/dev/null 2>&1
	records broken || { rules_reset; return; }
	rules_reset
	if records_same own.orig broken; then
		fail "$RECORDS_SUITE/control" "$2 made the same records"
	else
		pass "$RECORDS_SUITE/control" "$2: the records differ, $(grep -c '^-[0-9]' "$W/broken.diff") kinds of record lost"
	fi
}
