// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads for the guest corpus check (tests/vm/guest-corpus.sh): each
 * subcommand makes a fixed, known number of syscalls of its kind, so that
 * separate runs under different attach modes must count the same walks, and
 * the audit records of a matching rule can be counted against them. Built
 * twice: 64-bit (`corpus`) and i386 (`corpus32`, gcc -m32 -static).
 *
 * Waiting is done with syscalls whose number of calls does not depend on
 * timing: one wait4 per child, one FUTEX_WAIT per thread (it returns at once
 * when the thread is gone already), one read per byte expected.
 *
 *   nop                        nothing but the C start-up and exit_group
 *   getpid N                   N getpid (libc's syscall())
 *   int80 N                    N getpid through int 0x80 (compat entry)
 *   signals N                  N kill of itself with a plain handler
 *   siginfo N                  the same with SA_SIGINFO
 *   exec N                     a chain of N execve of itself
 *   execveat N                 a chain of N execveat(fd, "", AT_EMPTY_PATH)
 *   xexec OTHER [BACK]         execve OTHER (the other arch's build) with
 *                              "xexec BACK" if BACK is given, else "nop"
 *   fork N                     N fork() (clone) and N raw fork, children
 *                              make one getpid and exit_group
 *   rawclone N                 N raw clone(SIGCHLD), children as above
 *   vfork N                    N vfork, children exit_group at once
 *   clone3 N                   N clone3 (64-bit only), children as above
 *   threads N M                N clone threads, M getpid each, SYS_exit
 *   exitgroup-live N           N threads write a byte each, then spin in user
 *                              space; exit_group kills them there
 *   seccomp N                  N getppid denied by a seccomp filter (errno)
 *   seccomp-kill N             N threads each install a filter that kills the
 *                              thread at getppid, make one getpid, then a
 *                              getppid: killed without a signal (do_exit)
 *   sigkill N                  N children each make one getpid and write a
 *                              byte, then spin in user space until SIGKILL
 *   ptrace N                   a PTRACE_SYSCALL-stepped child: N getpid
 *   ptrace-skip N              the tracer skips the child's N getppid
 *                              (orig_rax = -1 at the entry stop)
 *   sleep READY1 READY2        ppoll until SIGUSR1, then rt_sigsuspend until
 *                              SIGUSR1; READYn (holding the pid) is created
 *                              just before each, for the rule changes
 *   perm DIR EXE               every perm class on files in DIR, then
 *                              execve EXE nop
 *   filework DIR READY         writes READY (holding the pid), waits in
 *                              rt_sigsuspend for SIGUSR1, then creates,
 *                              writes, chmods, chowns, renames, stats and
 *                              unlinks a file in DIR, with a getpid and a
 *                              1 ms nanosleep, over and over until a
 *                              second SIGUSR1; prints the rounds. Not a
 *                              fixed count: for counters run side by side
 *                              (rule reloads)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <sys/xattr.h>

/* Numbers glibc 2.36's headers lack; one table for both arches since 424. */
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif
#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif
#define I386_NR_GETPID 20

static const char *prog = "corpus";
static char *self_argv0;

static void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

static long count(const char *s)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < 0) {
		fprintf(stderr, "%s: bad count '%s'\n", prog, s);
		exit(2);
	}
	return n;
}

static void getpids(long n)
{
	/* syscall(), not getpid(): libc must not answer from a cache. */
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid);
}

static __attribute__((noreturn)) void exit_group(int status)
{
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

static int int80_getpid(long n)
{
	for (long i = 0; i < n; i++) {
		long ret = I386_NR_GETPID;

		/*
		 * The compat entry (entry_INT80_compat on a 64-bit kernel) runs
		 * the i386 table and audits with AUDIT_ARCH_I386, even in a
		 * 64-bit process; int 0x80 clobbers r8-r11 there.
		 */
#ifdef __x86_64__
		__asm__ volatile("int $0x80" : "+a"(ret) : : "memory", "r8", "r9", "r10", "r11");
#else
		__asm__ volatile("int $0x80" : "+a"(ret) : : "memory");
#endif
		if (ret != getpid()) {
			fprintf(stderr, "%s: int 0x80 getpid returned %ld\n", prog, ret);
			return 1;
		}
	}
	return 0;
}

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	(void)sig;
	caught++;
}

