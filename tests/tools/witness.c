// SPDX-License-Identifier: GPL-2.0
/*
 * A witness workload for an audit rule set (tests/vm/guest-witness.sh):
 * for the rules as the kernel lists them (`auditctl -l`), it makes
 * syscalls that fire every rule it can, at least once, so that the same
 * run under the set and under a rewrite of it must make the same records,
 * rule by rule (the suite gives every rule a key of its own).
 *
 *   witness --plan RULES       what it will do per rule, and the rules it
 *                              cannot fire, named and counted
 *   witness --prepare RULES    before the rules are loaded: creates the
 *                              files and directories the rules name that
 *                              are missing (so that watches have an inode
 *                              and dir= rules a tree), copies of itself
 *                              where an exe= names a missing program, and
 *                              its scratch tree (-d DIR, default /wit/s)
 *   witness --save PLAN RULES  the plan, saved as the batches to run, and
 *                              the rules it cannot fire (CANNOT lines)
 *   witness --run PLAN         the run: every batch, each in a child
 *   witness RULES              both at once (RULES "-": standard input)
 *   witness --reduce RAW       audit_records' lines, reduced and counted
 *                              per key (see reduce())
 *   witness --do CREDS OP...   one batch (internal; witness32, the i386
 *                              build, runs the batches of b32 rules)
 *
 * The rules are read from their text alone (the syscall names with
 * libaudit's tables), not with auditskip's code. Each rule gets syscalls
 * whose fields pass where the witness can arrange it: the task state
 * (loginuid, uids, gids, fsuid, personality) is set in a forked child,
 * a0..a3 are passed, exit= and success= come from recipes (a 0600 file
 * behind a 0700 directory for -EACCES as fsuid 1000, an immutable file
 * for -EPERM, an existing name for -EEXIST), dir= and path= rules and
 * watches get their permission classes on the path or on scratch files
 * inside the directory, executed (with a bad argv, so nothing runs) for x.
 * Nothing it does changes a watched object: a write is an open for
 * writing that writes nothing or a truncate to the same size, a rename
 * or an unlink works on a hard link to the object, a chmod or chown sets
 * what is there, a removal of a directory the witness did not create is
 * refused by permissions. A rule is planned against the rules before it
 * (the first rule that matches a syscall gives the record its key, and a
 * never rule before it gives none): the witness picks the task state
 * that keeps the earlier rules from matching where it can.
 *
 * Every batch runs in a forked child (syscalls that end or signal the
 * process, block or fork run alone, under a timer), so nothing a rule
 * names can reach the runner. The run exits non-zero on internal errors
 * only: a child that could not set its task state, a plan that could not
 * be made.
 *
 * An op, as the plan prints it and as --do reads it, is
 * "NR|NAME|FLAGS|ARG|ARG..." with each ARG one of
 *   I:N          the integer N          S:STR      a pointer to STR
 *   B:N          a zeroed buffer of N   P:N        the pointer value N
 *   F:FL:PATH    an fd of open(PATH, FL) (closed after the call)
 *   Z:PATH       PATH's size            M:PATH     PATH's mode & 07777
 *   W:PATH       PATH's owner           Q:         the caller's pid
 *   O:FL         a struct open_how      X:FL       a struct xattr_args
 *   H:PATH       a file handle of PATH  N:FAM      a socket of family FAM
 *   U:PATH       a sockaddr_un          L:FAM      the address of a
 *                                                  listening socket
 *   Y:N          a pointer to the integer N
 *   A:ARG~ARG..  a pointer to an array of the ARGs (socketcall's)
 *   V:PATH       an argv of PATH and "--true" (a run that only exits)
 * and FLAGS letters: o alone in its child, u as fsuid 1000, 8 through
 * int 0x80 (i386 from the 64-bit build), f fork-like (both sides exit at
 * once), s rt_sigreturn through a signal handler, T in a child forked
 * with the task state set (task rules), x does not return.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/fs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>

#ifndef XATTR_REPLACE
#define XATTR_REPLACE 0x2
#endif

static const char *prog = "witness";

/* ---------------------------------------------------------- executor --- */
/*
 * Shared by both builds. Pointers handed to the kernel come from one static
 * pool, so they lie below 4 GiB in the static (non-PIE) builds: int 0x80
 * from the 64-bit build passes 32-bit pointers.
 */

static char pool[1 << 16] __attribute__((aligned(16)));
static size_t pool_used;

static void *pool_get(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (pool_used + n > sizeof(pool)) {
		fprintf(stderr, "%s: argument pool exhausted\n", prog);
		_exit(3);
	}
	p = pool + pool_used;
	pool_used += n;
	memset(p, 0, n);
	return p;
}

static char *pool_str(const char *s)
{
	char *p = pool_get(strlen(s) + 1);

	strcpy(p, s);
	return p;
}

static int op_fds[16];
static int op_nfds;
static struct sockaddr_storage listen_addr;
static socklen_t listen_len;

static int keep_fd(int fd)
{
	if (fd >= 0 && op_nfds < 16)
		op_fds[op_nfds++] = fd;
	return fd;
}

/* A listening socket on loopback for connect() to reach. */
static void *listener(int fam)
{
	int s = keep_fd(socket(fam, SOCK_STREAM, 0));

	memset(&listen_addr, 0, sizeof(listen_addr));
	if (fam == AF_INET6) {
		struct sockaddr_in6 *a = (void *)&listen_addr;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		listen_len = sizeof(*a);
	} else {
		struct sockaddr_in *a = (void *)&listen_addr;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		listen_len = sizeof(*a);
	}
	if (s >= 0 && bind(s, (void *)&listen_addr, listen_len) == 0 && listen(s, 4) == 0)
		getsockname(s, (void *)&listen_addr, &listen_len);
	void *p = pool_get(sizeof(listen_addr));
	memcpy(p, &listen_addr, sizeof(listen_addr));
	return p;
}

/* One argument of an op, made real. */
static long arg_value(const char *a)
{
	const char *v = a + 2;
	struct stat st;
	char *end;

	if (strlen(a) < 2 || a[1] != ':')
		goto bad;
	switch (a[0]) {
	case 'I':
		return strtoll(v, NULL, 0);
	case 'P':
		return (long)strtoull(v, NULL, 0);
	case 'S':
		return (long)pool_str(v);
	case 'B':
		return (long)pool_get(strtoul(v, NULL, 0));
	case 'F': {
		int fl = strtol(v, &end, 0);

		if (*end != ':')
			goto bad;
		return keep_fd(open(end + 1, fl, 0600));
	}
	case 'Z':
		return stat(v, &st) ? 0 : (long)st.st_size;
	case 'M':
		return stat(v, &st) ? 0644 : (long)(st.st_mode & 07777);
	case 'W':
		return lstat(v, &st) ? 0 : (long)st.st_uid;
	case 'Q':
		return getpid();
	case 'O': {
		/* struct open_how: u64 flags, mode, resolve */
		uint64_t *how = pool_get(24);

		how[0] = strtoull(v, NULL, 0);
		/* a mode without O_CREAT is EINVAL */
		how[1] = how[0] & (O_CREAT | O_TMPFILE) ? 0600 : 0;
		return (long)how;
	}
	case 'X': {
		/* struct xattr_args: u64 value pointer, u32 size, u32 flags */
		uint64_t *xa = pool_get(16);
		char *val = pool_str("w");

		xa[0] = (uint64_t)(uintptr_t)val;
		((uint32_t *)xa)[2] = 1;
		((uint32_t *)xa)[3] = strtoul(v, NULL, 0);
		return (long)xa;
	}
	case 'H': {
		struct file_handle *fh = pool_get(sizeof(*fh) + 128);
		int mnt;

		fh->handle_bytes = 128;
		if (name_to_handle_at(AT_FDCWD, v, fh, &mnt, 0))
			fh->handle_bytes = 0;
		return (long)fh;
	}
	case 'N':
		return keep_fd(socket(strtol(v, NULL, 0), SOCK_STREAM, 0));
	case 'U': {
		struct sockaddr_un *un = pool_get(sizeof(*un));

		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "%s", v);
		return (long)un;
	}
	case 'L':
		return (long)listener(strtol(v, NULL, 0));
	case 'Y': {
		long *y = pool_get(sizeof(long));

		*y = strtol(v, NULL, 0);
		return (long)y;
	}
	case 'A': {
		/* socketcall's arguments: sub-arguments split at '~' */
		long *arr = pool_get(6 * sizeof(long));
		char sub[PATH_MAX + 32], *s, *save = NULL;
		int i = 0;

		snprintf(sub, sizeof(sub), "%s", v);
		for (s = strtok_r(sub, "~", &save); s && i < 6; s = strtok_r(NULL, "~", &save))
			arr[i++] = arg_value(s);
		return (long)arr;
	}
	case 'V': {
		/* argv of a program that only exits: the witness's --true */
		char **av = pool_get(3 * sizeof(char *));

		av[0] = pool_str(v);
		av[1] = pool_str("--true");
		return (long)av;
	}
	}
bad:
	fprintf(stderr, "%s: bad op argument '%s'\n", prog, a);
	_exit(3);
}

#ifdef __x86_64__
/*
 * int 0x80 from a 64-bit process enters the i386 table and is audited as
 * i386 (AUDIT_ARCH_I386); it clobbers r8-r11. Five arguments at most.
 */
static long int80(long nr, long a0, long a1, long a2, long a3, long a4)
{
	long ret = nr;

	__asm__ volatile("int $0x80"
			 : "+a"(ret)
			 : "b"(a0), "c"(a1), "d"(a2), "S"(a3), "D"(a4)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

/* fork, vfork, clone: the syscall, then exit_group(0) on both sides, with
 * nothing on the stack in between (a vfork child shares it). */
static __attribute__((noreturn)) void raw_then_exit(long nr, long a0, long a1, long a2, long a3,
						    long a4)
{
	register long r10 __asm__("r10") = a3;
	register long r8 __asm__("r8") = a4;

	__asm__ volatile(
		"syscall\n\t"
		"mov $231, %%eax\n\t"
		"xor %%edi, %%edi\n\t"
		"syscall"
		:
		: "a"(nr), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8)
		: "rcx", "r11", "memory");
	__builtin_unreachable();
}
#else
static __attribute__((noreturn)) void raw_then_exit(long nr, long a0, long a1, long a2, long a3,
						    long a4)
{
	/* ebx is the PIC register: swapped in and out around the call. */
	__asm__ volatile(
		"xchg %%ebx, %%edi\n\t"
		"int $0x80\n\t"
		"mov $252, %%eax\n\t"
		"xor %%ebx, %%ebx\n\t"
		"int $0x80"
		:
		: "a"(nr), "D"(a0), "c"(a1), "d"(a2), "S"(a3)
		: "memory");
	(void)a4;
	__builtin_unreachable();
}
#endif

static void on_usr1(int sig)
{
	(void)sig;
}

/* Splits S at '|' in place, at most MAX fields. */
static int split(char *s, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = s;
		s = strchr(s, '|');
		if (!s)
			break;
		*s++ = 0;
	}
	return n;
}

static void run_op(char *text)
{
	char *f[10];
	long a[6] = { 0 };
	long nr;
	int n, i;
	const char *fl;

	n = split(text, f, 9);
	if (n < 3) {
		fprintf(stderr, "%s: bad op '%s'\n", prog, text);
		_exit(3);
	}
	nr = strtol(f[0], NULL, 0);
	fl = f[2];
	op_nfds = 0;
	for (i = 3; i < n; i++)
		a[i - 3] = arg_value(f[i]);
	if (strchr(fl, 'u'))
		setfsuid(1000);
	if (strchr(fl, 'T')) {
		/* a task rule decides at fork: a child forked with the task
		 * state set makes the syscall */
		pid_t pid = fork();

		if (!pid) {
			syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	} else if (strchr(fl, 's')) {
		/* rt_sigreturn (sigreturn on i386) as the kernel expects it:
		 * the return from a handler. */
		struct sigaction sa = { .sa_handler = on_usr1 };

		sigaction(SIGUSR1, &sa, NULL);
		raise(SIGUSR1);
	} else if (strchr(fl, 'f')) {
		raw_then_exit(nr, a[0], a[1], a[2], a[3], a[4]);
	} else if (strchr(fl, '8')) {
#ifdef __x86_64__
		int80(nr, a[0], a[1], a[2], a[3], a[4]);
#else
		syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
#endif
	} else {
		syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	}
	if (strchr(fl, 'u'))
		setfsuid(0);
	for (i = 0; i < op_nfds; i++)
		close(op_fds[i]);
	pool_used = 0;
}

/*
 * CREDS: "auid,uid,euid,suid,fsuid,gid,egid,sgid,fsgid,pers,timer_ms";
 * -2 leaves a value as inherited.
 */
static int do_batch(int argc, char **argv)
{
	long c[11];
	char *p = argv[0], *end;
	int i;
	struct itimerval it = { 0 };

	for (i = 0; i < 11; i++) {
		c[i] = strtol(p, &end, 0);
		if (end == p || (i < 10 && *end != ',')) {
			fprintf(stderr, "%s: bad creds '%s'\n", prog, argv[0]);
			return 3;
		}
		p = end + 1;
	}
	setsid();
	signal(SIGPIPE, SIG_DFL);
	it.it_value.tv_sec = c[10] / 1000;
	it.it_value.tv_usec = (c[10] % 1000) * 1000;
	setitimer(ITIMER_REAL, &it, NULL);
	if (c[0] != -2) {
		char buf[32];
		int fd = open("/proc/self/loginuid", O_WRONLY);
		int len = snprintf(buf, sizeof(buf), "%lu", (unsigned long)(uint32_t)c[0]);

		if (fd < 0 || write(fd, buf, len) != len) {
			fprintf(stderr, "%s: loginuid %s: %s\n", prog, buf, strerror(errno));
			return 3;
		}
		close(fd);
	}
	if (c[5] != -2 && setresgid(c[5], c[6], c[7])) {
		fprintf(stderr, "%s: setresgid: %s\n", prog, strerror(errno));
		return 3;
	}
	if (c[8] != -2)
		setfsgid(c[8]);
	if (c[1] != -2 && setresuid(c[1], c[2], c[3])) {
		fprintf(stderr, "%s: setresuid: %s\n", prog, strerror(errno));
		return 3;
	}
	if (c[4] != -2)
		setfsuid(c[4]);
	if (c[9] != -2)
		personality(c[9]);
	for (i = 1; i < argc; i++)
		run_op(argv[i]);
	return 0;
}

#ifdef WITNESS32
int main(int argc, char **argv)
{
	prog = "witness32";
	if (argc >= 3 && !strcmp(argv[1], "--do"))
		_exit(do_batch(argc - 2, argv + 2));
	fprintf(stderr, "usage: witness32 --do CREDS OP... (run by witness)\n");
	return 2;
}
#else

/* ----------------------------------------------------------- planner --- */
/* The 64-bit build: reading the rules, planning, running, preparing. */

#include <ctype.h>
#include <libaudit.h>
#include <sys/utsname.h>

#define NSC 2048 /* syscall numbers a rule's mask holds */
#define MAXRULES 4096
#define MAXFIELDS 24
#define PLEN 1024 /* a path in a rule, or one the witness makes */
#define MAXSC 512
#define UNSET 0xffffffffu
#define ARCH64 0xc000003eu
#define ARCH32 0x40000003u

/* The scratch tree (-d): the suite mounts a tmpfs above it. */
static const char *scratch = "/wit/s";

enum {
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_MASK,
	OP_TEST
};

enum {
	L_EXIT,
	L_TASK,
	L_USER,
	L_EXCLUDE,
	L_FS,
	L_URING,
	L_OTHER
};

struct field {
	char name[32];
	int op;
	char val[PLEN];
	uint32_t num; /* the value as the kernel compares it (u32) */
	int has_num;
	char rhs[32]; /* -C: the field compared with */
	int cmp;
};

struct rule {
	int line;
	char text[4096];
	char key[256];
	int list;
	int never;
	int watch_form; /* -w */
	int all;	/* every syscall bit */
	int nsc;
	char *sc[MAXSC]; /* the names as listed */
	unsigned char mask[NSC];
	int arch; /* 0 none, 64, 32, -1 another machine's */
	uint32_t arch_val;
	int arch_op;
	struct field f[MAXFIELDS];
	int nf;
	/* from the fields */
	char path[PLEN]; /* path= or -w */
	char dir[PLEN];	 /* dir= or -w DIR/ */
	char exe[PLEN];
	unsigned perm; /* AUDIT_PERM_* bits; 0 when none */
	int perm_ne;
	/* the plan */
	int cannot; /* cannot fire */
	char why[512];
	int nops;
	char notes[1024];
};

static struct rule *rules;
static int nrules;
static int kver; /* running kernel, major * 100 + minor */

static void fatal(const char *format, ...)
{
	va_list ap;

	va_start(ap, format);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, format, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* snprintf that refuses to cut: a path that long is no rule set's. */
static __attribute__((format(printf, 3, 4))) int fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		fprintf(stderr, "%s: text too long: %.200s...\n", prog, buf);
		exit(2);
	}
	return n;
}

static void note(struct rule *r, const char *format, ...)
{
	size_t n = strlen(r->notes);
	va_list ap;

	if (n + 4 >= sizeof(r->notes))
		return;
	if (n)
		strcat(r->notes, "; "), n += 2;
	va_start(ap, format);
	vsnprintf(r->notes + n, sizeof(r->notes) - n, format, ap);
	va_end(ap);
}

static void cannot(struct rule *r, const char *format, ...)
{
	va_list ap;

	if (r->cannot)
		return;
	r->cannot = 1;
	va_start(ap, format);
	vsnprintf(r->why, sizeof(r->why), format, ap);
	va_end(ap);
}

