// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile clients of an HTTP endpoint on loopback, in one epoll loop, and a
 * legitimate scraper among them that measures its own latency:
 *
 *   hostile_clients -p PORT [-a ADDR] [-s SECONDS] [-i IDLE] [-w] [-b BYTES]
 *                   [-l] [-n PROBES] [-m PROBE_MS] [-r READY_FILE]
 *
 *   -i IDLE   connections that send a request line and never end their
 *             headers; one the server closes is opened again at once
 *   -w        a slow client: one header byte every 5 s
 *   -b BYTES  a request line of BYTES, and the status it gets
 *   -l        a client that scrapes /metrics in a tight loop
 *   -n N      N scrapes, one every PROBE_MS (default 100), timed from
 *             connect to the end of the response
 *   -r FILE   created once every idle connection is up and the others started
 *
 * Runs for SECONDS (default 10), then prints key=value lines: what each
 * kind of client saw, and the probes' latency (ms) if there were any.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>

enum kind {
	IDLE,
	SLOW,
	BIG,
	LOOP,
	PROBE
};

struct client {
	enum kind kind;
	int fd;
	bool connected;
	size_t sent, want; /* bytes of the request sent, and its length */
	char head[16];	   /* the first bytes of the response: "HTTP/1.1 200" */
	size_t got;	   /* response bytes read */
	bool saw_page;	   /* the body had auditskip_info */
	char tail[16];	   /* the last bytes read, for a name split across reads */
	double started, next_byte;
};

static struct sockaddr_in target;
static int epfd;
static const char *big_request;
static size_t big_len;

static const char request_line[] = "GET /metrics HTTP/1.1\r\nHost: localhost\r\n";
static const char full_request[] =
	"GET /metrics HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

static struct {
	unsigned int idle_up, idle_peak, idle_closed, idle_failed;
	long slow_bytes;
	double slow_cut_s; /* -1: still open at the end */
	int big_status;	   /* 0: closed without a status line */
	bool big_done;
	unsigned long loop_scrapes, loop_ok;
	unsigned int probes_ok, probes_failed;
	double *probe_ms;
} seen = { .slow_cut_s = -1 };

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *request_of(const struct client *c)
{
	switch (c->kind) {
	case IDLE:
	case SLOW:
		return request_line;
	case BIG:
		return big_request;
	default:
		return full_request;
	}
}

static int client_connect(struct client *c)
{
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN | EPOLLRDHUP, .data.ptr = c };

	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, (struct sockaddr *)&target, sizeof(target)) && errno != EINPROGRESS) {
		close(c->fd);
		c->fd = -1;
		return -errno;
	}
	c->connected = false;
	c->sent = c->got = 0;
	c->saw_page = false;
	c->head[0] = c->tail[0] = '\0';
	c->started = now_s();
	c->want = c->kind == BIG ? big_len : strlen(request_of(c));
	epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &ev);
	return 0;
}

static void client_close(struct client *c)
{
	if (c->fd >= 0) {
		epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
	}
	c->fd = -1;
}

static int status_of(const struct client *c)
{
	int code = 0;

	return sscanf(c->head, "HTTP/1.%*d %d", &code) == 1 ? code : 0;
}

/* Sends what the kind sends now: all at once, or (slow) one byte when due. */
static void client_write(struct client *c)
{
	const char *req = request_of(c);
	size_t n = c->want - c->sent;
	ssize_t w;

	if (c->kind == SLOW) {
		if (now_s() < c->next_byte || !n)
			return;
		n = 1;
		c->next_byte = now_s() + 5;
	}
	if (!n)
		return;
	w = send(c->fd, req + c->sent, n, MSG_NOSIGNAL);
	if (w > 0) {
		c->sent += w;
		if (c->kind == SLOW)
			seen.slow_bytes += w;
	}
}