static void on_siginfo(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	caught++;
}

/*
 * Each delivery ends in rt_sigreturn (i386: sigreturn for a plain handler),
 * whose restore_sigcontext() sets orig_ax to -1 before the syscall returns.
 */
static int signals(long n, int info)
{
	struct sigaction sa = { 0 };
	pid_t pid = getpid();

	if (info) {
		sa.sa_sigaction = on_siginfo;
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = on_signal;
	}
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	for (long i = 0; i < n; i++)
		syscall(SYS_kill, pid, SIGUSR1);
	if (caught != n) {
		fprintf(stderr, "%s: %d signals caught, expected %ld\n", prog, (int)caught, n);
		return 1;
	}
	return 0;
}

/* The chains exec /proc/self/exe, so each step runs this same build. */
static int exec_chain(long n, int at)
{
	char next[24];
	char *argv[] = { self_argv0, at ? "execveat" : "exec", next, NULL };
	char *envp[] = { NULL };

	if (n == 0)
		return 0;
	snprintf(next, sizeof(next), "%ld", n - 1);
	if (at) {
		int fd = open("/proc/self/exe", O_PATH | O_CLOEXEC);

		if (fd < 0)
			die("open /proc/self/exe");
		syscall(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH);
		die("execveat");
	}
	execve("/proc/self/exe", argv, envp);
	die("execve");
	return 1;
}

static int xexec(const char *other, const char *back)
{
	char *argv[] = { self_argv0, back ? "xexec" : "nop", (char *)back, NULL };
	char *envp[] = { NULL };

	execve(other, argv, envp);
	die(other);
	return 1;
}

static int reap(pid_t pid)
{
	int status;

	if (pid < 0)
		die("fork");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "%s: child %d ended with status 0x%x\n", prog, pid, status);
		return 1;
	}
	return 0;
}

static int child_body(void)
{
	syscall(SYS_getpid);
	exit_group(0);
}

static int forks(long n)
{
	int bad = 0;
	pid_t pid;

	for (long i = 0; i < n; i++) {
		pid = fork();
		if (pid == 0)
			child_body();
		bad |= reap(pid);
		pid = syscall(SYS_fork);
		if (pid == 0)
			child_body();
		bad |= reap(pid);
	}
	return bad;
}

static int rawclones(long n)
{
	int bad = 0;

	for (long i = 0; i < n; i++) {
		/* No new stack: the child runs on a copy of ours, like fork. */
		pid_t pid = syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);

		if (pid == 0)
			child_body();
		bad |= reap(pid);
	}
	return bad;
}

/* The child borrows our stack until it exits: one vfork per call frame. */
static __attribute__((noinline)) int vfork_once(void)
{
	pid_t pid = vfork();

	if (pid == 0)
		exit_group(0);
	return reap(pid);
}

static int vforks(long n)
{
	int bad = 0;

	for (long i = 0; i < n; i++)
		bad |= vfork_once();
	return bad;
}

static int clone3s(long n)
{
#ifdef SYS_clone3
	struct clone_args args = { .exit_signal = SIGCHLD };
	int bad = 0;

	for (long i = 0; i < n; i++) {
		pid_t pid = syscall(SYS_clone3, &args, sizeof(args));

		if (pid == 0)
			child_body();
		bad |= reap(pid);
	}
	return bad;
#else
	(void)n;
	fprintf(stderr, "%s: clone3 is not built for this arch\n", prog);
	return 2;
#endif
}

#define STACK_SIZE (64 * 1024)
/*
 * i386's futex (240) takes a 32-bit timespec and exists only with
 * CONFIG_COMPAT_32BIT_TIME, which kernels may leave out; futex_time64
 * (422) is always there, as on 64-bit kernels futex is.
 */
#ifdef SYS_futex_time64
#define SYS_FUTEX_WAIT SYS_futex_time64
#else
#define SYS_FUTEX_WAIT SYS_futex
#endif
#define MAX_THREADS 64

