// SPDX-License-Identifier: GPL-2.0
/*
 * --metrics ADDR:PORT: the totals since start in Prometheus text exposition
 * format 0.0.4 at /metrics.
 *
 * The main loop renders a whole page on every sync tick and swaps it in
 * under a mutex; the HTTP server's own thread only copies out the latest
 * page, so a scrape never sees a half-updated set of counters and never
 * touches the BPF maps.
 *
 * Per-syscall counters are one family each with a `syscall` label and no
 * separate unlabelled total: every walk lands in exactly one slot (slot
 * 2048 is "out-of-range"), so sum() over the label is the exact total, and a
 * family that mixed the total in with its parts would double any sum().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#ifndef AUDITSKIP_NO_HTTP
#include <microhttpd.h>
#endif
#include "mask.h"
#include "metrics.h"
#include "syscalls.h"

#ifndef AUDITSKIP_VERSION
#define AUDITSKIP_VERSION "unknown"
#endif

/* Label values: backslash, double quote and line feed are escaped (format 0.0.4). */
static void put_label_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\')
			fputs("\\\\", out);
		else if (*v == '"')
			fputs("\\\"", out);
		else if (*v == '\n')
			fputs("\\n", out);
		else
			fputc(*v, out);
	}
}

static void family(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void gauge(FILE *out, const char *name, const char *help, unsigned long long v)
{
	family(out, name, "gauge", help);
	fprintf(out, "%s %llu\n", name, v);
}

/* auditskip_NAME_total for a counter of SCAN_COUNTERS. */
static void counter_family(FILE *out, const struct counter_info *ci, char *name, size_t size)
{
	snprintf(name, size, "auditskip_%s_total", ci->name);
	family(out, name, "counter", ci->help);
}

/* One series per syscall seen so far: at most NR_COUNT_SLOTS, usually a few dozen. */
static void per_syscall_counter(FILE *out, const struct counts_snapshot *t, enum counter_id id)
{
	char name[96], sc[64];

	counter_family(out, &counters[id], name, sizeof(name));
	for (unsigned int k = 0; k < NR_COUNT_SLOTS; k++) {
		if (!t->slot[k].walks)
			continue;
		slot_name(k / NR_SLOTS, k % NR_SLOTS, sc, sizeof(sc));
		fprintf(out, "%s{syscall=\"", name);
		put_label_value(out, sc);
		fprintf(out, "\",arch=\"%s\"} %llu\n", arch_name(k / NR_SLOTS),
			(unsigned long long)counter_value(&t->slot[k], id));
	}
}

/*
 * Counters that exist only where the mode can know them (outcomes): a series
 * that is always 0 would look like a measurement.
 */
static void counter_metrics(FILE *out, const struct report_ctx *r, const struct counts_snapshot *t)
{
	char name[96];

	for (enum counter_id id = 0; id < NR_COUNTERS; id++) {
		const struct counter_info *ci = &counters[id];
		bool outcome = ci->kind == COUNTER_OUTCOME || ci->kind == COUNTER_WHATIF_OUTCOME;

		if (ci->metric == METRIC_PER_SYSCALL) {
			per_syscall_counter(out, t, id);
		} else if (ci->metric == METRIC_TOTAL && (!outcome || r->cfg.outcomes)) {
			counter_family(out, ci, name, sizeof(name));
			fprintf(out, "%s %llu\n", name,
				(unsigned long long)counter_value(&t->total, id));
		}
	}
}

/* Exit rules that set every syscall bit. */
static unsigned int full_mask_rules(const struct ruleset *rs)
{
	unsigned int n = 0;

	for (size_t i = 0; rs && i < rs->n; i++)
		n += rule_sets_every_bit(&rs->rules[i]);
	return n;
}

static void info(FILE *out, const struct report_ctx *r)
{
	const char *labels[][2] = {
		{ "mode", r->cfg.mode },
		{ "kernel", r->cfg.kernel },
		{ "mirror",
		  r->live.mirror.source == MIRROR_KERNEL_LIST ? "kernel-list" : "netlink" },
		{ "version", AUDITSKIP_VERSION },
	};

	family(out, "auditskip_info", "gauge",
	       "Always 1; the labels say how auditskip counts: attach mode, kernel release, "
	       "how the mask mirror is kept, auditskip version.");
	fputs("auditskip_info{", out);
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++) {
		fprintf(out, "%s%s=\"", i ? "," : "", labels[i][0]);
		put_label_value(out, labels[i][1] ? labels[i][1] : "");
		fputc('"', out);
	}
	fputs("} 1\n", out);
}

/*
 * Metrics that exist only where the mode can know them: a series that is
 * always 0 would look like a measurement.
 */