/* Syscalls libaudit 3.0.9 cannot name: one number on both arches since 424. */
static const struct {
	const char *name;
	int nr;
} late_syscalls[] = {
	{ "cachestat", 451 },	      { "fchmodat2", 452 },	   { "map_shadow_stack", 453 },
	{ "futex_wake", 454 },	      { "futex_wait", 455 },	   { "futex_requeue", 456 },
	{ "statmount", 457 },	      { "listmount", 458 },	   { "lsm_get_self_attr", 459 },
	{ "lsm_set_self_attr", 460 }, { "lsm_list_modules", 461 }, { "mseal", 462 },
	{ "setxattrat", 463 },	      { "getxattrat", 464 },	   { "listxattrat", 465 },
	{ "removexattrat", 466 },     { "open_tree_attr", 467 },   { "file_getattr", 468 },
	{ "file_setattr", 469 },
};

static int sc_nr(const char *name, int arch)
{
	int nr = audit_name_to_syscall(name, arch == 32 ? MACH_X86 : MACH_86_64);
	size_t i;

	if (nr >= 0)
		return nr;
	for (i = 0; i < sizeof(late_syscalls) / sizeof(late_syscalls[0]); i++)
		if (!strcmp(late_syscalls[i].name, name))
			return late_syscalls[i].nr;
	if (isdigit((unsigned char)name[0]))
		return atoi(name);
	return -1;
}

static const char *sc_name(int nr, int arch)
{
	const char *n = audit_syscall_to_name(nr, arch == 32 ? MACH_X86 : MACH_86_64);
	static char buf[16];
	size_t i;

	if (n)
		return n;
	for (i = 0; i < sizeof(late_syscalls) / sizeof(late_syscalls[0]); i++)
		if (late_syscalls[i].nr == nr)
			return late_syscalls[i].name;
	fmt(buf, sizeof(buf), "%d", nr);
	return buf;
}

/* --------------------------------------------------- permission classes ---
 * The kernel's tables (include/asm-generic/audit_{read,write,dir_write,
 * change_attr}.h, per arch through its unistd): audit_match_perm() decides
 * a perm= field by them, and by the open flags of the open class calls.
 */
static const char *const cls_read[] = { "readlink",   "quotactl",   "listxattr",  "llistxattr",
					"flistxattr", "getxattr",   "lgetxattr",  "fgetxattr",
					"readlinkat", "getxattrat", "listxattrat" };
static const char *const cls_write[] = { "rename",    "mkdir",	     "rmdir",	  "creat",
					 "link",      "unlink",	     "symlink",	  "mknod",
					 "mkdirat",   "mknodat",     "unlinkat",  "renameat",
					 "linkat",    "symlinkat",   "renameat2", "acct",
					 "swapon",    "quotactl",    "truncate",  "truncate64",
					 "ftruncate", "ftruncate64", "bind",	  "fallocate" };
static const char *const cls_attr[] = {
	"chmod",     "fchmod",	   "chown",	   "lchown",	   "fchown",	   "setxattr",
	"lsetxattr", "fsetxattr",  "removexattr",  "lremovexattr", "fremovexattr", "fchownat",
	"fchmodat",  "fchmodat2",  "chown32",	   "fchown32",	   "lchown32",	   "link",
	"linkat",    "setxattrat", "removexattrat"
};
#define NCLS(t) (sizeof(t) / sizeof((t)[0]))

/* cls[arch][class][nr]: 0 x86_64, 1 i386; class 0 read, 1 write, 2 attr */
static unsigned char cls[2][3][NSC];

static int late_ok(const char *name)
{
	if (!strcmp(name, "fchmodat2"))
		return kver >= 606;
	if (strstr(name, "xattrat"))
		return kver >= 613;
	return 1;
}

static void classes_init(void)
{
	const char *const *t[3] = { cls_read, cls_write, cls_attr };
	size_t n[3] = { NCLS(cls_read), NCLS(cls_write), NCLS(cls_attr) };
	int a, c, nr;
	size_t i;

	for (a = 0; a < 2; a++)
		for (c = 0; c < 3; c++)
			for (i = 0; i < n[c]; i++) {
				if (!late_ok(t[c][i]))
					continue;
				nr = sc_nr(t[c][i], a ? 32 : 64);
				/* (i386 names the 64-bit table lacks, and back) */
				if (nr >= 0 && nr < NSC &&
				    (nr >= 424 ||
				     audit_syscall_to_name(nr, a ? MACH_X86 : MACH_86_64)))
					cls[a][c][nr] = 1;
			}
}

/* ------------------------------------------------------------ parsing --- */

static int parse_op(const char *s, int *op)
{
	static const struct {
		const char *t;
		int op;
	} ops[] = { { "!=", OP_NE }, { ">=", OP_GE }, { "<=", OP_LE }, { "&=", OP_TEST },
		    { "=", OP_EQ },  { "<", OP_LT },  { ">", OP_GT },  { "&", OP_MASK } };
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(s, ops[i].t, strlen(ops[i].t))) {
			*op = ops[i].op;
			return strlen(ops[i].t);
		}
	return 0;
}

static int is_uid_field(const char *n)
{
	return !strcmp(n, "uid") || !strcmp(n, "euid") || !strcmp(n, "suid") ||
	       !strcmp(n, "fsuid") || !strcmp(n, "auid") || !strcmp(n, "loginuid") ||
	       !strcmp(n, "obj_uid");
}

/* The value as the kernel holds it: numbers, errno names, uid and user
 * names, "unset", perm letters, file types. */
static void field_value(struct rule *r, struct field *f)
{
	const char *v = f->val;
	char *end;

	f->has_num = 1;
	if (!strcmp(f->name, "perm")) {
		f->num = 0;
		for (; *v; v++)
			f->num |= *v == 'r' ? AUDIT_PERM_READ :
				  *v == 'w' ? AUDIT_PERM_WRITE :
				  *v == 'x' ? AUDIT_PERM_EXEC :
				  *v == 'a' ? AUDIT_PERM_ATTR :
					      0;
		return;
	}
	if (!strcmp(f->name, "filetype")) {
		int t = audit_name_to_ftype(v);

		f->num = t < 0 ? 0 : t;
		f->has_num = t >= 0;
		return;
	}
	if (!strcmp(f->name, "arch")) {
		if (!strcmp(v, "b64") || !strcmp(v, "x86_64"))
			f->num = ARCH64;
		else if (!strcmp(v, "b32") || !strcmp(v, "i386") || !strcmp(v, "i686"))
			f->num = ARCH32;
		else
			f->num = strtoul(v, &end, 0), f->has_num = *v && !*end;
		return;
	}
	if (!strcmp(v, "unset")) {
		f->num = UNSET;
		return;
	}
	if (!strcmp(f->name, "exit") &&
	    (v[0] == '-' ? isalpha((unsigned char)v[1]) : isalpha((unsigned char)v[0]))) {
		int e = audit_name_to_errno(v[0] == '-' ? v + 1 : v);

		f->num = (uint32_t)(v[0] == '-' ? -e : e);
		f->has_num = e > 0;
		return;
	}
	errno = 0;
	long long n = strtoll(v, &end, 0);
	if (*v && !*end && !errno) {
		f->num = (uint32_t)n;
		return;
	}
	if (is_uid_field(f->name)) {
		FILE *pw = fopen("/etc/passwd", "r");
		char line[512];

		f->has_num = 0;
		while (pw && fgets(line, sizeof(line), pw)) {
			char *u = strtok(line, ":"), *x = strtok(NULL, ":"),
			     *id = strtok(NULL, ":");

			(void)x;
			if (u && id && !strcmp(u, v)) {
				f->num = strtoul(id, NULL, 10);
				f->has_num = 1;
			}
		}
		if (pw)
			fclose(pw);
		return;
	}
	f->has_num = 0;
	(void)r;
}

static void add_syscalls(struct rule *r, char *list)
{
	char *s, *save = NULL;

	for (s = strtok_r(list, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (!strcmp(s, "all")) {
			r->all = 1;
			continue;
		}
		if (r->nsc < MAXSC && !(r->sc[r->nsc++] = strdup(s)))
			fatal("out of memory");
	}
}

/* One line of `auditctl -l` (or of a rules file: -a LIST,ACTION, -S
 * repeated, -k). Returns 0 when the line is no rule. */
static int parse_rule(struct rule *r, const char *text, int line)
{
	char buf[4096], *tok[512], *s, *save = NULL;
	int nt = 0, i, have_perm_p = 0;
	char perms[8] = "";

	memset(r, 0, sizeof(*r));
	fmt(r->text, sizeof(r->text), "%s", text);
	r->text[strcspn(r->text, "\n")] = 0;
	fmt(buf, sizeof(buf), "%s", r->text);
	for (s = strtok_r(buf, " \t", &save); s && nt < 511; s = strtok_r(NULL, " \t", &save))
		tok[nt++] = s;
	if (nt < 2 || (strcmp(tok[0], "-a") && strcmp(tok[0], "-A") && strcmp(tok[0], "-w")))
		return 0;
	r->line = line;
	if (!strcmp(tok[0], "-w")) {
		r->watch_form = 1;
		r->list = L_EXIT;
		r->all = 1;
		fmt(r->path, sizeof(r->path), "%s", tok[1]);
	} else {
		char *a = tok[1], *c = strchr(a, ',');

		if (!c)
			return 0;
		*c = 0;
		const char *l = a, *act = c + 1;
		if (!strcmp(l, "always") || !strcmp(l, "never"))
			l = c + 1, act = a;
		r->never = !strcmp(act, "never");
		r->list = !strcmp(l, "exit")	   ? L_EXIT :
			  !strcmp(l, "task")	   ? L_TASK :
			  !strcmp(l, "user")	   ? L_USER :
			  !strcmp(l, "exclude")	   ? L_EXCLUDE :
			  !strcmp(l, "filesystem") ? L_FS :
			  !strcmp(l, "io_uring")   ? L_URING :
						     L_OTHER;
	}
	for (i = 2; i < nt; i++) {
		if (!strcmp(tok[i], "-S") && i + 1 < nt) {
			add_syscalls(r, tok[++i]);
		} else if (!strcmp(tok[i], "-k") && i + 1 < nt) {
			fmt(r->key, sizeof(r->key), "%s", tok[++i]);
		} else if (!strcmp(tok[i], "-p") && i + 1 < nt) {
			fmt(perms, sizeof(perms), "%s", tok[++i]);
			have_perm_p = 1;
		} else if ((!strcmp(tok[i], "-F") || !strcmp(tok[i], "-C")) && i + 1 < nt &&
			   r->nf < MAXFIELDS) {
			struct field *f = &r->f[r->nf];
			char *t = tok[++i];
			size_t n = strcspn(t, "!=<>&");
			int len;

			if (n >= sizeof(f->name) || !(len = parse_op(t + n, &f->op)))
				continue;
			fmt(f->name, sizeof(f->name), "%.*s", (int)n, t);
			if (!strcmp(tok[i - 1], "-C")) {
				f->cmp = 1;
				fmt(f->rhs, sizeof(f->rhs), "%s", t + n + len);
				r->nf++;
				continue;
			}
			fmt(f->val, sizeof(f->val), "%s", t + n + len);
			if (!strcmp(f->name, "key")) {
				fmt(r->key, sizeof(r->key), "%s", f->val);
				continue;
			}
			field_value(r, f);
			r->nf++;
		}
	}
	if (r->watch_form) {
		struct field *f = &r->f[r->nf++];

		fmt(f->name, sizeof(f->name), "perm");
		fmt(f->val, sizeof(f->val), "%s", have_perm_p && *perms ? perms : "rwxa");
		f->op = OP_EQ;
		field_value(r, f);
		/* auditctl -w makes a tree (dir=) of a directory, and lists it
		 * as -w DIR: a directory here is a tree */
		size_t n = strlen(r->path);
		struct stat st;

		f = &r->f[r->nf++];
		f->op = OP_EQ;
		fmt(f->val, sizeof(f->val), "%s", r->path);
		if ((n > 1 && r->path[n - 1] == '/') ||
		    (!stat(r->path, &st) && S_ISDIR(st.st_mode))) {
			fmt(f->name, sizeof(f->name), "dir");
			r->path[0] = 0;
		} else {
			fmt(f->name, sizeof(f->name), "path");
		}
	}
	for (i = 0; i < r->nf; i++) {
		struct field *f = &r->f[i];

		if (!strcmp(f->name, "arch")) {
			r->arch_op = f->op;
			r->arch_val = f->num;
			r->arch = f->num == ARCH64 ? 64 : f->num == ARCH32 ? 32 : -1;
		} else if (!strcmp(f->name, "path") || !strcmp(f->name, "watch")) {
			fmt(r->path, sizeof(r->path), "%s", f->val);
		} else if (!strcmp(f->name, "dir")) {
			fmt(r->dir, sizeof(r->dir), "%s", f->val);
		} else if (!strcmp(f->name, "exe")) {
			fmt(r->exe, sizeof(r->exe), "%s", f->val);
		} else if (!strcmp(f->name, "perm")) {
			r->perm = f->num;
			r->perm_ne = f->op == OP_NE;
		}
	}
	if (!r->nsc && !r->watch_form)
		r->all = 1;
	/* The mask: names of the rule's arch (the machine's own without one). */
	if (r->all) {
		memset(r->mask, 1, sizeof(r->mask));
	} else {
		for (i = 0; i < r->nsc; i++) {
			int nr = sc_nr(r->sc[i], r->arch == 32 ? 32 : 64);

			if (nr >= 0 && nr < NSC)
				r->mask[nr] = 1;
		}
	}
	return 1;
}

static void read_rules(const char *file)
{
	FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[4096];
	int n = 0;

	if (!in)
		fatal("%s: %s", file, strerror(errno));
	rules = calloc(MAXRULES, sizeof(*rules));
	if (!rules)
		fatal("out of memory");
	while (fgets(line, sizeof(line), in)) {
		char *s = line;

		n++;
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '#' || !*s)
			continue;
		/* auditctl -l lists a path= rule whose perm= came first as
		 * " -p PERMS-w PATH ...": put it the right way round */
		if (!strncmp(s, "-p ", 3) && strstr(s, "-w ")) {
			char fixed[4096], *w = strstr(s, "-w "), *path = w + 3;
			size_t plen = strcspn(path, " \t\n");

			fmt(fixed, sizeof(fixed), "-w %.*s -p %.*s%s", (int)plen, path,
			    (int)(w - s - 3), s + 3, path + plen);
			fmt(line, sizeof(line), "%s", fixed);
			s = line;
		}
		if (nrules == MAXRULES)
			fatal("more than %d rules", MAXRULES);
		if (parse_rule(&rules[nrules], s, n))
			nrules++;
	}
	if (in != stdin)
		fclose(in);
}

static char *xstrdup(const char *s);

/* ------------------------------------------------------- path cache ---
 * Planning asks about the same paths again and again; asked once each,
 * they cost the guest fewer syscalls (and realpath's readlink calls on
 * watched paths, records).
 */
struct pcache {
	struct pcache *next;
	char *path;
	int real_ok, st_ok, lst_ok;
	char *real;
	struct stat st, lst;
};

static struct pcache *pbucket[8192];

static struct pcache *pc_get(const char *path)
{
	uint32_t h = 2166136261u;
	const char *c;
	struct pcache *e;
	char buf[PATH_MAX];