struct thread {
	long getpids;
	int pipe_w;
	/* Cleared and woken by the kernel when the thread exits (CLONE_CHILD_CLEARTID). */
	volatile pid_t tid;
};

/*
 * Threads share the parent's TLS (no CLONE_SETTLS), so they call nothing
 * that touches errno or other thread state: raw syscalls only. glibc's
 * clone() ends the thread with SYS_exit when the function returns.
 */
static int thread_getpids(void *arg)
{
	struct thread *t = arg;

	for (long i = 0; i < t->getpids; i++)
		syscall(SYS_getpid);
	return 0;
}

static int thread_spin(void *arg)
{
	struct thread *t = arg;
	char byte = 1;

	syscall(SYS_write, t->pipe_w, &byte, 1);
	for (;;)
		__asm__ volatile("" ::: "memory");
	return 0;
}

static int start_threads(struct thread *t, long n, int (*fn)(void *))
{
	const int flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			  CLONE_SYSVSEM | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;

	if (n > MAX_THREADS) {
		fprintf(stderr, "%s: at most %d threads\n", prog, MAX_THREADS);
		return 2;
	}
	for (long i = 0; i < n; i++) {
		char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

		if (stack == MAP_FAILED)
			die("mmap");
		if (clone(fn, stack + STACK_SIZE, flags, &t[i], &t[i].tid, NULL, &t[i].tid) < 0)
			die("clone");
	}
	return 0;
}

/* Until each thread has ended: one FUTEX_WAIT per thread (EAGAIN at once if it has gone). */
static int wait_threads(struct thread *t, long n)
{
	for (long i = 0; i < n; i++) {
		pid_t tid = t[i].tid;

		syscall(SYS_FUTEX_WAIT, &t[i].tid, FUTEX_WAIT, tid ? tid : 1, NULL, NULL, 0);
		if (t[i].tid) {
			fprintf(stderr, "%s: thread %ld still running after its futex wait\n", prog,
				i);
			return 1;
		}
	}
	return 0;
}

static int threads(long n, long m)
{
	static struct thread t[MAX_THREADS];
	int err;

	for (long i = 0; i < n && i < MAX_THREADS; i++)
		t[i].getpids = m;
	err = start_threads(t, n, thread_getpids);
	if (err)
		return err;
	if (wait_threads(t, n))
		return 1;
	exit_group(0);
}

static int exitgroup_live(long n)
{
	static struct thread t[MAX_THREADS];
	int p[2], err;
	char byte;

	if (pipe(p))
		die("pipe");
	for (long i = 0; i < n && i < MAX_THREADS; i++)
		t[i].pipe_w = p[1];
	err = start_threads(t, n, thread_spin);
	if (err)
		return err;
	/* Every thread has made its last syscall; exit_group finds them in user space. */
	for (long i = 0; i < n; i++)
		if (read(p[0], &byte, 1) != 1)
			die("read");
	exit_group(0);
}

static int seccomp_denied(long n)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fprog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("PR_SET_NO_NEW_PRIVS");
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog))
		die("seccomp");
	/*
	 * __secure_computing() refuses each one in syscall_trace_enter(), before
	 * audit's entry hook and the sys_enter tracepoint: audit never sees
	 * them, but they still reach the sys_exit tracepoint.
	 */
	for (long i = 0; i < n; i++) {
		if (syscall(SYS_getppid) != -1 || errno != EPERM) {
			fprintf(stderr, "%s: getppid was not denied by seccomp\n", prog);
			return 1;
		}
	}
	return 0;
}

/*
 * SECCOMP_RET_KILL_THREAD ends a thread that is not the last one with
 * do_exit() from the syscall entry, before audit's entry hook and with no
 * signal: the last syscall it made (getpid) is still to be counted then.
 */
static int thread_seccomp_killed(void *arg)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_THREAD),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fprog = { .len = sizeof(filter) / sizeof(filter[0]), .filter = filter };

	(void)arg;
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog))
		return 1;
	syscall(SYS_getpid);
	syscall(SYS_getppid);
	return 1;
}