/* auditskip_stale (gauge): audit_n_rules left counting rules no list holds. */
static void stale_state(FILE *out, const struct report_ctx *r)
{
	gauge(out, "auditskip_stale",
	      "1 when audit_n_rules counts rules that are gone (every syscall pays for a full "
	      "audit context until reboot), else 0; see auditskip_stale_known.",
	      r->live.stale.verdict == STALE_YES);
	gauge(out, "auditskip_stale_known",
	      "0 while rules are loaded and audit_n_rules cannot be read: staleness unknown.",
	      r->live.stale.verdict != STALE_UNKNOWN);
	family(out, "auditskip_stale_syscalls_total", "counter",
	       "Syscalls that ran with a full audit context while no rule needed one.");
	fprintf(out, "auditskip_stale_syscalls_total %llu\n",
		(unsigned long long)r->live.stale.syscalls);
}

/* auditskip_estimated_saved_seconds_total (counter): CPU time the skip would have saved. */
static void estimated_saved_seconds(FILE *out, const struct report_ctx *r,
				    const struct counts_snapshot *t)
{
	family(out, "auditskip_estimated_saved_seconds_total", "counter",
	       "CPU time the skip would have saved, from the calibrated time model.");
	fprintf(out, "auditskip_estimated_saved_seconds_total %.9f\n", report_saved_ns(r, t) / 1e9);
}

/* --per-comm: the top names only, so label cardinality stays bounded. */
static void per_comm(FILE *out, const struct report_ctx *r)
{
	static const struct {
		const char *name, *help;
		size_t offset;
	} fams[] = {
		{ "auditskip_comm_walks_total",
		  "Exit-filter walks of the processes with this name (top --per-comm names).",
		  offsetof(struct comm_counts, walks) },
		{ "auditskip_comm_skippable_walks_total",
		  "Skippable walks of the processes with this name (top --per-comm names).",
		  offsetof(struct comm_counts, skippable_walks) },
	};

	if (!r->cfg.comm_top)
		return;
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		family(out, fams[f].name, "counter", fams[f].help);
		for (size_t i = 0; i < r->live.ncomms && i < (size_t)r->cfg.comm_top; i++) {
			fprintf(out, "%s{comm=\"", fams[f].name);
			put_label_value(out, r->live.comms[i].comm);
			fprintf(out, "\"} %llu\n",
				*(const unsigned long long *)((const char *)&r->live.comms[i].c +
							      fams[f].offset));
		}
	}
}

void metrics_render(FILE *out, const struct report_ctx *r, const struct counts_snapshot *t)
{
	counter_metrics(out, r, t);
	gauge(out, "auditskip_exit_rules",
	      "Rules on audit's exit filter list, as the mask mirror counts them.",
	      r->live.mirror.exit_rules);
	gauge(out, "auditskip_mask_syscalls",
	      "Syscall numbers whose bit is set in the aggregate mask of the exit rules "
	      "(of 2048): only their walks are not skippable.",
	      mask_count(r->live.mirror.mask));
	gauge(out, "auditskip_full_mask_rules",
	      "Exit rules that set every syscall bit: while one is loaded no walk is skippable.",
	      full_mask_rules(r->live.rules));
	gauge(out, "auditskip_mirror_generation",
	      "Changes of the mask mirror since auditskip started.", r->live.mirror.generation);
	info(out, r);
	stale_state(out, r);
	estimated_saved_seconds(out, r, t);
	per_comm(out, r);
}

#ifdef AUDITSKIP_NO_HTTP

/* Static builds: Debian ships no static GnuTLS dependencies for libmicrohttpd. */
struct metrics_server *metrics_start(const char *addr, char *err, size_t err_size)
{
	(void)addr;
	snprintf(err, err_size, "this build has no HTTP server");
	return NULL;
}

void metrics_update(struct metrics_server *m, const struct report_ctx *r,
		    const struct counts_snapshot *total)
{
	(void)m;
	(void)r;
	(void)total;
}

void metrics_stop(struct metrics_server *m)
{
	(void)m;
}

#else