	for (c = path; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	for (e = pbucket[h % 8192]; e; e = e->next)
		if (!strcmp(e->path, path))
			return e;
	e = calloc(1, sizeof(*e));
	if (!e)
		fatal("out of memory");
	e->path = xstrdup(path);
	e->real_ok = realpath(path, buf) != NULL;
	e->real = xstrdup(e->real_ok ? buf : "");
	e->st_ok = !stat(path, &e->st);
	e->lst_ok = !lstat(path, &e->lst);
	e->next = pbucket[h % 8192];
	pbucket[h % 8192] = e;
	return e;
}

static char *c_realpath(const char *path, char *out)
{
	struct pcache *e = pc_get(path);

	if (!e->real_ok)
		return NULL;
	strcpy(out, e->real);
	return out;
}

static int c_stat(const char *path, struct stat *st)
{
	struct pcache *e = pc_get(path);

	*st = e->st;
	return e->st_ok ? 0 : -1;
}

static int c_lstat(const char *path, struct stat *st)
{
	struct pcache *e = pc_get(path);

	*st = e->lst;
	return e->lst_ok ? 0 : -1;
}

/* ------------------------------------------------------ events, match --- */

enum {
	C_AUID,
	C_UID,
	C_EUID,
	C_SUID,
	C_FSUID,
	C_GID,
	C_EGID,
	C_SGID,
	C_FSGID,
	NCRED
};
static const char *const cred_name[NCRED] = { "auid", "uid",  "euid", "suid", "fsuid",
					      "gid",  "egid", "sgid", "fsgid" };
#define KEEP 0xfffffffeu /* a value left as the child inherits it */

struct name {
	char path[512]; /* canonical: realpath of its directory + its name */
	int known;	/* the inode below is the one the syscall sees */
	dev_t dev;
	ino_t ino;
	uid_t uid;
	gid_t gid;
	mode_t mode;
};

/* What one syscall will look like to audit_filter_rules(). */
struct event {
	int arch; /* 64 or 32 */
	int nr;
	uint32_t a[4];
	unsigned aknown; /* bit per argument */
	int acc;	 /* openat2's access bits; -1 unknown */
	uint32_t cred[NCRED];
	uint32_t pers;
	int exit_known;
	int32_t exitv; /* 0 success, -errno */
	int nnames;
	struct name names[4];
	char exe[PLEN];
};

enum {
	NO,
	YES,
	MAYBE
};

static int cmp32(uint32_t l, int op, uint32_t r)
{
	switch (op) {
	case OP_EQ:
		return l == r;
	case OP_NE:
		return l != r;
	case OP_LT:
		return l < r;
	case OP_LE:
		return l <= r;
	case OP_GT:
		return l > r;
	case OP_GE:
		return l >= r;
	case OP_MASK:
		return (l & r) != 0;
	case OP_TEST:
		return (l & r) == r;
	}
	return 0;
}

static int tri(int b)
{
	return b ? YES : NO;
}

static int acc_mode(uint32_t flags)
{
	static const int acc[4] = { AUDIT_PERM_READ, AUDIT_PERM_WRITE,
				    AUDIT_PERM_READ | AUDIT_PERM_WRITE,
				    AUDIT_PERM_READ | AUDIT_PERM_WRITE };

	return acc[flags & 3];
}

/* audit_match_perm() for the event: YES, NO or MAYBE. */
static int perm_match(const struct event *e, uint32_t mask)
{
	int a = e->arch == 32;
	int open_nr = a ? 5 : 2, openat_nr = a ? 295 : 257, openat2_nr = 437;
	int execve_nr = a ? 11 : 59, execveat_nr = a ? 358 : 322;

	if (e->nr == open_nr || e->nr == openat_nr) {
		int i = e->nr == open_nr ? 1 : 2;

		if (!(e->aknown & (1u << i)))
			return MAYBE;
		return tri(mask & acc_mode(e->a[i]));
	}
	if (e->nr == openat2_nr)
		return e->acc < 0 ? MAYBE : tri(mask & e->acc);
	if (e->nr == execve_nr || e->nr == execveat_nr)
		return tri(mask & AUDIT_PERM_EXEC);
	if (a && e->nr == 102) /* socketcall: bind only */
		return !(e->aknown & 1) ? MAYBE : tri((mask & AUDIT_PERM_WRITE) && e->a[0] == 2);
	if (e->nr < 0 || e->nr >= NSC)
		return NO;
	return tri(((mask & AUDIT_PERM_READ) && cls[a][0][e->nr]) ||
		   ((mask & AUDIT_PERM_WRITE) && cls[a][1][e->nr]) ||
		   ((mask & AUDIT_PERM_ATTR) && cls[a][2][e->nr]));
}

/* A path made canonical the way the kernel sees the name: the directory
 * resolved, the last component as it is. */
static void canon(const char *path, char *out, size_t len)
{
	char d[PATH_MAX], r[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash || slash == path) {
		fmt(out, len, "%s", path);
		return;
	}
	fmt(d, sizeof(d), "%.*s", (int)(slash - path), path);
	if (c_realpath(d, r))
		fmt(out, len, "%s%s%s", r, strcmp(r, "/") ? "/" : "", slash + 1);
	else
		fmt(out, len, "%s", path);
}

static int under(const char *path, const char *dir)
{
	char d[PATH_MAX];
	size_t n;

	if (!c_realpath(dir, d))
		fmt(d, sizeof(d), "%s", dir);
	n = strlen(d);
	while (n > 1 && d[n - 1] == '/')
		d[--n] = 0;
	return !strncmp(path, d, n) && (path[n] == '/' || !path[n] || n == 1);
}

static uint32_t cred_of(const struct event *e, const char *n, int *ok)
{
	int i;

	*ok = 1;
	if (!strcmp(n, "loginuid"))
		n = "auid";
	for (i = 0; i < NCRED; i++)
		if (!strcmp(n, cred_name[i]))
			return e->cred[i];
	*ok = 0;
	return 0;
}

/* One side of a -C comparison: a task value, or any name's owner. */
static int compare_field(const struct event *e, const struct field *f)
{
	int okl, okr, i, any = NO;
	uint32_t l = cred_of(e, f->name, &okl), r = cred_of(e, f->rhs, &okr);

	if (okl && okr)
		return tri(cmp32(l, f->op, r));
	if (okl && (!strcmp(f->rhs, "obj_uid") || !strcmp(f->rhs, "obj_gid"))) {
		int gid = !strcmp(f->rhs, "obj_gid");

		for (i = 0; i < e->nnames; i++) {
			if (!e->names[i].known)
				any = any == YES ? YES : MAYBE;
			else if (cmp32(l, f->op, gid ? e->names[i].gid : e->names[i].uid))
				any = YES;
		}
		return any;
	}
	return MAYBE;
}

static int name_match(const struct event *e, int (*test)(const struct name *, const void *),
		      const void *arg)
{
	int i, r = NO;

	for (i = 0; i < e->nnames; i++) {
		int t = test(&e->names[i], arg);

		if (t == YES)
			return YES;
		if (t == MAYBE)
			r = MAYBE;
	}
	return r;
}

static int t_watch(const struct name *n, const void *arg)
{
	const struct stat *w = arg;

	if (!n->known)
		return NO;
	return tri(n->dev == w->st_dev && n->ino == w->st_ino);
}

static int t_tree(const struct name *n, const void *arg)
{
	return tri(under(n->path, arg));
}

struct numtest {
	const struct field *f;
	int what; /* 0 uid, 1 gid, 2 inode, 3 major, 4 minor, 5 filetype */
};

static int t_num(const struct name *n, const void *arg)
{
	const struct numtest *t = arg;
	uint32_t v;

	if (!n->known)
		return MAYBE;
	switch (t->what) {
	case 0:
		v = n->uid;
		break;
	case 1:
		v = n->gid;
		break;
	case 2:
		v = n->ino;
		break;
	case 3:
		return tri(cmp32(major(n->dev), t->f->op, t->f->num));
	case 4:
		return tri(cmp32(minor(n->dev), t->f->op, t->f->num));
	default:
		v = n->mode & S_IFMT;
		return tri((v == t->f->num) == (t->f->op != OP_NE));
	}
	return tri(cmp32(v, t->f->op, t->f->num));
}

/* Would rule R match event E (audit_filter_rules() on the exit list)? */
static int rule_match(const struct rule *r, const struct event *e)
{
	int i, res = YES;

	if (r->list != L_EXIT || r->arch < 0)
		return NO;
	if (e->nr < 0 || e->nr >= NSC || !r->mask[e->nr])
		return NO;
	for (i = 0; i < r->nf; i++) {
		const struct field *f = &r->f[i];
		const char *n = f->name;
		int t = MAYBE, ok;
		uint32_t v;

		if (f->cmp) {
			t = compare_field(e, f);
		} else if (!f->has_num && strcmp(n, "path") && strcmp(n, "watch") &&
			   strcmp(n, "dir") && strcmp(n, "exe")) {
			t = MAYBE;
		} else if (!strcmp(n, "arch")) {
			t = tri(cmp32(e->arch == 32 ? ARCH32 : ARCH64, f->op, f->num));
		} else if ((v = cred_of(e, n, &ok)), ok) {
			t = tri(cmp32(v, f->op, f->num));
		} else if (!strcmp(n, "loginuid_set")) {
			t = tri(cmp32(e->cred[C_AUID] != UNSET, f->op, f->num));
		} else if (!strcmp(n, "sessionid")) {
			t = e->cred[C_AUID] == UNSET ? tri(cmp32(UNSET, f->op, f->num)) : MAYBE;
		} else if (n[0] == 'a' && n[1] >= '0' && n[1] <= '3' && !n[2]) {
			int k = n[1] - '0';

			t = e->aknown & (1u << k) ? tri(cmp32(e->a[k], f->op, f->num)) : MAYBE;
		} else if (!strcmp(n, "exit")) {
			t = e->exit_known ? tri(cmp32((uint32_t)e->exitv, f->op, f->num)) : MAYBE;
		} else if (!strcmp(n, "success")) {
			/* return_valid: 1 success, 2 failure */
			t = e->exit_known ?
				    tri(cmp32(e->exitv >= 0 ? 1 : 2, f->op, f->num ? 1 : 2)) :
				    MAYBE;
		} else if (!strcmp(n, "perm")) {
			t = perm_match(e, f->num);
			if (f->op == OP_NE && t != MAYBE)
				t = t == YES ? NO : YES;
		} else if (!strcmp(n, "path") || !strcmp(n, "watch")) {
			struct stat w;

			t = c_lstat(f->val, &w) ? NO : name_match(e, t_watch, &w);
			if (f->op == OP_NE && t != MAYBE)
				t = t == YES ? NO : YES;
		} else if (!strcmp(n, "dir")) {
			t = name_match(e, t_tree, f->val);
			if (f->op == OP_NE && t != MAYBE)
				t = t == YES ? NO : YES;
		} else if (!strcmp(n, "exe")) {
			char p[PATH_MAX];

			t = tri(c_realpath(f->val, p) && !strcmp(p, e->exe));
			if (f->op == OP_NE)
				t = t == YES ? NO : YES;
		} else if (!strcmp(n, "obj_uid") || !strcmp(n, "obj_gid") || !strcmp(n, "inode") ||
			   !strcmp(n, "devmajor") || !strcmp(n, "devminor") ||
			   !strcmp(n, "filetype")) {
			struct numtest nt = { f, !strcmp(n, "obj_uid")	? 0 :
						 !strcmp(n, "obj_gid")	? 1 :
						 !strcmp(n, "inode")	? 2 :
						 !strcmp(n, "devmajor") ? 3 :
						 !strcmp(n, "devminor") ? 4 :
									  5 };

			t = name_match(e, t_num, &nt);
		} else if (!strcmp(n, "pers")) {
			t = tri(cmp32(e->pers, f->op, f->num));
		} else if (!strncmp(n, "subj_", 5) || !strcmp(n, "obj_user") ||
			   !strcmp(n, "obj_role") || !strcmp(n, "obj_type") ||
			   !strcmp(n, "obj_lev_low") || !strcmp(n, "obj_lev_high")) {
			t = NO; /* no security labels where this runs */
		}
		if (t == NO)
			return NO;
		if (t == MAYBE)
			res = MAYBE;
	}
	return res;
}

/* ----------------------------------------------------------- the plan --- */

enum {
	K_NONE,
	K_SCRATCH,
	K_FILE,
	K_DIR
};
enum {
	WANT_ANY,
	WANT_OK,
	WANT_FAIL,
	WANT_ERR
};

struct op {
	char spec[2048];
	int own;
	int main; /* the syscall the rule is fired with, not a helper */
	int fsuid1000;
	int need_nonroot;
	struct event ev;
};

struct batch {
	int rule;
	int arch;
	char exe[PLEN]; /* a copy of the witness to run as, or "" */
	uint32_t cred[NCRED];
	uint32_t pers;
	int own;
	int int80;
	int nops;
	struct op *ops[128];
	int nsetup;
	char *setup[128]; /* "f PATH" file, "d PATH" directory */
	int nclean;
	char *clean[128];
};

static struct batch *batches;
static int nbatches, maxbatches;
static char self_exe[PATH_MAX], exe32[PATH_MAX];
static int op_seq;

/* The request one op is made for. */
struct req {
	struct rule *r;
	int arch;
	const char *name; /* as the arch's table names it */
	char base[40];	  /* the name without i386's 32/64 suffixes */
	int nr;
	int kind;
	char target[PLEN];
	int want;
	int werr;
	int acc;   /* AUDIT_PERM_READ or _WRITE for the open class, 0 default */
	int ondir; /* the op works on the directory itself */
	int int80; /* an i386 call made by the 64-bit build */
	int fop[4];
	uint32_t fval[4];
	unsigned forced;
	char exe[PLEN];
	/* filled while building */
	int nops;
	struct op *ops[8];
	char *setup[8];
	int nsetup;
	char *clean[8];
	int nclean;
	char why[256]; /* why the outcome wanted could not be arranged */
};

static struct op *new_op(struct req *q, const char *name, const char *flags, const char *format,
			 ...)
{
	struct op *o = calloc(1, sizeof(*o));
	char args[sizeof(o->spec)];
	va_list ap;
	int nr = name == q->name ? q->nr : sc_nr(name, q->arch);

	if (!o)
		fatal("out of memory");
	va_start(ap, format);
	vsnprintf(args, sizeof(args), format, ap);
	va_end(ap);
	fmt(o->spec, sizeof(o->spec), "%d|%s|%s%s%s", nr, name, flags, *args ? "|" : "", args);
	o->own = !!strchr(flags, 'o');
	o->fsuid1000 = !!strchr(flags, 'u');
	o->main = name == q->name;
	o->ev.arch = q->arch;
	o->ev.nr = nr;
	o->ev.acc = -1;
	if (q->nops < 8)
		q->ops[q->nops++] = o;
	return o;
}

static void ev_arg(struct op *o, int i, uint32_t v)
{
	o->ev.a[i] = v;
	o->ev.aknown |= 1u << i;
}

static void ev_exit(struct op *o, int32_t v)
{
	o->ev.exit_known = 1;
	o->ev.exitv = v;
}

/* A name the syscall collects: PATH itself (its inode as lstat, or stat
 * when FOLLOW), or INODE_OF's inode (a hard link made to it) under PATH. */
static void ev_name(struct op *o, const char *path, int follow, const char *inode_of)
{
	char real[PATH_MAX];
	struct name *n;
	struct stat st;
	const char *sp = inode_of ? inode_of : path;

	if (o->ev.nnames >= 4)
		return;
	n = &o->ev.names[o->ev.nnames++];
	if (follow && !inode_of && c_realpath(path, real))
		fmt(n->path, sizeof(n->path), "%s", real);
	else
		canon(path, n->path, sizeof(n->path));
	if ((follow ? c_stat(sp, &st) : c_lstat(sp, &st)) == 0) {
		n->known = 1;
		n->dev = st.st_dev;
		n->ino = st.st_ino;
		n->uid = st.st_uid;
		n->gid = st.st_gid;
		n->mode = st.st_mode;
	}
}

static void ev_parent(struct op *o, const char *path)
{
	char d[PATH_MAX];
	const char *s = strrchr(path, '/');

	fmt(d, sizeof(d), "%.*s", s && s != path ? (int)(s - path) : 1, path);
	ev_name(o, d, 1, NULL);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		fatal("out of memory");
	return d;
}

static void setup_add(struct req *q, char type, const char *path)
{
	char t[PLEN + 2];

	fmt(t, sizeof(t), "%c %s", type, path);
	if (q->nsetup < 8)
		q->setup[q->nsetup++] = xstrdup(t);
	if (q->nclean < 8)
		q->clean[q->nclean++] = xstrdup(path);
}

static void clean_add(struct req *q, const char *path)
{
	if (q->nclean < 8)
		q->clean[q->nclean++] = xstrdup(path);
}

/* ------------------------------------------------------------ recipes ---
 * Which syscall, with which arguments, on which object, makes the event a
 * rule wants. Objects: K_FILE a path a watch or path= rule names (never
 * changed: see the top of the file), K_DIR a directory a dir= rule or a
 * watch names (scratch objects inside it), K_SCRATCH the witness's own
 * tree, K_NONE no path.
 */

/* The value for argument I: DEF unless the rule forces it. */
static uint32_t farg(const struct req *q, int i, uint32_t def)
{
	uint32_t v = q->fval[i];

	if (!(q->forced & (1u << i)))
		return def;
	switch (q->fop[i]) {
	case OP_EQ:
	case OP_GE:
	case OP_LE:
		return v;
	case OP_NE:
		return def != v ? def : def ^ 1;
	case OP_GT:
		return v + 1;
	case OP_LT:
		return v ? v - 1 : v;
	case OP_TEST:
		return def | v;
	case OP_MASK:
		if (def & v)
			return def;
		/* the least harmful bit: for open flags, access before create
		 * before anything, O_TRUNC last */
		if (v & 3)
			return def | (v & 1 ? 1 : 2);
		if (v & 0100)
			return def | 0100;
		v &= ~(uint32_t)01000 ? v & ~(uint32_t)01000 : v;
		return def | (v & -v);
	}
	return def;
}

static int writable_by_user(const char *path)
{
	struct stat st;

	if (c_stat(path, &st))
		return 0;
	return (st.st_mode & S_IWOTH) || (st.st_uid == 1000 && (st.st_mode & S_IWUSR));
}

/* Whether fsuid 1000 is refused an unlink or a rename in PATH's directory
 * without the name going (the witness's way to an EACCES or EPERM from a
 * syscall that would remove a watched name). */
static int parent_refuses_user(const char *path)
{
	char d[PATH_MAX];
	const char *s = strrchr(path, '/');
	struct stat st, pst;

	fmt(d, sizeof(d), "%.*s", s && s != path ? (int)(s - path) : 1, path);
	if (c_stat(d, &st) || c_lstat(path, &pst))
		return 0;
	if (!writable_by_user(d))
		return 1;
	/* sticky and not the owner's: EPERM */
	return (st.st_mode & S_ISVTX) && pst.st_uid != 1000 && st.st_uid != 1000;
}

static void uniq(char *buf, size_t len, const struct req *q, const char *tag)
{
	fmt(buf, len, "%s%s.wit-%d%s", q->target, strcmp(q->target, "/") ? "/" : "", ++op_seq, tag);
}

static void sp(char *buf, size_t len, const char *sub)
{
	fmt(buf, len, "%s/%s", scratch, sub);
}

static int is_dir(const char *p)
{
	struct stat st;

	return !c_stat(p, &st) && S_ISDIR(st.st_mode);
}

static int want_errno(const struct req *q, int e)
{
	return q->want == WANT_ERR && q->werr == e;
}

/* The shared scratch file of directory targets, created per request. */
static void obj_file(struct req *q, char *obj, size_t len)
{
	if (q->kind == K_FILE) {
		fmt(obj, len, "%s", q->target);
		return;
	}
	/* one per rule, arch and directory: the calls on it change nothing
	 * a later one sees but their own attributes */
	fmt(obj, len, "%s%s.wit-%d-%df", q->target, strcmp(q->target, "/") ? "/" : "",
	    (int)(q->r - rules), q->arch);
	setup_add(q, 'f', obj);
}

static int r_open(struct req *q)
{
	const char *b = q->base;
	int isat = !strcmp(b, "openat"), is2 = !strcmp(b, "openat2"), creat = !strcmp(b, "creat");
	int fi = isat ? 2 : 1; /* the flags argument */
	uint32_t flags = q->acc == AUDIT_PERM_WRITE ? O_WRONLY : O_RDONLY;
	char path[PATH_MAX];
	const char *fl = "";
	struct op *o;
	int32_t ex = 0;

	if (want_errno(q, EPERM) && !q->acc)
		flags = O_WRONLY; /* EPERM comes with writing (an immutable file) */
	if (creat)
		flags = O_CREAT | O_WRONLY | O_TRUNC;
	else if (!is2)
		flags = farg(q, fi, flags);
	if (q->kind == K_FILE) {
		if (flags & O_TRUNC) {
			if (!creat || writable_by_user(q->target))
				return fmt(q->why, sizeof(q->why), "%s would empty %s", b,
					   q->target),
				       -1;
			fl = "u";
			ex = -EACCES;
		} else if (!creat) {
			flags |= O_NOFOLLOW;
		}
		fmt(path, sizeof(path), "%s", q->target);
		if (q->want == WANT_FAIL || want_errno(q, EEXIST)) {
			flags |= O_CREAT | O_EXCL;
			ex = -EEXIST;
		} else if (want_errno(q, EACCES) && (flags & 3) && !writable_by_user(path)) {
			fl = "u";
			ex = -EACCES;
		} else if (q->want == WANT_ERR) {
			fmt(q->why, sizeof(q->why), "exit=-%s on %s",
			    audit_errno_to_name(q->werr) ?: "?", path);
		}
		if (!ex) {
			struct stat st;

			if (!c_lstat(path, &st) && S_ISLNK(st.st_mode))
				ex = -ELOOP;
			else if (!c_lstat(path, &st) && S_ISDIR(st.st_mode) && (flags & 3))
				ex = -EISDIR;
		}
	} else {
		if (flags & O_CREAT)
			uniq(path, sizeof(path), q, "c"), clean_add(q, path);
		else if (q->ondir)
			fmt(path, sizeof(path), "%s", q->target);
		else
			obj_file(q, path, sizeof(path));
		if (q->ondir && (flags & 3))
			ex = -EISDIR;
		if (q->want == WANT_FAIL && q->kind == K_SCRATCH) {
			sp(path, sizeof(path), flags & O_CREAT ? "none/x" : "none");
			ex = -ENOENT;
		} else if (q->want == WANT_FAIL || want_errno(q, EEXIST)) {
			if (flags & O_CREAT) {
				uniq(path, sizeof(path), q, "e");
				setup_add(q, 'f', path);
			}
			flags |= O_CREAT | O_EXCL;
			ex = -EEXIST;
		} else if (want_errno(q, EACCES)) {
			fl = "u";
			ex = -EACCES;
			if (q->kind == K_SCRATCH)
				sp(path, sizeof(path), "private/f");
			else if (writable_by_user(q->target))
				fmt(q->why, sizeof(q->why), "%s is writable by uid 1000",
				    q->target);
			else
				flags |= O_CREAT | O_WRONLY;
		} else if (want_errno(q, EPERM) && q->kind == K_SCRATCH) {
			if (flags & O_CREAT)
				sp(path, sizeof(path), "immdir/x");
			else if (flags & 3)
				sp(path, sizeof(path), "imm");
			else
				fmt(q->why, sizeof(q->why), "exit=-EPERM opening for reading");
			ex = -EPERM;
		} else if (want_errno(q, ENOENT)) {
			sp(path, sizeof(path), flags & O_CREAT ? "none/x" : "none");
			ex = -ENOENT;
		} else if (q->want == WANT_ERR) {
			fmt(q->why, sizeof(q->why), "exit=-%s for %s",
			    audit_errno_to_name(q->werr) ?: "?", b);
		}
		if (q->ondir)
			flags |= O_DIRECTORY * !(flags & 3);
	}
	if (creat) {
		o = new_op(q, q->name, fl, "S:%s|I:0600", path);
	} else if (is2) {
		o = new_op(q, q->name, fl, "I:-100|S:%s|O:%u|I:24", path, flags);
		o->ev.acc = acc_mode(flags);
	} else if (isat) {
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:%u|I:0600", path, flags);
		ev_arg(o, 0, (uint32_t)-100);
		ev_arg(o, 2, flags);
		ev_arg(o, 3, 0600);
	} else {
		o = new_op(q, q->name, fl, "S:%s|I:%u|I:0600", path, flags);
		ev_arg(o, 1, flags);
		ev_arg(o, 2, 0600);
	}
	/* a lookup that fails on the way collects no name */
	if (ex != -ENOENT && !(ex == -EACCES && q->kind == K_SCRATCH)) {
		if ((flags & O_CREAT) && ex != -EEXIST && q->kind != K_FILE) {
			ev_parent(o, path);
			ev_name(o, path, 0, NULL);
		} else {
			ev_name(o, path, !(flags & O_NOFOLLOW), NULL);
		}
	}
	ev_exit(o, ex);
	return 0;
}

static int r_open_by_handle(struct req *q)
{
	char obj[PATH_MAX], d[PATH_MAX];
	struct op *o;
	const char *fl = "";
	int32_t ex = 0;

	if (q->kind == K_FILE || q->kind == K_DIR) {
		fmt(q->why, sizeof(q->why), "open_by_handle_at collects no name");
		return -1;
	}
	obj_file(q, obj, sizeof(obj));
	fmt(d, sizeof(d), "%s", scratch);
	if (want_errno(q, EPERM) || q->want == WANT_FAIL) {
		/* CAP_DAC_READ_SEARCH goes with fsuid 0 */
		fl = "u";
		ex = -EPERM;
	} else if (q->want == WANT_ERR) {
		fmt(q->why, sizeof(q->why), "exit=-%s for open_by_handle_at",
		    audit_errno_to_name(q->werr) ?: "?");
	}
	o = new_op(q, q->name, fl, "F:%d:%s|H:%s|I:%u", O_RDONLY | O_DIRECTORY, d, obj,
		   farg(q, 2, O_RDONLY));
	ev_arg(o, 2, farg(q, 2, O_RDONLY));
	ev_exit(o, ex);
	return 0;
}

/* truncate, truncate64, ftruncate, ftruncate64, fallocate */
static int r_truncate(struct req *q)
{
	int fd = q->base[0] == 'f';
	int falloc = !strcmp(q->base, "fallocate");
	int i386_64 = q->arch == 32 && (strstr(q->name, "64") || falloc);
	char obj[PATH_MAX];
	const char *fl = "";
	struct op *o;
	int32_t ex = 0;
	int oflags = O_WRONLY | (q->kind == K_FILE ? O_NOFOLLOW : 0);
	char a0[PATH_MAX + 32], size[PATH_MAX + 8];

	obj_file(q, obj, sizeof(obj));
	if (q->kind == K_FILE && is_dir(obj)) {
		fmt(q->why, sizeof(q->why), "%s on directory %s", q->name, obj);
		return -1;
	}
	fmt(size, sizeof(size), "Z:%s", obj);
	if (q->want == WANT_FAIL || q->want == WANT_ERR) {
		if (fd && (want_errno(q, EPERM) && q->kind == K_SCRATCH)) {
			sp(obj, sizeof(obj), "app");
			oflags = O_WRONLY | O_APPEND;
			fmt(size, sizeof(size), "I:0");
			ex = -EPERM;
		} else if (fd && (q->want == WANT_FAIL || want_errno(q, EINVAL))) {
			oflags = O_RDONLY;
			ex = falloc ? -EBADF : -EINVAL;
		} else if (!fd && want_errno(q, EPERM) && q->kind == K_SCRATCH) {
			sp(obj, sizeof(obj), "imm");
			ex = -EPERM;
		} else if (!fd && (q->want == WANT_FAIL || want_errno(q, EACCES)) &&
			   !writable_by_user(obj)) {
			fl = "u";
			ex = -EACCES;
		} else {
			fmt(q->why, sizeof(q->why), "%s with exit=-%s on %s", q->name,
			    audit_errno_to_name(q->werr) ?: "?", obj);
		}
	}
	if (fd)
		fmt(a0, sizeof(a0), "F:%d:%s", oflags, obj);
	else
		fmt(a0, sizeof(a0), "S:%s", obj);
	if (falloc && i386_64)
		o = new_op(q, q->name, fl, "%s|I:%d|I:0|I:0|I:1|I:0", a0, ex == -EPERM ? 3 : 1);
	else if (falloc)
		o = new_op(q, q->name, fl, "%s|I:%d|I:0|I:1", a0, ex == -EPERM ? 3 : 1);
	else if (i386_64)
		o = new_op(q, q->name, fl, "%s|%s|I:0", a0, size);
	else
		o = new_op(q, q->name, fl, "%s|%s", a0, size);
	ev_name(o, obj, !fd, NULL);
	ev_exit(o, ex);
	return 0;
}

/* rename, renameat, renameat2, link, linkat, unlink, unlinkat, rmdir */
static int r_names(struct req *q)
{
	const char *b = q->base;
	int ren = !strncmp(b, "rename", 6), link = !strncmp(b, "link", 4);
	int at = !strcmp(b, "renameat") || !strcmp(b, "renameat2") || !strcmp(b, "linkat") ||
		 !strcmp(b, "unlinkat");
	int rmdir =
		!strcmp(b, "rmdir") || (!strcmp(b, "unlinkat") && (farg(q, 2, 0) & AT_REMOVEDIR));
	char from[PATH_MAX], to[PATH_MAX];
	const char *fl = "", *inode_of = NULL;
	int32_t ex = 0;
	struct op *o;

	from[0] = to[0] = 0;
	if (q->kind == K_FILE) {
		const char *p = q->target;
		int dir = is_dir(p);

		if (q->want == WANT_OK && (dir || rmdir)) {
			fmt(q->why, sizeof(q->why), "%s of %s would remove it", b, p);
			return -1;
		}
		if (rmdir && !dir) {
			fmt(from, sizeof(from), "%s", p); /* ENOTDIR, after the name */
			ex = -ENOTDIR;
		} else if (q->want == WANT_OK || (q->want == WANT_ANY && !dir)) {
			/* a hard link to the object stands in for it */
			if (link) {
				fmt(from, sizeof(from), "%s", p);
				fmt(to, sizeof(to), "%s.wit-%d", p, ++op_seq);
				clean_add(q, to);
			} else {
				char l[PATH_MAX];
				struct op *h;

				fmt(l, sizeof(l), "%s.wit-%d", p, ++op_seq);
				clean_add(q, l);
				h = new_op(q, "link", "", "S:%s|S:%s", p, l);
				ev_name(h, p, 0, NULL);
				fmt(from, sizeof(from), "%s", l);
				inode_of = p;
				if (ren) {
					fmt(to, sizeof(to), "%s.wit-%dm", p, op_seq);
					clean_add(q, to);
				}
			}
		} else if (link && q->want == WANT_FAIL) {
			fmt(from, sizeof(from), "%s", p);
			fmt(to, sizeof(to), "%s", p);
			ex = -EEXIST;
		} else if (parent_refuses_user(p)) {
			/* refused by the directory's permissions: nothing moves */
			fl = "u";
			fmt(from, sizeof(from), "%s", p);
			if (ren || link) {
				fmt(to, sizeof(to), "%s.wit-%d", p, ++op_seq);
				clean_add(q, to);
			}
			/* a sticky directory writable by all refuses with EPERM, or
			 * lets a link be made */
			{
				char d[PATH_MAX];
				const char *sl = strrchr(p, '/');

				fmt(d, sizeof(d), "%.*s", sl && sl != p ? (int)(sl - p) : 1, p);
				ex = writable_by_user(d) ? 1 : -EACCES;
			}
		} else {
			fmt(q->why, sizeof(q->why), "%s of %s: its directory lets uid 1000 do it",
			    b, p);
			return -1;
		}
	} else {
		const char *tag = rmdir ? "d" : "f";

		if (q->want == WANT_FAIL || want_errno(q, ENOENT)) {
			uniq(from, sizeof(from), q, "n");
			ex = -ENOENT;
		} else if (want_errno(q, EPERM) && q->kind == K_SCRATCH) {
			sp(from, sizeof(from), rmdir ? "immdir" : link ? "emptydir" : "imm");
			ex = -EPERM;
		} else if (want_errno(q, EACCES)) {
			if (q->kind == K_SCRATCH)
				sp(from, sizeof(from), rmdir ? "private/d" : "private/f");
			else if (writable_by_user(q->target))
				fmt(q->why, sizeof(q->why), "%s is writable by uid 1000",
				    q->target);
			else
				uniq(from, sizeof(from), q, tag), setup_add(q, *tag, from);
			fl = "u";
			ex = -EACCES;
		} else {
			if (q->want == WANT_ERR)
				fmt(q->why, sizeof(q->why), "exit=-%s for %s",
				    audit_errno_to_name(q->werr) ?: "?", b);
			uniq(from, sizeof(from), q, tag);
			setup_add(q, *tag, from);
		}
		if (ren || link) {
			uniq(to, sizeof(to), q, "t");
			clean_add(q, to);
		}
	}
	if (ren && at && !strcmp(b, "renameat2"))
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:-100|S:%s|I:0", from, to);
	else if (ren && at)
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:-100|S:%s", from, to);
	else if (ren || (link && !at))
		o = new_op(q, q->name, fl, "S:%s|S:%s", from, to);
	else if (link)
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:-100|S:%s|I:0", from, to);
	else if (at)
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:%u", from, rmdir ? AT_REMOVEDIR : 0);
	else
		o = new_op(q, q->name, fl, "S:%s", from);
	if (link) {
		ev_name(o, from, 0, NULL);
		ev_parent(o, to);
	} else {
		ev_parent(o, from);
		ev_name(o, from, 0, inode_of);
		if (ren)
			ev_parent(o, to);
	}
	if (!strcmp(b, "unlinkat")) {
		ev_arg(o, 0, (uint32_t)-100);
		ev_arg(o, 2, rmdir ? AT_REMOVEDIR : 0);
	}
	if (ex != 1)
		ev_exit(o, ex);
	return 0;
}

/* mkdir, mkdirat, mknod, mknodat, symlink, symlinkat, bind: a new name */
static int r_create(struct req *q)
{
	const char *b = q->base;
	char path[PATH_MAX];
	const char *fl = "";
	int32_t ex = 0;
	struct op *o;
	int ufam = AF_UNIX;

	if (q->kind == K_FILE) {
		/* the name exists: EEXIST, and only its directory is collected */
		fmt(path, sizeof(path), "%s", q->target);
		ex = !strcmp(b, "bind") ? -EADDRINUSE : -EEXIST;
	} else if (q->want == WANT_FAIL || want_errno(q, EEXIST)) {
		uniq(path, sizeof(path), q, "x");
		setup_add(q, 'f', path);
		ex = !strcmp(b, "bind") ? -EADDRINUSE : -EEXIST;
	} else if (want_errno(q, EPERM) && q->kind == K_SCRATCH) {
		sp(path, sizeof(path), "immdir/x");
		ex = -EPERM;
	} else if (want_errno(q, EACCES)) {
		if (q->kind == K_SCRATCH)
			sp(path, sizeof(path), "private/x");
		else if (writable_by_user(q->target))
			fmt(q->why, sizeof(q->why), "%s is writable by uid 1000", q->target);
		else
			uniq(path, sizeof(path), q, "x");
		fl = "u";
		ex = -EACCES;
	} else {
		if (q->want == WANT_ERR)
			fmt(q->why, sizeof(q->why), "exit=-%s for %s",
			    audit_errno_to_name(q->werr) ?: "?", b);
		uniq(path, sizeof(path), q, "x");
		clean_add(q, path);
	}
	if (!strcmp(b, "mkdir"))
		o = new_op(q, q->name, fl, "S:%s|I:0755", path);
	else if (!strcmp(b, "mkdirat"))
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:0755", path);
	else if (!strcmp(b, "mknod"))
		o = new_op(q, q->name, fl, "S:%s|I:%u|I:0", path, S_IFIFO | 0600);
	else if (!strcmp(b, "mknodat"))
		o = new_op(q, q->name, fl, "I:-100|S:%s|I:%u|I:0", path, S_IFIFO | 0600);
	else if (!strcmp(b, "symlink"))
		o = new_op(q, q->name, fl, "S:witness|S:%s", path);
	else if (!strcmp(b, "symlinkat"))
		o = new_op(q, q->name, fl, "S:witness|I:-100|S:%s", path);
	else if (q->arch == 32 && !strcmp(q->name, "socketcall"))
		o = new_op(q, q->name, fl, "I:2|A:N:%d~U:%s~I:110", ufam, path);
	else
		o = new_op(q, q->name, fl, "N:%d|U:%s|I:110", ufam, path);
	if (q->arch == 32 && !strcmp(q->name, "socketcall"))
		ev_arg(o, 0, 2);
	ev_parent(o, path);
	if (ex != -EEXIST && ex != -EADDRINUSE)
		ev_name(o, path, 0, NULL);
	ev_exit(o, ex);
	return 0;
}

/* chmod, fchmod, fchmodat, fchmodat2, chown, lchown, fchown, fchownat
 * (and i386's 16-bit and 32 forms) */
static int r_attr(struct req *q)
{
	const char *b = q->base;
	int mod = strstr(b, "chmod") != NULL, fd = b[0] == 'f' && !strstr(b, "at");
	int at = strstr(b, "at") != NULL, nofollow = !strcmp(b, "lchown");
	char obj[PATH_MAX], a0[PATH_MAX + 32], val[PATH_MAX + 8];
	const char *fl = "";
	int32_t ex = 0;
	struct op *o;
	int atflags = 0, collect = 1;

	if (q->ondir)
		fmt(obj, sizeof(obj), "%s", q->target);
	else
		obj_file(q, obj, sizeof(obj));
	if (q->kind == K_FILE && (at && (!strcmp(b, "fchownat") || !strcmp(b, "fchmodat2"))))
		atflags = AT_SYMLINK_NOFOLLOW, nofollow = 1;
	if (mod)
		fmt(val, sizeof(val), "M:%s", obj);
	else
		fmt(val, sizeof(val), "I:-1|I:-1");
	if (q->want == WANT_FAIL || q->want == WANT_ERR) {
		if (want_errno(q, EPERM) && q->kind == K_SCRATCH && !q->ondir) {
			sp(obj, sizeof(obj), "imm");
			if (!mod)
				fmt(val, sizeof(val), "I:0|I:-1");
			ex = -EPERM;
		} else if (want_errno(q, EACCES) && q->kind == K_SCRATCH && !fd) {
			sp(obj, sizeof(obj), "private/f");
			fl = "u";
			ex = -EACCES;
			collect = 0;
		} else if (want_errno(q, ENOENT) && !fd) {
			sp(obj, sizeof(obj), "none");
			ex = -ENOENT;
			collect = 0;
		} else if (q->want == WANT_FAIL || want_errno(q, EPERM)) {
			/* not the owner: EPERM, nothing changed */
			fl = "u";
			if (!mod)
				fmt(val, sizeof(val), "W:%s|I:-1", obj);
			ex = -EPERM;
		} else {
			fmt(q->why, sizeof(q->why), "exit=-%s for %s",
			    audit_errno_to_name(q->werr) ?: "?", b);
		}
	}
	if (fd)
		fmt(a0, sizeof(a0), "F:%d:%s", O_RDONLY | (q->kind == K_FILE ? O_NOFOLLOW : 0),
		    obj);
	else if (at)
		fmt(a0, sizeof(a0), "I:-100|S:%s", obj);
	else
		fmt(a0, sizeof(a0), "S:%s", obj);
	if (at && (!strcmp(b, "fchownat") || !strcmp(b, "fchmodat2")))
		o = new_op(q, q->name, fl, "%s|%s|I:%d", a0, val, atflags);
	else
		o = new_op(q, q->name, fl, "%s|%s", a0, val);
	if (collect)
		ev_name(o, obj, !nofollow && !fd, NULL);
	if (!ex && q->kind == K_FILE && nofollow && !strcmp(b, "fchmodat2")) {
		struct stat st;

		if (!c_lstat(obj, &st) && S_ISLNK(st.st_mode))
			ex = -EOPNOTSUPP;
	}
	ev_exit(o, ex);
	return 0;
}

/* the xattr calls, readlink, readlinkat, quotactl: reads and attribute
 * changes that change nothing on an object the witness does not own */
static int r_xattr(struct req *q)
{
	const char *b = q->base;
	int set = !strncmp(b, "setxattr", 8) || !strcmp(b, "lsetxattr") || !strcmp(b, "fsetxattr");
	int rem = strstr(b, "removexattr") != NULL, get = strstr(b, "getxattr") != NULL;
	int list = strstr(b, "listxattr") != NULL, rl = !strncmp(b, "readlink", 8);
	int quota = !strcmp(b, "quotactl");
	int fd = b[0] == 'f', l = b[0] == 'l', at = strstr(b, "xattrat") != NULL;
	int nofollow = l || (at && q->kind == K_FILE) || rl;
	char obj[PATH_MAX], a0[PATH_MAX + 32];
	const char *fl = "";
	int32_t ex = 0;
	int xflags = XATTR_REPLACE, collect = 1;
	struct op *o;

	if (q->ondir)
		fmt(obj, sizeof(obj), "%s", q->target);
	else
		obj_file(q, obj, sizeof(obj));
	if (set || rem)
		ex = -ENODATA;
	if (get)
		ex = -ENODATA;
	if (rl)
		ex = -EINVAL;
	if (q->kind != K_FILE && set && q->want == WANT_OK)
		xflags = 0, ex = 0; /* a scratch file takes the attribute */
	if (q->kind != K_FILE && rem && q->want == WANT_OK) {
		struct op *h = new_op(q, "setxattr", "", "S:%s|S:user.witness|S:w|I:1|I:0", obj);

		ev_name(h, obj, 1, NULL);
		ex = 0;
	}
	if (want_errno(q, EPERM) && (set || rem) && q->kind == K_SCRATCH && !q->ondir) {
		sp(obj, sizeof(obj), "imm");
		ex = -EPERM;
	} else if ((want_errno(q, EACCES) || (q->want == WANT_FAIL && !ex)) && (set || rem) &&
		   !writable_by_user(obj)) {
		fl = "u";
		ex = -EACCES;
	} else if (q->want == WANT_OK && ex) {
		fmt(q->why, sizeof(q->why), "success for %s on %s", b, obj);
	} else if (q->want == WANT_ERR && ex != -q->werr) {
		fmt(q->why, sizeof(q->why), "exit=-%s for %s", audit_errno_to_name(q->werr) ?: "?",
		    b);
	}
	if (quota) {
		/* Q_GETFMT on a path that is no block device: ENOTBLK */
		o = new_op(q, q->name, fl, "I:%u|S:%s|I:0|B:8", 0x80000400u, obj);
		ev_name(o, obj, 1, NULL);
		ev_exit(o, -ENOTBLK);
		return 0;
	}
	if (fd)
		fmt(a0, sizeof(a0), "F:%d:%s", O_RDONLY | (q->kind == K_FILE ? O_NOFOLLOW : 0),
		    obj);
	else if (at || !strcmp(b, "readlinkat"))
		fmt(a0, sizeof(a0), "I:-100|S:%s", obj);
	else
		fmt(a0, sizeof(a0), "S:%s", obj);
	if (rl)
		o = new_op(q, q->name, fl, "%s|B:256|I:256", a0);
	else if (at && set)
		o = new_op(q, q->name, fl, "%s|I:%d|S:user.witness|X:%d|I:16", a0,
			   nofollow ? AT_SYMLINK_NOFOLLOW : 0, xflags);
	else if (at && get)
		o = new_op(q, q->name, fl, "%s|I:%d|S:user.witness|X:0|I:16", a0,
			   nofollow ? AT_SYMLINK_NOFOLLOW : 0);
	else if (at && rem)
		o = new_op(q, q->name, fl, "%s|I:%d|S:user.witness", a0,
			   nofollow ? AT_SYMLINK_NOFOLLOW : 0);
	else if (at && list)
		o = new_op(q, q->name, fl, "%s|I:%d|B:256|I:256", a0,
			   nofollow ? AT_SYMLINK_NOFOLLOW : 0);
	else if (set)
		o = new_op(q, q->name, fl, "%s|S:user.witness|S:w|I:1|I:%d", a0, xflags);
	else if (get)
		o = new_op(q, q->name, fl, "%s|S:user.witness|B:64|I:64", a0);
	else if (rem)
		o = new_op(q, q->name, fl, "%s|S:user.witness", a0);
	else
		o = new_op(q, q->name, fl, "%s|B:256|I:256", a0);
	if (collect)
		ev_name(o, obj, !nofollow && !fd, NULL);
	/* tmpfs and ramfs differ in user xattrs: only the failures above are sure */
	if (ex == -EPERM || ex == -EACCES || ex == -EINVAL)
		ev_exit(o, ex);
	return 0;
}

/* execve, execveat: a bad argv, so that nothing runs once the file is
 * opened (do_execveat_common() opens before it counts argv) */
static int r_exec(struct req *q)
{
	int at = !strcmp(q->base, "execveat");
	char obj[PATH_MAX];
	struct op *o;
	int32_t ex = -EFAULT;
	struct stat st;

	if (q->want == WANT_OK) {
		char t[PATH_MAX];

		sp(t, sizeof(t), "true");
		o = new_op(q, q->name, "o", at ? "I:-100|S:%s|V:%s|P:0|I:0" : "S:%s|V:%s|P:0", t,
			   t);
		ev_name(o, t, 1, NULL);
		ev_exit(o, 0);
		return 0;
	}
	if (q->ondir || q->kind == K_FILE)
		fmt(obj, sizeof(obj), "%s", q->target);
	else
		obj_file(q, obj, sizeof(obj));
	if (at)
		o = new_op(q, q->name, "", "I:-100|S:%s|P:1|P:0|I:%d", obj,
			   q->kind == K_FILE ? AT_SYMLINK_NOFOLLOW : 0);
	else
		o = new_op(q, q->name, "", "S:%s|P:1|P:0", obj);
	ev_name(o, obj, !(at && q->kind == K_FILE), NULL);
	if (c_stat(obj, &st) || !S_ISREG(st.st_mode) || !(st.st_mode & 0111))
		ex = -EACCES;
	if (at && q->kind == K_FILE && !c_lstat(obj, &st) && S_ISLNK(st.st_mode))
		ex = -ELOOP;
	if (q->want == WANT_ERR && q->werr != -ex)
		fmt(q->why, sizeof(q->why), "exit=-%s for %s", audit_errno_to_name(q->werr) ?: "?",
		    q->base);
	ev_exit(o, ex);
	return 0;
}

static int r_socket(struct req *q)
{
	const char *b = q->base;
	struct op *o;
	int fam = farg(q, 2, 16) == 28 ? AF_INET6 : AF_INET;

	if (!strcmp(b, "connect")) {
		if (q->want == WANT_FAIL || q->want == WANT_ERR) {
			o = new_op(q, q->name, "", "I:-1|B:32|I:%u", farg(q, 2, 16));
			ev_exit(o, -EBADF);
		} else {
			o = new_op(q, q->name, "", "N:%d|L:%d|I:%u", fam, fam,
				   farg(q, 2, fam == AF_INET6 ? 28 : 16));
		}
		ev_arg(o, 2, farg(q, 2, fam == AF_INET6 ? 28 : 16));
		return 0;
	}
	if (!strcmp(b, "socket")) {
		o = new_op(q, q->name, "", "I:%u|I:%u|I:0", farg(q, 0, AF_UNIX),
			   farg(q, 1, SOCK_STREAM));
		ev_arg(o, 0, farg(q, 0, AF_UNIX));
		ev_arg(o, 1, farg(q, 1, SOCK_STREAM));
		return 0;
	}
	if (!strcmp(b, "bind")) {
		o = new_op(q, q->name, "", "N:%d|L:%d|I:16", AF_INET, AF_INET);
		return 0;
	}
	/* accept, accept4, listen, ...: a bad fd */
	o = new_op(q, q->name, "", "I:-1|P:0|P:0|I:0");
	ev_exit(o, -EBADF);
	return 0;
}

/* setuid and the rest: no change (or the value a0.. asks for) as root;
 * EPERM as uid 1000 asking for 0 */
static int r_setid(struct req *q)
{
	const char *b = q->base;
	int n = strstr(b, "setres") ? 3 : strstr(b, "setre") ? 2 : 1;
	uint32_t def = n == 1 && !strstr(b, "setfs") ? 0 : (uint32_t)-1;
	struct op *o;
	char args[64] = "";
	int i;

	if (q->arch == 32 && !strstr(q->name, "32") && def == (uint32_t)-1)
		def = 0xffff; /* the 16-bit forms */
	if (q->want == WANT_FAIL || want_errno(q, EPERM))
		def = 0; /* asked for by uid 1000 */
	for (i = 0; i < n; i++)
		fmt(args + strlen(args), sizeof(args) - strlen(args), "%sI:%u", i ? "|" : "",
		    farg(q, i, def));
	o = new_op(q, q->name, "", "%s", args);
	for (i = 0; i < n; i++)
		ev_arg(o, i, farg(q, i, def));
	if (q->want == WANT_FAIL || want_errno(q, EPERM)) {
		o->need_nonroot = 1;
		ev_exit(o, strstr(b, "setfs") ? 1000 : -EPERM);
	} else if (!strstr(b, "setfs")) {
		ev_exit(o, 0);
	}
	return 0;
}

/* Syscalls with no file and no task state to speak of: arguments that make
 * them harmless (a bad pointer, a zero timeout, no signal, the caller's
 * own pid), each alone in its child. */
static int r_other(struct req *q)
{
	const char *b = q->base;
	struct op *o;
	int i;
	char args[256] = "";
	uint32_t a[6] = { 0 };
	const char *fl = "o";

	if ((!strcmp(b, "fork") || !strcmp(b, "vfork") || !strcmp(b, "clone")) && q->arch == 32 &&
	    (q->int80 || q->exe[0])) {
		/* (int 0x80 from C code: a vfork child would return on the
		 * parent's stack) */
		fmt(q->why, sizeof(q->why), "%s through int 0x80", b);
		return -1;
	}
	if (!strcmp(b, "fork") || !strcmp(b, "vfork")) {
		o = new_op(q, q->name, "of", "");
		return 0;
	}
	if (!strcmp(b, "clone")) {
		uint32_t f = farg(q, 0, SIGCHLD);

		if (!(f & 0xff))
			f |= SIGCHLD;
		o = new_op(q, q->name, "of", "I:%u|P:0|P:0|P:0|P:0", f);
		ev_arg(o, 0, f);
		return 0;
	}
	if (!strcmp(b, "exit") || !strcmp(b, "exit_group")) {
		o = new_op(q, q->name, "ox", "I:%u", farg(q, 0, 0));
		ev_arg(o, 0, farg(q, 0, 0));
		return 0;
	}
	if (!strcmp(b, "rt_sigreturn") || !strcmp(b, "sigreturn")) {
		if (q->arch == 32 && !strcmp(b, "rt_sigreturn")) {
			/* glibc's i386 handlers return with sigreturn unless
			 * SA_SIGINFO: the int 0x80 form of the 64-bit build
			 * cannot either. */
			fmt(q->why, sizeof(q->why), "i386 rt_sigreturn");
		}
		o = new_op(q, q->name, "os", "");
		return 0;
	}
	if (!strcmp(b, "kill") || !strcmp(b, "tkill") || !strcmp(b, "tgkill") ||
	    !strcmp(b, "rt_sigqueueinfo") || !strcmp(b, "rt_tgsigqueueinfo")) {
		int two = !strcmp(b, "tgkill") || !strcmp(b, "rt_tgsigqueueinfo");
		int si = two ? 2 : 1;
		uint32_t sig = farg(q, si, 0);

		for (i = 0; i < si; i++)
			if ((q->forced & (1u << i)) && farg(q, i, 0) != 0 && sig) {
				fmt(q->why, sizeof(q->why), "%s would signal pid %d", b,
				    (int)farg(q, i, 0));
				return -1;
			}
		char p0[32], p1[32];

		if (q->forced & 1)
			fmt(p0, sizeof(p0), "I:%u", farg(q, 0, 0));
		else
			fmt(p0, sizeof(p0), "Q:");
		if (two && (q->forced & 2))
			fmt(p1, sizeof(p1), "I:%u", farg(q, 1, 0));
		else
			fmt(p1, sizeof(p1), "Q:");
		if (two)
			o = new_op(q, q->name, "o", "%s|%s|I:%u%s", p0, p1, sig,
				   strstr(b, "queue") ? "|B:128" : "");
		else
			o = new_op(q, q->name, "o", "%s|I:%u%s", p0, sig,
				   strstr(b, "queue") ? "|B:128" : "");
		ev_arg(o, si, sig);
		return 0;
	}
	if (!strcmp(b, "sethostname") || !strcmp(b, "setdomainname")) {
		o = new_op(q, q->name, "", "P:1|I:1");
		ev_exit(o, -EFAULT);
		return 0;
	}
	if (!strcmp(b, "syslog")) {
		uint32_t t = farg(q, 0, 0);

		if (t >= 4 && t <= 8) {
			fmt(q->why, sizeof(q->why), "syslog %u clears or changes the log", t);
			return -1;
		}
		o = new_op(q, q->name, "o", "I:%u|B:4096|I:4096", t);
		ev_arg(o, 0, t);
		return 0;
	}
	if (!strcmp(b, "reboot")) {
		if (farg(q, 0, 0) == 0xfee1dead) {
			fmt(q->why, sizeof(q->why), "reboot with its magic");
			return -1;
		}
	}
	if (!strcmp(b, "adjtimex") || !strcmp(b, "clock_adjtime")) {
		int clk = !strcmp(b, "clock_adjtime");

		/* a struct timex with modes 0 only reads */
		const char *tx = q->want == WANT_FAIL ? "P:1" : "B:256";

		if (clk)
			o = new_op(q, q->name, "", "I:%u|%s", farg(q, 0, 0), tx);
		else
			o = new_op(q, q->name, "", "%s", tx);
		if (clk)
			ev_arg(o, 0, farg(q, 0, 0));
		if (q->want == WANT_FAIL)
			ev_exit(o, -EFAULT);
		return 0;
	}
	if (!strcmp(b, "settimeofday")) {
		o = new_op(q, q->name, "", q->want == WANT_FAIL ? "P:1|P:0" : "P:0|P:0");
		ev_exit(o, q->want == WANT_FAIL ? -EFAULT : 0);
		return 0;
	}
	if (!strcmp(b, "clock_settime") || !strcmp(b, "stime") || !strcmp(b, "settimeofday")) {
		if (q->want == WANT_OK) {
			fmt(q->why, sizeof(q->why), "success for %s would set the clock", b);
		}
		o = new_op(q, q->name, "", !strcmp(b, "stime") ? "P:1" : "I:%u|P:1", farg(q, 0, 0));
		ev_arg(o, 0, farg(q, 0, 0));
		ev_exit(o, -EFAULT);
		return 0;
	}
	if (!strcmp(b, "pause") || !strcmp(b, "sigsuspend")) {
		o = new_op(q, q->name, "o", "I:0|I:0|I:0");
		return 0;
	}
	if (!strcmp(b, "select") || !strcmp(b, "_newselect") || !strcmp(b, "pselect6")) {
		o = new_op(q, q->name, "o", "I:0|P:0|P:0|P:0|B:16|P:0");
		return 0;
	}
	if (!strcmp(b, "ppoll")) {
		o = new_op(q, q->name, "o", "P:0|I:0|B:16|P:0|I:8");
		return 0;
	}
	if (!strcmp(b, "nanosleep") || !strcmp(b, "clock_nanosleep")) {
		o = new_op(q, q->name, "o",
			   !strcmp(b, "nanosleep") ? "B:16|P:0" : "I:0|I:0|B:16|P:0");
		return 0;
	}
	if (!strcmp(b, "wait4") || !strcmp(b, "waitpid")) {
		o = new_op(q, q->name, "o", "I:-1|P:0|I:1|P:0");
		ev_exit(o, -ECHILD);
		return 0;
	}
	if (!strcmp(b, "init_module")) {
		o = new_op(q, q->name, "o", "P:0|I:0|S:");
		return 0;
	}
	if (!strcmp(b, "finit_module")) {
		o = new_op(q, q->name, "o", "I:-1|S:|I:0");
		ev_exit(o, -EBADF);
		return 0;
	}
	if (!strcmp(b, "delete_module")) {
		o = new_op(q, q->name, "o", "S:witness_none|I:%d", O_NONBLOCK);
		ev_exit(o, -ENOENT);
		return 0;
	}
	if (!strcmp(b, "kexec_load")) {
		o = new_op(q, q->name, "o", "I:0|I:0|P:0|I:%u", 0xdead0000u);
		ev_exit(o, -EINVAL);
		return 0;
	}
	if (!strcmp(b, "kexec_file_load")) {
		o = new_op(q, q->name, "o", "I:-1|I:-1|I:0|P:0|I:0");
		return 0;
	}
	if (!strcmp(b, "ptrace")) {
		uint32_t req = farg(q, 0, 3); /* PTRACE_PEEKUSER of pid 0: ESRCH */

		o = new_op(q, q->name, "o", "I:%u|I:0|I:0|I:0", req);
		ev_arg(o, 0, req);
		return 0;
	}
	if (!strcmp(b, "personality")) {
		o = new_op(q, q->name, "o", "I:%u", farg(q, 0, 0xffffffff));
		ev_arg(o, 0, farg(q, 0, 0xffffffff));
		return 0;
	}
	if (!strcmp(b, "msgget") || !strcmp(b, "semget") || !strcmp(b, "shmget")) {
		/* a key no object has, and no IPC_CREAT: ENOENT, and no System V
		 * object outlives the run (IPC_PRIVATE, key 0, would make one) */
		uint32_t key = farg(q, 0, 0x57495453),
			 fl = farg(q, !strcmp(b, "msgget") ? 1 : 2, 0);

		if (key == 0 || (fl & 01000)) {
			fmt(q->why, sizeof(q->why), "%s would make a System V object", b);
			return -1;
		}
		if (!strcmp(b, "msgget"))
			o = new_op(q, q->name, "o", "I:%u|I:%u", key, fl);
		else
			o = new_op(q, q->name, "o", "I:%u|I:%u|I:%u", key, farg(q, 1, 1), fl);
		ev_arg(o, 0, key);
		ev_exit(o, -ENOENT);
		return 0;
	}
	if (!strcmp(b, "msgctl") || !strcmp(b, "semctl") || !strcmp(b, "shmctl") ||
	    !strcmp(b, "msgsnd") || !strcmp(b, "msgrcv") || !strcmp(b, "semop") ||
	    !strcmp(b, "semtimedop") || !strcmp(b, "shmat") || !strcmp(b, "ipc")) {
		/* no such object: EINVAL */
		uint32_t id = farg(q, 0, (uint32_t)-1);

		if (!strcmp(b, "ipc") && (id == 2 || id == 13 || id == 23)) {
			fmt(q->why, sizeof(q->why), "ipc %u would make a System V object", id);
			return -1;
		}
		o = new_op(q, q->name, "o", "I:%u|I:%u|I:%u|I:%u|P:0", id, farg(q, 1, -1),
			   farg(q, 2, 0), farg(q, 3, 0));
		ev_arg(o, 0, id);
		return 0;
	}
	if (!strcmp(b, "getpid") || !strcmp(b, "getppid") || !strcmp(b, "gettid") ||
	    !strcmp(b, "getuid") || !strcmp(b, "geteuid") || !strcmp(b, "getgid") ||
	    !strcmp(b, "getegid")) {
		fl = "";
	}
	/* anything else: the arguments a0..a3 ask for, zeros elsewhere */
	if (q->want != WANT_ANY)
		fmt(q->why, sizeof(q->why), "the exit= or success= asked, for %s", b);
	for (i = 0; i < 6; i++) {
		a[i] = i < 4 ? farg(q, i, 0) : 0;
		fmt(args + strlen(args), sizeof(args) - strlen(args), "%sI:%u", i ? "|" : "", a[i]);
	}
	o = new_op(q, q->name, fl, "%s", args);
	for (i = 0; i < 4; i++)
		ev_arg(o, i, a[i]);
	return 0;
}

static int recipe(struct req *q)
{
	const char *b = q->base;

	if (!strcmp(b, "open") || !strcmp(b, "openat") || !strcmp(b, "openat2") ||
	    !strcmp(b, "creat"))
		return r_open(q);
	if (!strcmp(b, "open_by_handle_at"))
		return r_open_by_handle(q);
	if (!strcmp(b, "truncate") || !strcmp(b, "ftruncate") || !strcmp(b, "fallocate"))
		return r_truncate(q);
	if (!strncmp(b, "rename", 6) || !strncmp(b, "link", 4) || !strncmp(b, "unlink", 6) ||
	    !strcmp(b, "rmdir"))
		return r_names(q);
	if (!strncmp(b, "mkdir", 5) || !strncmp(b, "mknod", 5) || !strncmp(b, "symlink", 7) ||
	    (!strcmp(b, "bind") && q->kind != K_NONE) ||
	    (!strcmp(q->name, "socketcall") && q->kind != K_NONE))
		return r_create(q);
	if (strstr(b, "chmod") || strstr(b, "chown"))
		return r_attr(q);
	if (strstr(b, "xattr") || !strncmp(b, "readlink", 8) || !strcmp(b, "quotactl"))
		return r_xattr(q);
	if (!strncmp(b, "execve", 6))
		return r_exec(q);
	if (!strcmp(b, "connect") || !strcmp(b, "socket") || !strcmp(b, "bind") ||
	    !strncmp(b, "accept", 6))
		return r_socket(q);
	if (!strncmp(b, "set", 3) && (strstr(b, "uid") || strstr(b, "gid")) && !strstr(b, "groups"))
		return r_setid(q);
	if (q->kind == K_FILE || q->kind == K_DIR) {
		fmt(q->why, sizeof(q->why), "no recipe puts a path in %s", q->name);
		return -1;
	}
	return r_other(q);
}

/* --------------------------------------------------------- task state --- */

static uint32_t self_auid = UNSET;

static int field_passes(const struct rule *r, const char *name, uint32_t v)
{
	int i;

	for (i = 0; i < r->nf; i++) {
		const struct field *f = &r->f[i];
		const char *n = strcmp(f->name, "loginuid") ? f->name : "auid";

		if (!f->cmp && f->has_num && !strcmp(n, name) && !cmp32(v, f->op, f->num))
			return 0;
	}
	return 1;
}

static int cred_index(const char *n)
{
	int i;

	if (!strcmp(n, "loginuid"))
		n = "auid";
	for (i = 0; i < NCRED; i++)
		if (!strcmp(n, cred_name[i]))
			return i;
	return -1;
}

/* A value for cred I that passes the rule's fields on it, PREF first. */
static int pick(const struct rule *r, int i, uint32_t pref, uint32_t *out)
{
	uint32_t cand[64];
	int n = 0, k;

	cand[n++] = pref;
	cand[n++] = 1000;
	cand[n++] = 0;
	cand[n++] = 4242;
	cand[n++] = 1;
	cand[n++] = 500;
	cand[n++] = UNSET;
	for (k = 0; k < r->nf && n < 60; k++)
		if (!r->f[k].cmp && cred_index(r->f[k].name) == i) {
			cand[n++] = r->f[k].num;
			cand[n++] = r->f[k].num + 1;
			cand[n++] = r->f[k].num - 1;
		}
	for (k = 0; k < n; k++) {
		if (i != C_AUID && cand[k] == UNSET)
			continue;
		if (field_passes(r, cred_name[i], cand[k])) {
			*out = cand[k];
			return 0;
		}
	}
	return -1;
}

/* The task state for rule R: the loginuid AUID where the rule lets it be,
 * uids of root (of 1000 when NONROOT). */
static int solve_creds(const struct rule *r, uint32_t auid, int nonroot, uint32_t *cred,
		       uint32_t *pers, char *why, size_t whylen)
{
	uint32_t pref[NCRED];
	int i, k, pass;

	for (i = 0; i < NCRED; i++)
		pref[i] = nonroot ? 1000 : 0;
	pref[C_AUID] = auid;
	for (i = 0; i < NCRED; i++) {
		if (i == C_FSUID)
			pref[i] = cred[C_EUID];
		if (i == C_FSGID)
			pref[i] = cred[C_EGID];
		if (pick(r, i, pref[i], &cred[i])) {
			fmt(why, whylen, "no %s passes its fields", cred_name[i]);
			return -1;
		}
	}
	*pers = 0;
	for (k = 0; k < r->nf; k++) {
		const struct field *f = &r->f[k];

		if (f->cmp)
			continue;
		if (!strcmp(f->name, "pers"))
			*pers = f->op == OP_EQ ? f->num : f->op == OP_NE ? !f->num : f->num + 1;
		if (!strcmp(f->name, "loginuid_set") &&
		    !cmp32(cred[C_AUID] != UNSET, f->op, f->num))
			cred[C_AUID] = cred[C_AUID] == UNSET ? 1000 : UNSET;
		if (!strcmp(f->name, "sessionid") && f->num == UNSET)
			cred[C_AUID] = f->op == OP_EQ ?
					       UNSET :
					       (cred[C_AUID] == UNSET ? 1000 : cred[C_AUID]);
	}
	/* -C between task values; an object's side is root's (the objects the
	 * witness works on are root's) */
	for (pass = 0; pass < 3; pass++) {
		int bad = 0;

		for (k = 0; k < r->nf; k++) {
			const struct field *f = &r->f[k];
			int l = cred_index(f->name), rr = cred_index(f->rhs);
			uint32_t lv, rv;

			if (!f->cmp || l < 0)
				continue;
			lv = cred[l];
			rv = rr >= 0 ? cred[rr] : 0;
			if (cmp32(lv, f->op, rv))
				continue;
			bad = 1;
			/* move the left side, keeping its own fields */
			uint32_t cands[] = { 1000, 0, 4242, 1, rv, rv + 1, rv - 1 };
			size_t c;

			for (c = 0; c < sizeof(cands) / sizeof(cands[0]); c++)
				if (cmp32(cands[c], f->op, rv) &&
				    field_passes(r, cred_name[l], cands[c])) {
					cred[l] = cands[c];
					break;
				}
		}
		if (!bad)
			return 0;
	}
	fmt(why, whylen, "the -C comparisons and the fields cannot all hold");
	return -1;
}

/* --------------------------------------------------------- a rule's plan --- */

static struct req *reqs;
static int nreqs, maxreqs;

static struct req *add_req(struct rule *r, int arch, const char *name, int kind, const char *target)
{
	struct req *q;
	int i;