static int seccomp_killed(long n)
{
	static struct thread t[MAX_THREADS];
	int err;

	/* Inherited by the threads: seccomp() asks for it from an unprivileged caller. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		die("PR_SET_NO_NEW_PRIVS");
	err = start_threads(t, n, thread_seccomp_killed);
	if (err)
		return err;
	return wait_threads(t, n);
}

static int sigkilled(long n)
{
	int p[2], bad = 0, status;
	char byte = 1;

	if (pipe(p))
		die("pipe");
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0) {
			syscall(SYS_getpid);
			syscall(SYS_write, p[1], &byte, 1);
			for (;;)
				__asm__ volatile("" ::: "memory");
		}
		/* The child has made its last syscall: SIGKILL finds it in user space. */
		if (read(p[0], &byte, 1) != 1)
			die("read");
		if (kill(pid, SIGKILL))
			die("kill");
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
			fprintf(stderr, "%s: child %d ended with status 0x%x\n", prog, pid, status);
			bad = 1;
		}
	}
	return bad;
}

static int traced(long n, int skip)
{
	int status, stops = 0;
	pid_t pid;

#ifndef __x86_64__
	if (skip) {
		fprintf(stderr, "%s: ptrace-skip is built for x86_64 only\n", prog);
		return 2;
	}
#endif
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			die("PTRACE_TRACEME");
		/* Not raise(): glibc's makes a getpid of its own. */
		syscall(SYS_tkill, syscall(SYS_gettid), SIGSTOP);
		for (long i = 0; i < n; i++) {
			if (skip) {
				if (syscall(SYS_getppid) != -1 || errno != ENOSYS)
					exit_group(3);
			} else {
				syscall(SYS_getpid);
			}
		}
		exit_group(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		die("waitpid (first stop)");
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, NULL, NULL))
			die("PTRACE_SYSCALL");
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (WIFEXITED(status))
			break;
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
			fprintf(stderr, "%s: traced child: unexpected status 0x%x\n", prog, status);
			return 1;
		}
		stops++;
#ifdef __x86_64__
		if (skip) {
			struct user_regs_struct regs;

			/*
			 * Even stops are syscall entries. A tracer that sets orig_rax
			 * to -1 skips the syscall; syscall_trace_enter() then hands
			 * -1 to audit's entry hook, and the exit walk runs for it.
			 */
			if (ptrace(PTRACE_GETREGS, pid, NULL, &regs))
				die("PTRACE_GETREGS");
			if (stops % 2 == 1 && regs.orig_rax == SYS_getppid) {
				regs.orig_rax = -1;
				if (ptrace(PTRACE_SETREGS, pid, NULL, &regs))
					die("PTRACE_SETREGS");
			}
		}