/* Splits ADDR:PORT, [ADDR6]:PORT or :PORT; host is "" for every address. */
static int split_listen(const char *addr, char *host, size_t host_size, char *port,
			size_t port_size, char *err, size_t err_size)
{
	const char *colon, *h = addr;
	size_t hlen;
	char *end;
	long p;

	if (*addr == '[') {
		const char *close = strchr(addr, ']');

		if (!close || close[1] != ':') {
			snprintf(err, err_size, "expected [IPV6]:PORT");
			return -1;
		}
		h = addr + 1;
		hlen = close - h;
		colon = close + 1;
	} else {
		colon = strrchr(addr, ':');
		if (!colon) {
			snprintf(err, err_size, "expected ADDR:PORT, [IPV6]:PORT or :PORT");
			return -1;
		}
		hlen = colon - addr;
		if (memchr(addr, ':', hlen)) {
			snprintf(err, err_size, "write an IPv6 address in brackets: [ADDR]:PORT");
			return -1;
		}
	}
	errno = 0;
	p = strtol(colon + 1, &end, 10);
	if (errno || end == colon + 1 || *end || p < 1 || p > 65535) {
		snprintf(err, err_size, "invalid port '%s'", colon + 1);
		return -1;
	}
	if (hlen >= host_size) {
		snprintf(err, err_size, "address too long");
		return -1;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	snprintf(port, port_size, "%ld", p);
	return 0;
}

/*
 * The listening socket is made here rather than by the HTTP library so a
 * busy port fails with bind's own errno, and so it is close-on-exec: the
 * command auditskip starts must not inherit it.
 */
static int listen_socket(const char *addr, char *err, size_t err_size)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	char host[INET6_ADDRSTRLEN + 64], port[8];
	int fd = -1, one = 1, zero = 0, rc;

	if (split_listen(addr, host, sizeof(host), port, sizeof(port), err, err_size))
		return -1;
	if (!*host) {
		/* Every address: IPv6 any with v4-mapped addresses, or IPv4 any without IPv6. */
		hints.ai_flags |= AI_PASSIVE;
		hints.ai_family = AF_INET6;
		rc = getaddrinfo(NULL, port, &hints, &ai);
		if (!rc) {
			fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd < 0 && errno == EAFNOSUPPORT) {
				freeaddrinfo(ai);
				ai = NULL;
				hints.ai_family = AF_INET;
				rc = getaddrinfo(NULL, port, &hints, &ai);
			} else if (fd >= 0) {
				setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
			}
		}
	} else {
		rc = getaddrinfo(host, port, &hints, &ai);
	}
	if (rc) {
		snprintf(err, err_size, "'%s': %s", host, gai_strerror(rc));
		goto fail;
	}
	if (fd < 0)
		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, err_size, "socket: %s", strerror(errno));
		goto fail;
	}
	/* Lets a restart reuse the port while old connections linger in TIME_WAIT. */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 16)) {
		snprintf(err, err_size, "%s", strerror(errno));
		goto fail;
	}
	freeaddrinfo(ai);
	return fd;
fail:
	if (fd >= 0)
		close(fd);
	if (ai)
		freeaddrinfo(ai);
	return -1;
}

struct metrics_server {
	struct MHD_Daemon *httpd;
	pthread_mutex_t lock;
	char *page; /* the latest rendering; NULL before the first */
	size_t len;
};

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, const char *body,
			     size_t len)
{
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				status == MHD_HTTP_OK ? CONTENT_TYPE : "text/plain; charset=utf-8");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	static const char not_found[] = "Not found: auditskip serves /metrics\n";
	static const char not_allowed[] = "Method not allowed: use GET\n";
	static const char not_ready[] = "No counts yet: try again in a moment\n";
	struct metrics_server *m = cls;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed,
			     sizeof(not_allowed) - 1);
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, not_found, sizeof(not_found) - 1);
	pthread_mutex_lock(&m->lock);
	if (m->page)
		ret = reply(conn, MHD_HTTP_OK, m->page, m->len);
	else
		ret = reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, not_ready, sizeof(not_ready) - 1);
	pthread_mutex_unlock(&m->lock);
	return ret;
}

struct metrics_server *metrics_start(const char *addr, char *err, size_t err_size)
{
	struct metrics_server *m = calloc(1, sizeof(*m));
	sigset_t all, old;
	int fd = -1;

	if (!m) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&m->lock, NULL);
	fd = listen_socket(addr, err, err_size);
	if (fd < 0)
		goto fail;
	/* Signals are the main loop's business: the server thread starts with them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	m->httpd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, answer, m,
				    MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
				    (unsigned int)16, MHD_OPTION_CONNECTION_TIMEOUT,
				    (unsigned int)10, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!m->httpd) {
		snprintf(err, err_size, "cannot start the HTTP server");
		goto fail;
	}
	return m;
fail:
	if (fd >= 0)
		close(fd);
	pthread_mutex_destroy(&m->lock);
	free(m);
	return NULL;
}

void metrics_update(struct metrics_server *m, const struct report_ctx *r,
		    const struct counts_snapshot *total)
{
	char *page = NULL;
	size_t len = 0;
	FILE *out;

	if (!m)
		return;
	out = open_memstream(&page, &len);
	if (!out)
		return; /* scrapes keep the previous page */
	metrics_render(out, r, total);
	if (fclose(out)) {
		free(page);
		return;
	}
	pthread_mutex_lock(&m->lock);
	free(m->page);
	m->page = page;
	m->len = len;
	pthread_mutex_unlock(&m->lock);
}

void metrics_stop(struct metrics_server *m)
{
	if (!m)
		return;
	/* This also closes the listening socket, although the library was given it. */
	MHD_stop_daemon(m->httpd);
	pthread_mutex_destroy(&m->lock);
	free(m->page);
	free(m);
}

#endif /* AUDITSKIP_NO_HTTP */