	if (nreqs == maxreqs)
		fatal("more than %d syscalls planned", maxreqs);
	q = &reqs[nreqs++];
	memset(q, 0, sizeof(*q));
	q->r = r;
	q->arch = arch;
	q->name = strdup(name);
	q->nr = sc_nr(name, arch);
	fmt(q->base, sizeof(q->base), "%s", name);
	if (arch == 32) {
		size_t n = strlen(q->base);

		if (n > 2 && (!strcmp(q->base + n - 2, "32") || !strcmp(q->base + n - 2, "64")) &&
		    strcmp(q->base, "fadvise64"))
			q->base[n - 2] = 0;
		if (!strcmp(q->base, "_newselect"))
			fmt(q->base, sizeof(q->base), "select");
	}
	q->kind = kind;
	fmt(q->target, sizeof(q->target), "%s", target);
	for (i = 0; i < r->nf; i++) {
		const struct field *f = &r->f[i];

		if (!f->cmp && f->name[0] == 'a' && f->name[1] >= '0' && f->name[1] <= '3' &&
		    !f->name[2] && !(q->forced & (1u << (f->name[1] - '0')))) {
			int k = f->name[1] - '0';

			q->forced |= 1u << k;
			q->fop[k] = f->op;
			q->fval[k] = f->num;
		}
		if (!f->cmp && !strcmp(f->name, "success"))
			q->want = ((f->op == OP_EQ) == !!f->num) ? WANT_OK : WANT_FAIL;
		if (!f->cmp && !strcmp(f->name, "exit") && f->has_num) {
			int32_t v = (int32_t)f->num;

			if (f->op == OP_EQ && v < 0)
				q->want = WANT_ERR, q->werr = -v;
			else if (f->op == OP_EQ || ((f->op == OP_GE || f->op == OP_GT) && v >= 0))
				q->want = WANT_OK;
			else if (f->op == OP_LT && v <= 0)
				q->want = WANT_FAIL;
			else if (f->op == OP_NE && v == 0)
				q->want = WANT_FAIL;
		}
	}
	if (r->perm && !r->perm_ne)
		q->acc = r->perm & AUDIT_PERM_WRITE ? AUDIT_PERM_WRITE : AUDIT_PERM_READ;
	return q;
}

/*
 * The syscalls of the permission classes LETTERS, on TARGET. The first rule
 * of a plan with a given kind of target, arch and class gets every syscall
 * of the class (a never,exit prefix that names one of them silences every
 * such rule alike); the others a few of each class. A rule of no arch
 * matches i386's calls too: they are made with int 0x80 from the 64-bit
 * build (audited as i386 as well), with no i386 program started for them.
 */
static void class_reqs(struct rule *r, int arch, int kind, const char *target, unsigned letters)
{
	static const char *const rd[] = { "open",	"openat",     "openat2",    "readlink",
					  "readlinkat", "getxattr",   "lgetxattr",  "fgetxattr",
					  "listxattr",	"llistxattr", "flistxattr", "quotactl",
					  "getxattrat", "listxattrat" };
	static const char *const wr[] = { "open",	"openat",     "openat2",   "creat",
					  "truncate",	"truncate64", "ftruncate", "ftruncate64",
					  "fallocate",	"rename",     "renameat",  "renameat2",
					  "link",	"linkat",     "unlink",	   "unlinkat",
					  "rmdir",	"mkdir",      "mkdirat",   "mknod",
					  "mknodat",	"symlink",    "symlinkat", "bind",
					  "socketcall", "quotactl",   "acct",	   "swapon" };
	static const char *const at[] = {
		"chmod",       "fchmod",       "fchmodat",     "fchmodat2",    "chown",
		"chown32",     "lchown",       "lchown32",     "fchown",       "fchown32",
		"fchownat",    "setxattr",     "lsetxattr",    "fsetxattr",    "setxattrat",
		"removexattr", "lremovexattr", "fremovexattr", "removexattrat"
	};
	static const char *const ex[] = { "execve", "execveat" };
	static const char *const few[] = { "open",   "openat",	 "readlink", "getxattr",
					   "creat",  "truncate", "rename",   "unlink",
					   "rmdir",  "mkdir",	 "chmod",    "fchmodat",
					   "chown",  "chown32",	 "setxattr", "removexattr",
					   "execve", "execveat" };
	static unsigned char whole[2][2][4]; /* [target a directory][i386][class] */
	const char *const *t[4] = { rd, wr, at, ex };
	size_t n[4] = { NCLS(rd), NCLS(wr), NCLS(at), NCLS(ex) };
	unsigned bit[4] = { AUDIT_PERM_READ, AUDIT_PERM_WRITE, AUDIT_PERM_ATTR, AUDIT_PERM_EXEC };
	char seen[64][40];
	int nseen = 0, c, k, int80 = arch == 32 && !r->arch;
	size_t i, f;

	for (c = 0; c < 4; c++) {
		int all;

		if (!(letters & bit[c]))
			continue;
		/* (a never rule's calls make no record to compare) */
		all = !r->never && !whole[kind == K_DIR][arch == 32][c];
		whole[kind == K_DIR][arch == 32][c] |= all;
		for (i = 0; i < n[c]; i++) {
			const char *s = t[c][i];
			int open = !strncmp(s, "open", 4) && strcmp(s, "open_by_handle_at");
			int nr = sc_nr(s, arch), dup = 0, keep = all;
			struct req *q;

			for (f = 0; f < NCLS(few) && !keep; f++)
				keep = !strcmp(few[f], s);
			if (!keep || nr < 0 || !late_ok(s) ||
			    (nr < 424 &&
			     !audit_syscall_to_name(nr, arch == 32 ? MACH_X86 : MACH_86_64)))
				continue;
			/* (socketcall's argument array has the caller's longs) */
			if (!strcmp(s, "socketcall") && (arch != 32 || int80))
				continue;
			if (kind == K_FILE && (!strncmp(s, "mkdir", 5) || !strncmp(s, "mknod", 5) ||
					       !strncmp(s, "symlink", 7) || !strcmp(s, "bind") ||
					       !strcmp(s, "socketcall")))
				continue;
			if (kind != K_SCRATCH && (!strcmp(s, "acct") || !strcmp(s, "swapon")))
				continue;
			for (k = 0; k < nseen; k++)
				dup |= !strcmp(seen[k], s);
			if (dup && !open)
				continue;
			if (!open && nseen < 64)
				fmt(seen[nseen++], sizeof(seen[0]), "%s", s);
			q = add_req(r, arch, s, kind, target);
			q->int80 = int80;
			if (open)
				q->acc = bit[c];
		}
		/* the directory itself */
		if (kind == K_DIR) {
			const char *on = c == 0 || c == 1 ? "openat" : c == 2 ? "chmod" : "execve";
			struct req *q = add_req(r, arch, on, kind, target);

			q->ondir = 1;
			q->int80 = int80;
			q->acc = bit[c];
		}
	}
}

/* The errno a -S all rule asks for, and a syscall that gives it. */
static void errno_reqs(struct rule *r, int arch, const char *target)
{
	struct req *q = add_req(r, arch, "openat", K_SCRATCH, target);
	int e = q->werr;

	if (q->want == WANT_OK) {
		add_req(r, arch, "getpid", K_NONE, target);
		return;
	}
	if (q->want != WANT_ERR || e == EACCES || e == EPERM || e == ENOENT)
		return;
	nreqs--;
	q = add_req(r, arch,
		    e == EINVAL	 ? "readlink" :
		    e == EEXIST	 ? "mkdir" :
		    e == EBADF	 ? "connect" :
		    e == EFAULT	 ? "sethostname" :
		    e == ENOTDIR ? "rmdir" :
				   "openat",
		    K_SCRATCH, target);
	if (e == EBADF || e == EEXIST)
		q->want = WANT_FAIL;
}

/* Whether PATH is a copy of the 64-bit (1) or i386 (2) witness, else 0. */
static int copy_of_witness(const char *path)
{
	const char *cand[2] = { self_exe, exe32 };
	int k;

	for (k = 0; k < 2; k++) {
		FILE *a = fopen(path, "rb"), *b = fopen(cand[k], "rb");
		int same = a && b, ca, cb;

		while (same) {
			ca = getc(a);
			cb = getc(b);
			if (ca != cb)
				same = 0;
			if (ca == EOF || cb == EOF)
				break;
		}
		if (a)
			fclose(a);
		if (b)
			fclose(b);
		if (same)
			return k + 1;
	}
	return 0;
}

/* Fields the witness cannot arrange: returns the first, or NULL. */
static const char *unsatisfiable(const struct rule *r)
{
	int i;

	for (i = 0; i < r->nf; i++) {
		const struct field *f = &r->f[i];
		const char *n = f->name;

		if (f->cmp) {
			if (cred_index(n) < 0 ||
			    (cred_index(f->rhs) < 0 && strcmp(f->rhs, "obj_uid") &&
			     strcmp(f->rhs, "obj_gid")))
				return n;
			continue;
		}
		if (!strncmp(n, "subj_", 5) || !strcmp(n, "obj_user") || !strcmp(n, "obj_role") ||
		    !strcmp(n, "obj_type") || !strncmp(n, "obj_lev", 7))
			return n;
		if ((!strcmp(n, "pid") || !strcmp(n, "ppid") || !strcmp(n, "inode") ||
		     !strcmp(n, "devmajor") || !strcmp(n, "devminor")) &&
		    f->op != OP_NE)
			return n;
		if (!strcmp(n, "sessionid") && f->num != UNSET)
			return n;
		if (!strcmp(n, "msgtype") || !strcmp(n, "fstype") || !strcmp(n, "saddr_fam"))
			return n;
		if (!strcmp(n, "filetype") && f->op == OP_EQ && f->num != S_IFREG &&
		    f->num != S_IFDIR)
			return n;
		if (!f->has_num && strcmp(n, "path") && strcmp(n, "watch") && strcmp(n, "dir") &&
		    strcmp(n, "exe"))
			return n;
	}
	return NULL;
}

struct reqplan {
	uint32_t cred[NCRED];
	uint32_t pers;
	int own;    /* the rule's own fields: YES, NO, MAYBE */
	int shadow; /* the earlier rule that takes the event, or -1 */
	int copy;   /* runs as the exe= copy: 1 its 64-bit, 2 its i386 build */
};

static struct reqplan *rplans;

static struct op *main_op(struct req *q)
{
	int i;