#endif
	}
	if (WEXITSTATUS(status)) {
		fprintf(stderr, "%s: traced child exited with %d\n", prog, WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

/* Written under a temporary name first: the reader never sees half a pid. */
static void ready(const char *path)
{
	char buf[24], tmp[4096];
	int fd, len;

	len = snprintf(buf, sizeof(buf), "%d\n", getpid());
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != len || close(fd))
		die(tmp);
	if (rename(tmp, path))
		die(path);
}

/*
 * Catches SIGUSR1, blocked until a wait unblocks it atomically with going
 * to sleep: *wait_mask is the mask to wait with (the old one, SIGUSR1 out).
 */
static void catch_usr1(sigset_t *wait_mask)
{
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	if (sigaction(SIGUSR1, &sa, NULL) || sigprocmask(SIG_BLOCK, &block, wait_mask))
		die("signals");
	sigdelset(wait_mask, SIGUSR1);
}

/*
 * Both waits unblock SIGUSR1 atomically with going to sleep, so a signal
 * sent as soon as READYn exists can never arrive before the syscall.
 */
static int sleep_across(const char *ready1, const char *ready2)
{
	sigset_t wait_mask;

	catch_usr1(&wait_mask);
	ready(ready1);
	if (ppoll(NULL, 0, NULL, &wait_mask) != -1 || errno != EINTR)
		die("ppoll");
	ready(ready2);
	syscall(SYS_rt_sigsuspend, &wait_mask, _NSIG / 8);
	if (caught != 2) {
		fprintf(stderr, "%s: %d signals caught, expected 2\n", prog, (int)caught);
		return 1;
	}
	return 0;
}

/*
 * One syscall of each kind audit_match_perm() tells apart: the opens, the
 * read, write and change-attribute classes (asm-generic/audit_*.h) and
 * execve. Results are not checked: a syscall this kernel or file system
 * refuses (ENOSYS, EOPNOTSUPP) is still entered and walked.
 */
static int perm(const char *dir, const char *exe)
{
	char f[4096], l[4096], h[4096], d1[4096], d2[4096], buf[64];
	struct open_how how = { .flags = O_RDONLY };
	struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
	char *argv[] = { (char *)exe, "nop", NULL };
	char *envp[] = { NULL };
	/* setxattrat(dfd, path, at_flags, name, struct xattr_args *, size) */
	struct {
		uint64_t value;
		uint32_t size, flags;
	} xargs = { (uintptr_t) "1", 1, 0 };
	int fd;

	snprintf(f, sizeof(f), "%s/f", dir);
	snprintf(l, sizeof(l), "%s/l", dir);
	snprintf(h, sizeof(h), "%s/h", dir);
	snprintf(d1, sizeof(d1), "%s/d1", dir);
	snprintf(d2, sizeof(d2), "%s/d2", dir);

	fd = syscall(SYS_openat, AT_FDCWD, f, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0)
		die(f);
	syscall(SYS_write, fd, "corpus\n", 7);
	syscall(SYS_ftruncate, fd, 3);
	syscall(SYS_fchmod, fd, 0640);
	syscall(SYS_fchown, fd, 0, 0);
	syscall(SYS_fsetxattr, fd, "user.corpus", "1", 1, 0);
	syscall(SYS_close, fd);

	fd = syscall(SYS_openat2, AT_FDCWD, f, &how, sizeof(how));
	syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_fgetxattr, fd, "user.corpus", buf, sizeof(buf));
	syscall(SYS_close, fd);

	syscall(SYS_truncate, f, 2);
	syscall(SYS_chmod, f, 0600);
	syscall(SYS_fchmodat, AT_FDCWD, f, 0640);
	syscall(SYS_fchmodat2, AT_FDCWD, f, 0600, 0);
	syscall(SYS_chown, f, 0, 0);
	syscall(SYS_fchownat, AT_FDCWD, f, 0, 0, 0);
	syscall(SYS_utimensat, AT_FDCWD, f, ts, 0);
	syscall(SYS_setxattr, f, "user.a", "1", 1, 0);
	syscall(SYS_getxattr, f, "user.a", buf, sizeof(buf));
	syscall(SYS_listxattr, f, buf, sizeof(buf));
	syscall(SYS_removexattr, f, "user.a");
	syscall(SYS_setxattrat, AT_FDCWD, f, 0, "user.b", &xargs, sizeof(xargs));
	syscall(SYS_removexattrat, AT_FDCWD, f, 0, "user.b");

	syscall(SYS_symlinkat, "f", AT_FDCWD, l);
	syscall(SYS_readlinkat, AT_FDCWD, l, buf, sizeof(buf));
	syscall(SYS_linkat, AT_FDCWD, f, AT_FDCWD, h, 0);
	syscall(SYS_mkdirat, AT_FDCWD, d1, 0755);
	syscall(SYS_renameat, AT_FDCWD, d1, AT_FDCWD, d2);
	syscall(SYS_unlinkat, AT_FDCWD, d2, AT_REMOVEDIR);
	syscall(SYS_unlinkat, AT_FDCWD, h, 0);
	syscall(SYS_unlinkat, AT_FDCWD, l, 0);
	syscall(SYS_unlinkat, AT_FDCWD, f, 0);

	execve(exe, argv, envp);
	die(exe);
	return 1;
}

/*
 * One blocking syscall before the work: counters attached while it sleeps
 * all see the same syscalls from then on.
 */
