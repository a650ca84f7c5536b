// SPDX-License-Identifier: GPL-2.0
/*
 * Counts audit SYSCALL records, the ground truth for the corpus check:
 *
 *   audit_records READY KEY
 *
 * Registers itself as the audit daemon (AUDIT_SET with its pid), so every
 * record comes to it by unicast instead of through printk's rate limit and
 * the hold queue (kauditd_thread() in kernel/audit.c), then creates READY.
 * On SIGTERM or SIGINT it sets the backlog wait time to the value it has,
 * which the kernel logs as a CONFIG_CHANGE record (audit_do_config_change()),
 * and reads on until that record comes back: kauditd keeps one queue in
 * order, so every record logged before the signal has arrived by then. (A
 * user message would do, but the kernel takes those only from the initial
 * pid namespace.) It prints one line
 * per (arch, syscall) among the SYSCALL records with key="KEY":
 *
 *   x86_64 39 20000
 *   i386 20 50
 *
 * An io_uring op run inline by io_uring_enter walks the exit list once more,
 * in __audit_uring_exit(), and a match there logs a URINGOP record (no arch,
 * no syscall) instead of a SYSCALL one; those are counted on a line of
 * their own:
 *
 *   uringop 0 50
 *
 * With KEY "-" it prints every record instead, in the order they came, as
 * "type=N TEXT" (the marker and what follows it left out), for comparing
 * two runs record by record.
 *
 * It exits 1 if the kernel's lost counter moved while it ran (records were
 * dropped, the counts cannot be trusted), or on any other error.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#ifndef AUDIT_URINGOP
#define AUDIT_URINGOP 1336
#endif
#define MARKER "op=set audit_backlog_wait_time="
#define MAX_KEYS 4096
/* Only a guard against a hang: the marker normally comes back at once. */
#define MARKER_WAIT_S 120

struct count {
	char arch[16];
	long nr;
	long n;
};