	for (i = 0; i < q->nops; i++)
		if (q->ops[i]->main)
			return q->ops[i];
	return q->nops ? q->ops[q->nops - 1] : NULL;
}

/* The event of Q's syscall under the task state CRED, and whether rule RI
 * takes it and no rule before it does. */
static int judge(struct req *q, int ri, const uint32_t *cred, uint32_t pers, int *shadow)
{
	struct op *m = main_op(q);
	struct event e;
	int own, j;

	*shadow = -1;
	if (!m)
		return NO;
	e = m->ev;
	memcpy(e.cred, cred, sizeof(e.cred));
	if (m->fsuid1000)
		e.cred[C_FSUID] = 1000;
	e.pers = pers;
	/* outcomes were foreseen for root */
	if ((cred[C_EUID] != 0 || cred[C_FSUID] != 0) && !m->need_nonroot)
		e.exit_known = 0;
	fmt(e.exe, sizeof(e.exe), "%s",
	    q->exe[0]		       ? q->exe :
	    q->arch == 32 && !q->int80 ? exe32 :
					 self_exe);
	m->ev = e;
	if (q->r->list == L_TASK)
		return YES;
	own = rule_match(&rules[ri], &e);
	for (j = 0; j < ri; j++)
		if (rules[j].list == L_EXIT && rule_match(&rules[j], &e) == YES) {
			*shadow = j;
			break;
		}
	return own;
}

static void add_flag(struct op *o, char c)
{
	char *f = strchr(strchr(o->spec, '|') + 1, '|') + 1;

	memmove(f + 1, f, strlen(f) + 1);
	*f = c;
	if (c == 'o')
		o->own = 1;
}

static void plan_rule(int ri)
{
	struct rule *r = &rules[ri];
	int first = nreqs, kind = K_SCRATCH, archs[2], na = 0, a, i, k, copy = 0;
	char target[PATH_MAX], exe[PATH_MAX] = "";
	const char *bad;
	int fires = 0, shadowed_by = -1;
	char nowhy[256] = "";

	fmt(target, sizeof(target), "%s", scratch);
	switch (r->list) {
	case L_EXCLUDE:
		cannot(r, "an exclude rule drops records, it makes none");
		return;
	case L_USER:
		cannot(r, "user messages carry no key");
		return;
	case L_FS:
		cannot(r, "a filesystem rule only drops names");
		return;
	case L_URING:
	case L_OTHER:
		cannot(r, "io_uring and other lists: not made by the witness");
		return;
	}
	if (r->arch < 0) {
		cannot(r, "arch= of another machine");
		return;
	}
	if ((bad = unsatisfiable(r)))
		cannot(r, "%s cannot be arranged", bad);
	if (r->never)
		cannot(r, "a never rule makes no record");
	if (r->exe[0]) {
		int i386_only = r->arch == 32;

		for (i = 0; i < r->nf; i++)
			if (!strcmp(r->f[i].name, "exe") && r->f[i].op == OP_EQ)
				copy = 1;
		if (copy) {
			copy = copy_of_witness(r->exe);
			if (!copy || (copy == 2 && !i386_only)) {
				cannot(r,
				       "exe=%s is not a copy of the witness (it runs no witness)",
				       r->exe);
				copy = 0;
			} else if (!c_realpath(r->exe, exe)) {
				fmt(exe, sizeof(exe), "%s", r->exe);
			}
		}
	}
	if (r->dir[0]) {
		kind = K_DIR;
		fmt(target, sizeof(target), "%s", r->dir);
		while (strlen(target) > 1 && target[strlen(target) - 1] == '/')
			target[strlen(target) - 1] = 0;
		if (!is_dir(target))
			cannot(r, "dir=%s is missing", target);
	} else if (r->path[0]) {
		struct stat st;

		fmt(target, sizeof(target), "%s", r->path);
		if (c_lstat(target, &st))
			cannot(r, "%s is missing", target);
		kind = S_ISDIR(st.st_mode) ? K_DIR : K_FILE;
	}
	if (r->arch)
		archs[na++] = r->arch;
	else
		archs[na++] = 64;
	if (!r->arch && kind != K_SCRATCH && r->all)
		archs[na++] = 32;
	for (a = 0; a < na; a++) {
		int arch = archs[a];

		if (r->list == L_TASK) {
			struct req *q = add_req(r, arch, "getpid", K_NONE, target);

			(void)q;
			continue;
		}
		if (!r->all) {
			for (i = 0; i < r->nsc; i++) {
				int nr = sc_nr(r->sc[i], arch);

				if (nr < 0) {
					note(r, "%s is not a syscall of b%d", r->sc[i], arch);
					continue;
				}
				add_req(r, arch,
					isdigit((unsigned char)r->sc[i][0]) ? sc_name(nr, arch) :
									      r->sc[i],
					kind, target);
			}
			continue;
		}
		unsigned letters = r->perm;

		if (r->perm_ne)
			letters = ~letters & 0xf;
		if (!letters && kind != K_SCRATCH)
			letters = 0xf;
		if (letters) {
			class_reqs(r, arch, kind, target, letters);
			if (r->perm_ne)
				add_req(r, arch, "getpid", K_NONE, target);
		} else {
			int before = nreqs;

			errno_reqs(r, arch, target);
			if (nreqs == before + 1 && reqs[before].want == WANT_ANY) {
				/* nothing asked: one syscall of no class, one open */
				add_req(r, arch, "getpid", K_NONE, target);
			}
		}
	}
	for (k = first; k < nreqs; k++) {
		struct req *q = &reqs[k];
		struct reqplan *p = &rplans[k];
		/* task states to try, the first that keeps earlier rules off:
		 * the loginuid, then uids of 1000 instead of root's */
		static const uint32_t auids[] = { 1000, UNSET, 0, 4242 };
		int v, best = -1, best_own = NO, need_nonroot = 0, unarranged;
		uint32_t cred[NCRED], pers;
		char why[256] = "";

		if (copy)
			fmt(q->exe, sizeof(q->exe), "%s", exe);
		p->copy = copy;
		if (recipe(q) < 0 || !q->nops) {
			note(r, "%s: %s", q->name, q->why);
			if (q->kind == K_NONE || q->kind == K_SCRATCH || q->nops)
				continue;
			/* fired all the same, without the path */
			q->kind = K_NONE;
			q->why[0] = 0;
			if (recipe(q) < 0 || !q->nops)
				continue;
		} else if (q->why[0]) {
			note(r, "%s: not arranged: %s", q->name, q->why);
		}
		/* an outcome the recipe could not make: the rule will not take it */
		unarranged = q->why[0] && q->want != WANT_ANY;
		for (i = 0; i < q->nops; i++) {
			if ((copy == 1 || q->int80) && q->arch == 32)
				add_flag(q->ops[i], '8');
			if (r->list == L_TASK)
				add_flag(q->ops[i], 'T'), add_flag(q->ops[i], 'o');
		}
		for (i = 0; i < q->nops; i++)
			need_nonroot |= q->ops[i]->need_nonroot;
		p->own = NO;
		p->shadow = -1;
		for (v = 0; v < 8; v++) {
			int own, sh = -1;

			if (solve_creds(r, auids[v % 4], need_nonroot || v >= 4, cred, &pers, why,
					sizeof(why)))
				continue;
			own = unarranged ? NO : judge(q, ri, cred, pers, &sh);
			if (best < 0 ||
			    (own != NO && sh < 0 && (best_own == NO || p->shadow >= 0))) {
				best = v;
				best_own = own;
				memcpy(p->cred, cred, sizeof(cred));
				p->pers = pers;
				p->own = own;
				p->shadow = sh;
			}
			if (own != NO && sh < 0)
				break;
		}
		if (best < 0) {
			cannot(r, "%s", why);
			q->nops = 0;
			continue;
		}
		/* the event as it will be, for the plan */
		judge(q, ri, p->cred, p->pers, &p->shadow);
		if (unarranged)
			p->own = NO;
		r->nops += q->nops;
		if (p->own != NO && p->shadow < 0)
			fires = 1;
		else if (p->own != NO && shadowed_by < 0)
			shadowed_by = p->shadow;
		else if (p->own == NO && !nowhy[0])
			fmt(nowhy, sizeof(nowhy), "%s", q->name);
	}
	if (!fires && !r->cannot) {
		if (nowhy[0] && shadowed_by < 0 && r->notes[0])
			cannot(r, "no syscall it names can be made to pass its fields (%s)",
			       r->notes);
		else if (shadowed_by >= 0)
			cannot(r,
			       "every syscall it takes is taken first by the rule of line %d (%s)",
			       rules[shadowed_by].line, rules[shadowed_by].key);
		else if (first == nreqs)
			cannot(r, "no syscall to make");
		else
			cannot(r, "no syscall the witness makes passes its fields (%s...)", nowhy);
	}
}

static int listed(char **list, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return 1;
	return 0;
}

/* Batches of harmless calls take the calls of several rules alike. */
static int same_batch(const struct batch *b, const struct req *q, const struct reqplan *p, int own)
{
	return b->arch == q->arch && b->int80 == q->int80 && !b->own && !own &&
	       !strcmp(b->exe, q->exe) && !memcmp(b->cred, p->cred, sizeof(b->cred)) &&
	       b->pers == p->pers && b->nops + q->nops <= 128 && b->nsetup + q->nsetup <= 128 &&
	       b->nclean + q->nclean <= 128;
}

static void make_batches(void)
{
	int k, i, own;

	for (k = 0; k < nreqs; k++) {
		struct req *q = &reqs[k];
		struct reqplan *p = &rplans[k];
		struct batch *b = nbatches ? &batches[nbatches - 1] : NULL;

		if (!q->nops)
			continue;
		own = 0;
		for (i = 0; i < q->nops; i++)
			own |= q->ops[i]->own;
		if (!b || !same_batch(b, q, p, own)) {
			if (nbatches == maxbatches) {
				maxbatches = maxbatches ? maxbatches * 2 : 256;
				batches = realloc(batches, maxbatches * sizeof(*batches));
				if (!batches)
					fatal("out of memory");
			}
			b = &batches[nbatches++];
			memset(b, 0, sizeof(*b));
			b->rule = q->r - rules;
			b->arch = q->arch;
			fmt(b->exe, sizeof(b->exe), "%s", q->exe);
			memcpy(b->cred, p->cred, sizeof(b->cred));
			b->pers = p->pers;
			b->own = own;
			b->int80 = q->int80;
		}
		for (i = 0; i < q->nops; i++)
			b->ops[b->nops++] = q->ops[i];
		for (i = 0; i < q->nsetup; i++)
			if (!listed(b->setup, b->nsetup, q->setup[i]))
				b->setup[b->nsetup++] = q->setup[i];
		for (i = 0; i < q->nclean; i++)
			if (!listed(b->clean, b->nclean, q->clean[i]))
				b->clean[b->nclean++] = q->clean[i];
	}
}

static void plan(void)
{
	int i;

	classes_init();
	for (i = 0; i < nrules; i++) {
		if (nreqs + 1024 > maxreqs) {
			maxreqs = nreqs + 8192;
			reqs = realloc(reqs, maxreqs * sizeof(*reqs));
			rplans = realloc(rplans, maxreqs * sizeof(*rplans));
			if (!reqs || !rplans)
				fatal("out of memory");
		}
		plan_rule(i);
	}
	make_batches();
}

/* ---------------------------------------------------------------- run --- */
/*
 * The plan is saved as text (--save) and run from it (--run), so that the
 * run makes no syscall of its own but the batches': planning reads the
 * paths the rules name (realpath reads links), which the rules would
 * record. One batch:
 *   B LINE ARCH INT80 OWN CREDS EXE     (EXE "-": the witness itself)
 *   S f PATH | S d PATH                 made before the child runs
 *   O SPEC                              the calls, in order
 *   C PATH                              removed after it
 */

/* The runner's own loginuid, which the batches inherit: the one most
 * rules ask for (set once, not in every batch). */
#define RUN_AUID 1000

static void creds_text(const uint32_t *cred, uint32_t pers, int timer_ms, char *buf, size_t len)
{
	long v[NCRED];
	int i, root = 1;

	for (i = C_UID; i < NCRED; i++)
		root &= cred[i] == 0;
	for (i = 0; i < NCRED; i++)
		v[i] = i == C_AUID ? (cred[i] == RUN_AUID ? -2 : (long)cred[i]) :
		       root	   ? -2 :
				     (long)cred[i];
	fmt(buf, len, "%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%ld,%d", v[0], v[1], v[2], v[3], v[4],
	    v[5], v[6], v[7], v[8], pers ? (long)pers : -2L, timer_ms);
}

static void save_batches(FILE *out)
{
	int i, k;

	for (i = 0; i < nbatches; i++) {
		const struct batch *b = &batches[i];
		char cr[256];

		creds_text(b->cred, b->pers, b->own ? 500 : 20000, cr, sizeof(cr));
		fprintf(out, "B %d %d %d %d %s %s\n", rules[b->rule].line, b->arch, b->int80,
			b->own, cr, b->exe[0] ? b->exe : "-");
		for (k = 0; k < b->nsetup; k++)
			fprintf(out, "S %s\n", b->setup[k]);
		for (k = 0; k < b->nops; k++)
			fprintf(out, "O %s\n", b->ops[k]->spec);
		for (k = 0; k < b->nclean; k++)
			fprintf(out, "C %s\n", b->clean[k]);
	}
}

struct saved {
	int line, arch, int80, own;
	char creds[256], exe[PLEN];
	int nops, nsetup, nclean;
	char *ops[128], *setup[128], *clean[128];
};

static int internal_errors, run_batches, run_ops;
static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static void run_saved_batch(struct saved *b)
{
	char *argv[4 + 128];
	struct stat st;
	pid_t pid;
	int i, status = 0;

	for (i = 0; i < b->nsetup; i++) {
		const char *p = b->setup[i] + 2;

		if (b->setup[i][0] == 'd') {
			mkdir(p, 0755);
		} else {
			int fd = open(p, O_CREAT | O_WRONLY | O_EXCL, 0644);

			if (fd >= 0)
				close(fd);
		}
	}
	pid = fork();
	if (pid < 0)
		fatal("fork: %s", strerror(errno));
	if (!pid) {
		int n = 0;

		if (strcmp(b->exe, "-") || (b->arch == 32 && !b->int80)) {
			const char *exe = strcmp(b->exe, "-") ? b->exe : exe32;

			argv[n++] = (char *)exe;
			argv[n++] = "--do";
			argv[n++] = b->creds;
			for (i = 0; i < b->nops; i++)
				argv[n++] = b->ops[i];
			argv[n] = NULL;
			execv(exe, argv);
			fprintf(stderr, "%s: %s: %s\n", prog, exe, strerror(errno));
			_exit(3);
		}
		argv[n++] = b->creds;
		for (i = 0; i < b->nops; i++)
			argv[n++] = b->ops[i];
		_exit(do_batch(n, argv));
	}
	/* a hang is an internal error: the child is killed after 60 s (an
	 * alarm, not a polling loop: the runner's own calls are counted) */
	timed_out = 0;
	alarm(60);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		if (timed_out) {
			kill(pid, SIGKILL);
			fprintf(stderr, "%s: batch of line %d hung: %s\n", prog, b->line,
				b->ops[0]);
			internal_errors++;
		}
	alarm(0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		fprintf(stderr, "%s: batch of line %d failed to start\n", prog, b->line);
		internal_errors++;
	} else if (!b->own && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
		fprintf(stderr, "%s: batch of line %d ended with status 0x%x: %s\n", prog, b->line,
			status, b->ops[0]);
		internal_errors++;
	}
	for (i = b->nclean - 1; i >= 0; i--)
		if (!lstat(b->clean[i], &st))
			S_ISDIR(st.st_mode) ? rmdir(b->clean[i]) : unlink(b->clean[i]);
	run_batches++;
	run_ops += b->nops;
}

static void free_saved(struct saved *b)
{
	int i;

	for (i = 0; i < b->nops; i++)
		free(b->ops[i]);
	for (i = 0; i < b->nsetup; i++)
		free(b->setup[i]);
	for (i = 0; i < b->nclean; i++)
		free(b->clean[i]);
	memset(b, 0, sizeof(*b));
}

static int run_saved(FILE *in)
{
	static struct saved b;
	struct sigaction sa = { .sa_handler = on_alarm };
	char line[4096];
	int have = 0;
	FILE *f;

	sigaction(SIGALRM, &sa, NULL);
	f = fopen("/proc/self/loginuid", "w");
	if (!f || fprintf(f, "%u", RUN_AUID) < 0 || fclose(f))
		fatal("setting the loginuid: %s", strerror(errno));
	while (fgets(line, sizeof(line), in)) {
		char *v = line + 2;

		line[strcspn(line, "\n")] = 0;
		if (line[0] == 'B') {
			if (have)
				run_saved_batch(&b);
			free_saved(&b);
			if (sscanf(v, "%d %d %d %d %255s %1023s", &b.line, &b.arch, &b.int80,
				   &b.own, b.creds, b.exe) != 6)
				fatal("bad batch line: %s", line);
			have = 1;
		} else if (have && line[0] == 'O' && b.nops < 128) {
			b.ops[b.nops++] = xstrdup(v);
		} else if (have && line[0] == 'S' && b.nsetup < 128) {
			b.setup[b.nsetup++] = xstrdup(v);
		} else if (have && line[0] == 'C' && b.nclean < 128) {
			b.clean[b.nclean++] = xstrdup(v);
		} else {
			fatal("bad plan line: %s", line);
		}
	}
	if (have)
		run_saved_batch(&b);
	free_saved(&b);
	fprintf(stderr, "%s: %d batches, %d syscalls, %d internal errors\n", prog, run_batches,
		run_ops, internal_errors);
	return internal_errors ? 1 : 0;
}

/* --------------------------------------------------------------- plan --- */

static void print_plan(void)
{
	int i, k, ncannot = 0;

	for (i = 0; i < nrules; i++) {
		struct rule *r = &rules[i];

		printf("RULE %s line %d, %d syscalls: %s\n", r->key[0] ? r->key : "-", r->line,
		       r->nops, r->text);
		for (k = 0; k < nreqs; k++) {
			struct req *q = &reqs[k];
			struct reqplan *p = &rplans[k];
			int j;

			if (q->r != r)
				continue;
			for (j = 0; j < q->nops; j++) {
				struct op *o = q->ops[j];

				printf("  b%d auid=%d uid=%u,%u,%u,%u gid=%u%s%s: %s", q->arch,
				       (int)p->cred[C_AUID], p->cred[C_UID], p->cred[C_EUID],
				       p->cred[C_SUID], p->cred[C_FSUID], p->cred[C_GID],
				       q->exe[0] ? " as " : "", q->exe, o->spec);
				if (o->main && o->ev.exit_known)
					printf(" -> %d", o->ev.exitv);
				if (o->main)
					printf(" [%s%s%s]",
					       p->own == YES   ? "fires" :
					       p->own == MAYBE ? "may fire" :
								 "does not fire",
					       p->shadow >= 0 ? ", taken first by line " : "",
					       p->shadow >= 0 ? rules[p->shadow].text : "");
				printf("\n");
			}
		}
		if (r->notes[0])
			printf("  note: %s\n", r->notes);
		if (r->cannot) {
			printf("CANNOT %s line %d: %s\n", r->key[0] ? r->key : "-", r->line,
			       r->why);
			ncannot++;
		}
	}
	printf("SUMMARY %d rules, %d can fire, %d cannot fire\n", nrules, nrules - ncannot,
	       ncannot);
}

/* The run says which rules it cannot fire, as the plan does. */
static void print_cannot(void)
{
	int i, n = 0;

	for (i = 0; i < nrules; i++)
		if (rules[i].cannot) {
			printf("CANNOT %s line %d: %s\n", rules[i].key[0] ? rules[i].key : "-",
			       rules[i].line, rules[i].why);
			n++;
		}
	printf("SUMMARY %d rules, %d can fire, %d cannot fire\n", nrules, nrules - n, n);
	fflush(stdout);
}

/* ------------------------------------------------------------ prepare --- */

static void mkdirs(const char *path, mode_t mode)
{
	char p[PATH_MAX];
	size_t i;

	fmt(p, sizeof(p), "%s", path);
	for (i = 1; p[i]; i++)
		if (p[i] == '/') {
			p[i] = 0;
			mkdir(p, 0755);
			p[i] = '/';
		}
	mkdir(p, mode);
}

static void parent_dirs(const char *path)
{
	char d[PATH_MAX];
	const char *s = strrchr(path, '/');

	if (!s || s == path)
		return;
	fmt(d, sizeof(d), "%.*s", (int)(s - path), path);
	mkdirs(d, 0755);
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_CREAT | O_WRONLY | O_TRUNC, mode);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	close(in);
	close(out);
	return n < 0 ? -1 : 0;
}