/* Reads what came; true when the server closed the connection. */
static bool client_read(struct client *c)
{
	char buf[16384];

	for (;;) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), 0);
		char joined[sizeof(c->tail) + sizeof(buf) + 1];
		size_t tl, keep;

		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
			return true;
		if (n < 0)
			return false;
		if (c->got < sizeof(c->head) - 1) {
			size_t k = sizeof(c->head) - 1 - c->got;

			memcpy(c->head + c->got, buf, (size_t)n < k ? (size_t)n : k);
			c->head[c->got + ((size_t)n < k ? (size_t)n : k)] = '\0';
		}
		c->got += n;
		tl = strlen(c->tail);
		memcpy(joined, c->tail, tl);
		memcpy(joined + tl, buf, n);
		joined[tl + n] = '\0';
		if (memmem(joined, tl + n, "auditskip_info", 14))
			c->saw_page = true;
		/* Keep the last bytes: a name may be split between two reads. */
		keep = tl + n < sizeof(c->tail) - 1 ? tl + n : sizeof(c->tail) - 1;
		memmove(c->tail, joined + tl + n - keep, keep);
		c->tail[keep] = '\0';
	}
}

static double *probe_slot;
static unsigned int probes_left;
static double probe_interval_s = 0.1, next_probe;

static void finished(struct client *c, bool running)
{
	double took = now_s() - c->started;
	bool ok = status_of(c) == 200 && c->saw_page;

	switch (c->kind) {
	case IDLE:
		if (c->connected) {
			seen.idle_closed++;
			seen.idle_up--;
		} else {
			seen.idle_failed++;
		}
		client_close(c);
		if (running)
			client_connect(c);
		return;
	case SLOW:
		seen.slow_cut_s = took;
		break;
	case BIG:
		seen.big_status = status_of(c);
		seen.big_done = true;
		break;
	case LOOP:
		seen.loop_scrapes++;
		seen.loop_ok += ok;
		client_close(c);
		if (running)
			client_connect(c);
		return;
	case PROBE:
		if (ok)
			probe_slot[seen.probes_ok++] = took * 1000;
		else
			seen.probes_failed++;
		break;
	}
	client_close(c);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void usage(const char *me)
{
	fprintf(stderr,
		"usage: %s -p PORT [-a ADDR] [-s SECONDS] [-i IDLE] [-w] [-b BYTES] [-l] [-n PROBES] [-m PROBE_MS] [-r READY_FILE]\n",
		me);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *addr = "127.0.0.1", *ready = NULL;
	unsigned int idle = 0, nprobes = 0;
	bool slow = false, loop = false, ready_done = false;
	double seconds = 10, end;
	struct client *cs, *probe = NULL;
	struct rlimit rl;
	size_t nclients = 0, big = 0;
	int opt, port = 0;

	while ((opt = getopt(argc, argv, "p:a:s:i:wb:ln:m:r:")) != -1) {
		switch (opt) {
		case 'p':
			port = atoi(optarg);
			break;
		case 'a':
			addr = optarg;
			break;
		case 's':
			seconds = atof(optarg);
			break;
		case 'i':
			idle = atoi(optarg);
			break;
		case 'w':
			slow = true;
			break;
		case 'b':
			big = strtoul(optarg, NULL, 10);
			break;
		case 'l':
			loop = true;
			break;
		case 'n':
			nprobes = atoi(optarg);
			break;
		case 'm':
			probe_interval_s = atof(optarg) / 1000;
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (port <= 0 || port > 65535 || seconds <= 0 || idle > 100000 || nprobes > 100000 ||
	    big > (64 << 20) || probe_interval_s <= 0)
		usage(argv[0]);
	target.sin_family = AF_INET;
	target.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &target.sin_addr) != 1) {
		fprintf(stderr, "hostile_clients: not an IPv4 address: %s\n", addr);
		return 2;
	}
	/* A thousand sockets and more: the soft limit is often 1024. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < idle + 64) {
		rl.rlim_cur = rl.rlim_max < idle + 64 ? rl.rlim_max : idle + 64;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (big) {
		/* "GET /aaaa... HTTP/1.1\r\n": a request line of `big` bytes, never a whole
		 * request. */
		char *b = malloc(big + 64);

		if (!b)
			return 1;
		memcpy(b, "GET /", 5);
		memset(b + 5, 'a', big > 16 ? big - 16 : 1);
		big_len = (big > 16 ? big - 16 : 1) + 5;
		big_len += sprintf(b + big_len, " HTTP/1.1\r\n");
		big_request = b;
	}
	seen.probe_ms = probe_slot = calloc(nprobes ? nprobes : 1, sizeof(double));
	cs = calloc(idle + 4, sizeof(*cs));
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (!cs || !probe_slot || epfd < 0)
		return 1;
	for (unsigned int i = 0; i < idle; i++)
		cs[nclients++] = (struct client){ .kind = IDLE, .fd = -1 };
	if (slow)
		cs[nclients++] = (struct client){ .kind = SLOW, .fd = -1 };
	if (big)
		cs[nclients++] = (struct client){ .kind = BIG, .fd = -1 };
	if (loop)
		cs[nclients++] = (struct client){ .kind = LOOP, .fd = -1 };
	for (size_t i = 0; i < nclients; i++) {
		int err = client_connect(&cs[i]);

		if (err) {
			fprintf(stderr, "hostile_clients: connect: %s\n", strerror(-err));
			return 1;
		}
	}
	probes_left = nprobes;
	if (nprobes)
		probe = calloc(1, sizeof(*probe));
	if (probe)
		probe->fd = -1;
	end = now_s() + seconds;
	next_probe = now_s();
	while (now_s() < end) {
		struct epoll_event evs[256];
		int n = epoll_wait(epfd, evs, 256, 20);

		for (int i = 0; i < n; i++) {
			struct client *c = evs[i].data.ptr;

			if (c->fd < 0)
				continue;
			if (!c->connected && (evs[i].events & EPOLLOUT)) {
				int e = 0;
				socklen_t el = sizeof(e);

				getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &e, &el);
				if (e) {
					finished(c, true);
					continue;
				}
				c->connected = true;
				if (c->kind == IDLE && ++seen.idle_up > seen.idle_peak)
					seen.idle_peak = seen.idle_up;
			}
			if (c->connected && (evs[i].events & EPOLLOUT))
				client_write(c);
			/* Written all it writes: stop waking for writability. */
			if (c->connected && c->kind != SLOW && c->sent == c->want) {
				struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP,
							  .data.ptr = c };

				epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev);
			}
			if ((evs[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) &&
			    client_read(c))
				finished(c, true);
		}
		/* The slow client's next byte, whenever it is due. */
		for (size_t i = 0; i < nclients; i++)
			if (cs[i].kind == SLOW && cs[i].fd >= 0 && cs[i].connected)
				client_write(&cs[i]);
		if (probe && probe->fd < 0 && probes_left && now_s() >= next_probe) {
			probe->kind = PROBE;
			client_connect(probe);
			probes_left--;
			next_probe = now_s() + probe_interval_s;
		}
		if (ready && !ready_done && seen.idle_peak == idle) {
			FILE *f = fopen(ready, "w");

			if (f)
				fclose(f);
			ready_done = true;
		}
		if (probe && !probes_left && probe->fd < 0 && !idle && !slow && !big && !loop)
			break;
	}
	printf("idle_wanted=%u\nidle_peak=%u\nidle_open_at_end=%u\nidle_closed_by_server=%u\n"
	       "idle_connect_failed=%u\n",
	       idle, seen.idle_peak, seen.idle_up, seen.idle_closed, seen.idle_failed);
	if (slow)
		printf("slow_bytes_sent=%ld\nslow_cut_after_s=%.1f\n", seen.slow_bytes,
		       seen.slow_cut_s);
	if (big)
		printf("big_request_bytes=%zu\nbig_status=%d\nbig_answered=%d\n", big_len,
		       seen.big_status, seen.big_done);
	if (loop)
		printf("loop_scrapes=%lu\nloop_ok=%lu\n", seen.loop_scrapes, seen.loop_ok);
	if (nprobes) {
		unsigned int k = seen.probes_ok;

		qsort(probe_slot, k, sizeof(double), cmp_double);
		printf("probes=%u\nprobes_ok=%u\nprobes_failed=%u\n", nprobes - probes_left, k,
		       seen.probes_failed);
		if (k)
			printf("probe_min_ms=%.3f\nprobe_median_ms=%.3f\nprobe_p99_ms=%.3f\n"
			       "probe_max_ms=%.3f\n",
			       probe_slot[0], probe_slot[k / 2], probe_slot[(k * 99) / 100],
			       probe_slot[k - 1]);
	}
	return 0;
}