static struct count counts[MAX_KEYS];
static int ncounts;
static volatile sig_atomic_t stop;
static int dump_all; /* KEY "-": print every record */
static int fd = -1;
static __u32 seq;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static int send_msg(int type, const void *data, size_t len)
{
	char buf[NLMSG_SPACE(sizeof(struct audit_status)) + 256] = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (len > sizeof(buf) - NLMSG_HDRLEN)
		return -EINVAL;
	nh->nlmsg_len = NLMSG_LENGTH(len);
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nh->nlmsg_seq = ++seq;
	memcpy(NLMSG_DATA(nh), data, len);
	if (sendto(fd, buf, nh->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

static const char *arch_name(const char *hex)
{
	unsigned long a = strtoul(hex, NULL, 16);

	if (a == AUDIT_ARCH_X86_64)
		return "x86_64";
	if (a == AUDIT_ARCH_I386)
		return "i386";
	return hex;
}

/* "audit(...): arch=c000003e syscall=39 ... key="KEY"", or a URINGOP record */
static void count_record(const char *text, const char *key, int uringop)
{
	char want[128], arch[16];
	const char *a, *s, *k, *name;
	long nr;
	int i;

	snprintf(want, sizeof(want), " key=\"%s\"", key);
	k = strstr(text, want);
	if (!k || (k[strlen(want)] && k[strlen(want)] != ' '))
		return;
	a = strstr(text, " arch=");
	s = strstr(text, " syscall=");
	if (uringop) {
		name = "uringop";
		nr = 0;
	} else if (!a || !s || sscanf(a, " arch=%15[0-9a-fA-F]", arch) != 1 ||
		   sscanf(s, " syscall=%ld", &nr) != 1) {
		fprintf(stderr, "audit_records: cannot parse: %.200s\n", text);
		exit(1);
	} else {
		name = arch_name(arch);
	}
	for (i = 0; i < ncounts; i++)
		if (counts[i].nr == nr && !strcmp(counts[i].arch, name))
			break;
	if (i == ncounts) {
		if (ncounts == MAX_KEYS) {
			fprintf(stderr, "audit_records: more than %d syscalls\n", MAX_KEYS);
			exit(1);
		}
		snprintf(counts[i].arch, sizeof(counts[i].arch), "%s", name);
		counts[i].nr = nr;
		ncounts++;
	}
	counts[i].n++;
}

/*
 * Reads what is queued. Returns 1 once the marker came back, 0 otherwise,
 * and fills *status when an AUDIT_GET reply arrives.
 */
static int drain(const char *key, struct audit_status *status, int *got_status)
{
	static char buf[1 << 16];
	int marker = 0;

	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		struct nlmsghdr *nh;
		size_t dlen;
		char *data;

		if (len < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return marker;
			if (errno == ENOBUFS) {
				fprintf(stderr, "audit_records: socket overrun: records lost\n");
				exit(1);
			}
			perror("audit_records: recv");
			exit(1);
		}
		/*
		 * One message per datagram. Records carry their text length in
		 * nlmsg_len, without the header (audit_log_end(): a quirk kept
		 * for auditd), so the datagram's length is what to go by.
		 */
		nh = (struct nlmsghdr *)buf;
		if (len < NLMSG_HDRLEN)
			continue;
		data = NLMSG_DATA(nh);
		dlen = len - NLMSG_HDRLEN;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(nh);

			if (dlen >= sizeof(*e) && e->error) {
				fprintf(stderr, "audit_records: request %u: %s\n", e->msg.nlmsg_seq,
					strerror(-e->error));
				exit(1);
			}
			continue;
		}
		if (nh->nlmsg_type == AUDIT_GET) {
			if (dlen >= sizeof(*status)) {
				memcpy(status, data, sizeof(*status));
				*got_status = 1;
			}
			continue;
		}
		data[dlen] = 0; /* the buffer has a byte to spare */
		if (nh->nlmsg_type == AUDIT_CONFIG_CHANGE && strstr(data, MARKER))
			marker = 1;
		else if (dump_all && !marker)
			printf("type=%d %s\n", nh->nlmsg_type, data);
		else if (dump_all)
			continue;
		else if (nh->nlmsg_type == AUDIT_SYSCALL || nh->nlmsg_type == AUDIT_URINGOP)
			count_record(data, key, nh->nlmsg_type == AUDIT_URINGOP);
	}
}

static void wait_readable(int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	poll(&p, 1, timeout_ms);
}

static struct audit_status status_now(const char *key)
{
	struct audit_status st;
	int got = 0;
	time_t t0 = time(NULL);

	if (send_msg(AUDIT_GET, NULL, 0)) {
		perror("audit_records: AUDIT_GET");
		exit(1);
	}
	while (!got) {
		if (time(NULL) - t0 > MARKER_WAIT_S) {
			fprintf(stderr, "audit_records: no AUDIT_GET reply\n");
			exit(1);
		}
		wait_readable(1000);
		drain(key, &st, &got);
	}
	return st;
}

static void set_pid(__u32 pid)
{
	struct audit_status st = { .mask = AUDIT_STATUS_PID, .pid = pid };
	int err = send_msg(AUDIT_SET, &st, sizeof(st));

	if (err) {
		fprintf(stderr, "audit_records: AUDIT_SET pid: %s\n", strerror(-err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_nl local = { .nl_family = AF_NETLINK };
	struct sigaction sa = { .sa_handler = on_stop };
	int rcvbuf = 64 << 20, marker = 0, got = 0, rfd;
	struct audit_status st, mark = { .mask = AUDIT_STATUS_BACKLOG_WAIT_TIME };
	__u32 lost0, lost1;
	time_t t0;

	if (argc != 3) {
		fprintf(stderr, "usage: audit_records READY KEY|-\n");
		return 2;
	}
	dump_all = !strcmp(argv[2], "-");
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0 || bind(fd, (struct sockaddr *)&local, sizeof(local))) {
		perror("audit_records: netlink socket");
		return 1;
	}
	/* Room for bursts; a full socket makes kauditd wait, it does not drop. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	set_pid(getpid());
	/* Requests are handled in order: the AUDIT_SET is in force once this returns. */
	st = status_now(argv[2]);
	lost0 = st.lost;
	mark.backlog_wait_time = st.backlog_wait_time;
	rfd = open(argv[1], O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (rfd < 0 || close(rfd)) {
		perror(argv[1]);
		return 1;
	}
	while (!stop) {
		wait_readable(1000);
		drain(argv[2], &st, &got);
	}
	if (send_msg(AUDIT_SET, &mark, sizeof(mark))) {
		perror("audit_records: AUDIT_SET backlog_wait_time");
		return 1;
	}
	t0 = time(NULL);
	while (!marker) {
		if (time(NULL) - t0 > MARKER_WAIT_S) {
			fprintf(stderr, "audit_records: the marker did not come back\n");
			return 1;
		}
		wait_readable(1000);
		marker = drain(argv[2], &st, &got);
	}
	lost1 = status_now(argv[2]).lost;
	set_pid(0);
	for (int i = 0; i < ncounts; i++)
		printf("%s %ld %ld\n", counts[i].arch, counts[i].nr, counts[i].n);
	if (lost1 != lost0) {
		fprintf(stderr, "audit_records: the kernel lost %u records while counting\n",
			lost1 - lost0);
		return 1;
	}
	return 0;
}