static void set_flags(const char *path, int flags)
{
	int fd = open(path, O_RDONLY), f;

	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &f) == 0) {
		f |= flags;
		if (ioctl(fd, FS_IOC_SETFLAGS, &f))
			fprintf(stderr,
				"%s: %s: no attribute flags here (%s): -EPERM recipes fail\n", prog,
				path, strerror(errno));
	}
	close(fd);
}

static int prepare(void)
{
	char p[PATH_MAX];
	int i, fd, made = 0;
	struct stat st;

	/* the scratch tree: EACCES behind a 0700 directory, EPERM from
	 * immutable and append-only files, a program to run */
	mkdirs(scratch, 0755);
	sp(p, sizeof(p), "private");
	mkdir(p, 0700);
	sp(p, sizeof(p), "private/f");
	close(open(p, O_CREAT | O_WRONLY, 0600));
	sp(p, sizeof(p), "private/d");
	mkdir(p, 0700);
	sp(p, sizeof(p), "emptydir");
	mkdir(p, 0755);
	sp(p, sizeof(p), "imm");
	if (lstat(p, &st)) {
		close(open(p, O_CREAT | O_WRONLY, 0644));
		set_flags(p, FS_IMMUTABLE_FL);
	}
	sp(p, sizeof(p), "immdir");
	if (lstat(p, &st)) {
		mkdir(p, 0755);
		set_flags(p, FS_IMMUTABLE_FL);
	}
	sp(p, sizeof(p), "app");
	if (lstat(p, &st)) {
		fd = open(p, O_CREAT | O_WRONLY, 0644);
		if (fd >= 0 && write(fd, "w\n", 2) != 2)
			fprintf(stderr, "%s: %s: %s\n", prog, p, strerror(errno));
		close(fd);
		set_flags(p, FS_APPEND_FL);
	}
	sp(p, sizeof(p), "true");
	if (lstat(p, &st) && copy_file(self_exe, p, 0755))
		fprintf(stderr, "%s: %s: %s\n", prog, p, strerror(errno));
	/* what the rules name */
	for (i = 0; i < nrules; i++) {
		struct rule *r = &rules[i];

		if (r->dir[0] && lstat(r->dir, &st)) {
			mkdirs(r->dir, 0755);
			made++;
		}
		if (r->path[0] && lstat(r->path, &st)) {
			parent_dirs(r->path);
			close(open(r->path, O_CREAT | O_WRONLY, 0644));
			made++;
		}
		if (r->exe[0] && lstat(r->exe, &st)) {
			int j, i386_only = 1;

			for (j = 0; j < nrules; j++)
				if (!strcmp(rules[j].exe, r->exe) && rules[j].arch != 32)
					i386_only = 0;
			parent_dirs(r->exe);
			if (copy_file(i386_only ? exe32 : self_exe, r->exe, 0755))
				fprintf(stderr, "%s: %s: %s\n", prog, r->exe, strerror(errno));
			made++;
		}
	}
	/* loopback up, for connect() to succeed */
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd >= 0) {
		struct ifreq ifr = { 0 };

		fmt(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
		if (!ioctl(fd, SIOCGIFFLAGS, &ifr) && !(ifr.ifr_flags & IFF_UP)) {
			ifr.ifr_flags |= IFF_UP;
			ioctl(fd, SIOCSIFFLAGS, &ifr);
		}
		close(fd);
	}
	fprintf(stderr, "%s: prepared %s and %d paths the rules name\n", prog, scratch, made);
	return 0;
}