static int filework(const char *dir, const char *ready_path)
{
	char f[4096], g[4096];
	sigset_t wait_mask;
	struct timespec pause = { 0, 1000000 };
	struct stat st;
	long rounds = 0;
	int fd;

	snprintf(f, sizeof(f), "%s/f", dir);
	snprintf(g, sizeof(g), "%s/g", dir);
	catch_usr1(&wait_mask);
	ready(ready_path);
	syscall(SYS_rt_sigsuspend, &wait_mask, _NSIG / 8);
	if (sigprocmask(SIG_SETMASK, &wait_mask, NULL))
		die("signals");
	while (caught < 2) {
		syscall(SYS_getpid);
		fd = syscall(SYS_openat, AT_FDCWD, f, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0)
			die(f);
		syscall(SYS_write, fd, "corpus\n", 7);
		syscall(SYS_fchmod, fd, 0640);
		syscall(SYS_fchown, fd, 0, 0);
		syscall(SYS_close, fd);
		syscall(SYS_renameat, AT_FDCWD, f, AT_FDCWD, g);
		syscall(SYS_fchmodat, AT_FDCWD, g, 0600);
		fstatat(AT_FDCWD, g, &st, 0);
		syscall(SYS_unlinkat, AT_FDCWD, g, 0);
		/* Leaves the CPU to the reloads: the guest's vCPUs share one host thread. */
		nanosleep(&pause, NULL);
		rounds++;
	}
	printf("%ld\n", rounds);
	return 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: %s nop | getpid N | int80 N | signals N | siginfo N | exec N |\n"
		"  execveat N | xexec OTHER [BACK] | fork N | rawclone N | vfork N |\n"
		"  clone3 N | threads N M | exitgroup-live N | seccomp N | seccomp-kill N |\n"
		"  sigkill N | ptrace N | ptrace-skip N | sleep READY1 READY2 | perm DIR EXE |\n"
		"  filework DIR READY\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	const char *cmd;
	long n = 0;

	self_argv0 = argv[0];
	prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	if (argc < 2)
		return usage();
	cmd = argv[1];
	if (!strcmp(cmd, "nop"))
		return argc == 2 ? 0 : usage();
	if (!strcmp(cmd, "xexec") && (argc == 3 || argc == 4))
		return xexec(argv[2], argc == 4 ? argv[3] : NULL);
	if (!strcmp(cmd, "sleep") && argc == 4)
		return sleep_across(argv[2], argv[3]);
	if (!strcmp(cmd, "perm") && argc == 4)
		return perm(argv[2], argv[3]);
	if (!strcmp(cmd, "filework") && argc == 4)
		return filework(argv[2], argv[3]);
	if (!strcmp(cmd, "threads") && argc == 4)
		return threads(count(argv[2]), count(argv[3]));
	if (argc != 3)
		return usage();
	n = count(argv[2]);
	if (!strcmp(cmd, "getpid"))
		return getpids(n), 0;
	if (!strcmp(cmd, "int80"))
		return int80_getpid(n);
	if (!strcmp(cmd, "signals"))
		return signals(n, 0);
	if (!strcmp(cmd, "siginfo"))
		return signals(n, 1);
	if (!strcmp(cmd, "exec"))
		return exec_chain(n, 0);
	if (!strcmp(cmd, "execveat"))
		return exec_chain(n, 1);
	if (!strcmp(cmd, "fork"))
		return forks(n);
	if (!strcmp(cmd, "rawclone"))
		return rawclones(n);
	if (!strcmp(cmd, "vfork"))
		return vforks(n);
	if (!strcmp(cmd, "clone3"))
		return clone3s(n);
	if (!strcmp(cmd, "exitgroup-live"))
		return exitgroup_live(n);
	if (!strcmp(cmd, "seccomp"))
		return seccomp_denied(n);
	if (!strcmp(cmd, "seccomp-kill"))
		return seccomp_killed(n);
	if (!strcmp(cmd, "sigkill"))
		return sigkilled(n);
	if (!strcmp(cmd, "ptrace"))
		return traced(n, 0);
	if (!strcmp(cmd, "ptrace-skip"))
		return traced(n, 1);
	return usage();
}