/* ------------------------------------------------------------ records ---
 * --reduce RAW: audit_records' lines ("type=N audit(T:SERIAL): ...") as
 * guest-records.sh reduces them (type, arch, syscall, success, key, comm,
 * exe, name, nametype, cwd, proctitle), each behind the key of its event's
 * SYSCALL record ("key=none" when it has none), counted: "COUNT KEY
 * type=N ...", sorted. CONFIG_CHANGE records (the listeners' own) are left
 * out. The suite's awk did this; under TCG it took as long as the run.
 */
struct rec {
	char *text;
	unsigned long serial;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int reduce(const char *path)
{
	static const char *const keep[] = {
		"arch=", "syscall=", "success=",  "key=", "comm=",
		"exe=",	 "name=",    "nametype=", "cwd=", "proctitle="
	};
	FILE *in = fopen(path, "r");
	struct rec *recs = NULL;
	size_t n = 0, cap = 0, i, j;
	char *line = NULL, **out;
	size_t len = 0;
	/* serial -> the key of its SYSCALL record: open addressing */
	struct skey {
		unsigned long serial;
		char *key;
	} *keys = calloc(1 << 20, sizeof(*keys));
	const size_t kmask = (1 << 20) - 1;

	if (!in)
		fatal("%s: %s", path, strerror(errno));
	if (!keys)
		fatal("out of memory");
	while (getline(&line, &len, in) > 0) {
		char *tok, *save = NULL, red[8192], *a;
		unsigned long serial = 0;
		int syscall_rec;
		size_t r;

		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "type=1305 ", 10))
			continue;
		a = strstr(line, " audit(");
		if (a && (a = strchr(a, ':')))
			serial = strtoul(a + 1, NULL, 10);
		syscall_rec = !strncmp(line, "type=1300 ", 10);
		r = 0;
		for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			size_t k;
			int take = !strncmp(tok, "type=", 5) && !r;

			for (k = 0; k < NCLS(keep) && !take; k++)
				take = !strncmp(tok, keep[k], strlen(keep[k]));
			if (take)
				r += snprintf(red + r, sizeof(red) - r < 2 ? 0 : sizeof(red) - r,
					      "%s%s", r ? " " : "", tok);
			if (r >= sizeof(red) - 1)
				break;
			if (syscall_rec && !strncmp(tok, "key=", 4)) {
				size_t h = (serial * 2654435761u) & kmask;

				while (keys[h].key && keys[h].serial != serial)
					h = (h + 1) & kmask;
				free(keys[h].key);
				keys[h].serial = serial;
				keys[h].key = xstrdup(tok);
			}
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			recs = realloc(recs, cap * sizeof(*recs));
			if (!recs)
				fatal("out of memory");
		}
		recs[n].text = xstrdup(red);
		recs[n++].serial = serial;
	}
	fclose(in);
	free(line);
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		fatal("out of memory");
	for (i = 0; i < n; i++) {
		const char *key = "key=none";
		char buf[8448];
		size_t h = (recs[i].serial * 2654435761u) & kmask;

		/* a record's event is its serial */
		while (keys[h].key && keys[h].serial != recs[i].serial)
			h = (h + 1) & kmask;
		if (keys[h].key)
			key = keys[h].key;
		fmt(buf, sizeof(buf), "%s %s", key, recs[i].text);
		out[i] = xstrdup(buf);
	}
	qsort(out, n, sizeof(*out), cmp_str);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(out[i], out[j]); j++)
			;
		printf("%zu %s\n", j - i, out[i]);
	}
	return 0;
}

/* --------------------------------------------------------------- main --- */

static int usage(void)
{
	fprintf(stderr,
		"usage: %s [-d SCRATCH] [--plan | --prepare | --save PLAN] RULES\n"
		"       %s --run PLAN\n"
		"       %s --do CREDS OP... (one batch)\n",
		prog, prog, prog);
	return 2;
}

int main(int argc, char **argv)
{
	int mode = 0; /* 0 plan and run, 1 plan, 2 prepare, 3 save, 4 run */
	const char *save = NULL;
	struct utsname u;
	char *s;
	FILE *f;

	if (argc >= 2 && !strcmp(argv[1], "--true"))
		return 0;
	if (argc >= 3 && !strcmp(argv[1], "--do"))
		_exit(do_batch(argc - 2, argv + 2));
	if (argc == 3 && !strcmp(argv[1], "--reduce"))
		return reduce(argv[2]);
	for (argv++, argc--; argc > 1; argv++, argc--) {
		if (!strcmp(argv[0], "--plan"))
			mode = 1;
		else if (!strcmp(argv[0], "--prepare"))
			mode = 2;
		else if (!strcmp(argv[0], "--save") && argc > 2)
			mode = 3, save = *++argv, argc--;
		else if (!strcmp(argv[0], "--run"))
			mode = 4;
		else if (!strcmp(argv[0], "-d") && argc > 2)
			scratch = *++argv, argc--;
		else
			return usage();
	}
	if (argc != 1)
		return usage();
	if (!realpath("/proc/self/exe", self_exe))
		fatal("/proc/self/exe: %s", strerror(errno));
	fmt(exe32, sizeof(exe32), "%s", self_exe);
	s = strrchr(exe32, '/');
	fmt(s + 1, sizeof(exe32) - (s + 1 - exe32), "witness32");
	if ((mode == 0 || mode == 4) && access(exe32, X_OK))
		fatal("%s: %s (the i386 build runs the b32 rules)", exe32, strerror(errno));
	if (mode == 4) {
		f = fopen(argv[0], "r");
		if (!f)
			fatal("%s: %s", argv[0], strerror(errno));
		return run_saved(f);
	}
	uname(&u);
	kver = atoi(u.release) * 100 +
	       atoi(strchr(u.release, '.') ? strchr(u.release, '.') + 1 : "0");
	f = fopen("/proc/self/loginuid", "r");
	if (f) {
		unsigned long v;

		if (fscanf(f, "%lu", &v) == 1)
			self_auid = v;
		fclose(f);
	}
	read_rules(argv[0]);
	if (mode == 2)
		return prepare();
	plan();
	if (mode == 1) {
		print_plan();
		return 0;
	}
	print_cannot();
	if (mode == 3) {
		f = fopen(save, "w");
		if (!f)
			fatal("%s: %s", save, strerror(errno));
		save_batches(f);
		if (fclose(f))
			fatal("%s: %s", save, strerror(errno));
		return 0;
	}
	f = tmpfile();
	if (!f)
		fatal("tmpfile: %s", strerror(errno));
	save_batches(f);
	rewind(f);
	return run_saved(f);
}
#endif /* WITNESS32 */
