// SPDX-License-Identifier: GPL-2.0
/*
 * --metrics ADDR:PORT: the metrics page (output/metrics_page.c) over HTTP
 * at /metrics, with the web configuration's TLS and basic authentication.
 *
 * The main loop renders a whole page on every sync tick and swaps it in
 * under a mutex; the HTTP server's own threads only copy out the latest
 * page, so a scrape never sees a half-updated set of counters and never
 * touches the BPF maps.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stddef.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <sys/socket.h>
#ifndef AUDITSKIP_NO_HTTP
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include "http/basic_auth.h"
#include "http/webconfig.h"
#endif
#include "http/metrics_server.h"
#include "output/metrics_page.h"

#ifdef AUDITSKIP_NO_HTTP

/* Static builds: Debian ships no static GnuTLS dependencies for libmicrohttpd. */
struct metrics_server *metrics_open(const char *addr, const char *web_config, char *err,
				    size_t err_size)
{
	(void)addr;
	(void)web_config;
	snprintf(err, err_size, "this build has no HTTP server");
	return NULL;
}

int metrics_serve(struct metrics_server *m, char *err, size_t err_size)
{
	(void)m;
	(void)err;
	(void)err_size;
	return 0;
}

void metrics_update(struct metrics_server *m, const struct run_state *r,
		    const struct counts_snapshot *total)
{
	(void)m;
	(void)r;
	(void)total;
}

bool metrics_tls(const struct metrics_server *m)
{
	(void)m;
	return false;
}

void metrics_stop(struct metrics_server *m)
{
	(void)m;
}

#else

/*
 * What hostile clients cannot exhaust (bench/endpoint.sh measures it):
 *
 * - Connections: one epoll thread per core (MHD_USE_EPOLL_INTERNAL_THREAD,
 *   a pool of SERVER_THREADS) holds thousands of idle sockets at no cost;
 *   select() would stop at FD_SETSIZE (1024). CONNECTIONS_MAX in all, at
 *   most half of them from one address, so one host cannot take every slot
 *   from another; loopback scrapers share their address with any local
 *   attacker, which is why the global limit is well above a thousand.
 * - Time: a connection that sends nothing for IDLE_TIMEOUT_S is closed,
 *   whether it is idle, between keep-alive requests or feeding its
 *   headers one byte at a time (slower than that, it is cut).
 * - Memory: each connection reads into a pool of CONNECTION_MEMORY bytes;
 *   a request line or headers larger than that get 414 or 431 and the
 *   connection closes. The page itself is copied per response, outside
 *   the pool.
 * - The kernel's accept queue is SOMAXCONN deep, so a burst of connects
 *   does not make a scraper's SYN wait for a retransmission (1 s).
 */
#define SERVER_THREADS 2
#define CONNECTIONS_MAX 4096
#define IDLE_TIMEOUT_S 3
#define CONNECTION_MEMORY (8 * 1024)
/* Descriptors beyond the connections: BPF maps and links, netlink, the server's own. */
#define FD_RESERVE 256
/* TLS 1.2 and 1.3 only, as the exporter toolkit's default minimum. */
#define TLS_PRIORITIES "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

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
 * busy port fails with bind's own errno, so it is close-on-exec (the
 * command auditskip starts must not inherit it), and so it is bound while
 * the process still may bind any port: the server threads start only
 * after the capabilities are dropped.
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
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, SOMAXCONN)) {
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

/*
 * One rendering, shared by every response that sends it: a tight scrape
 * loop costs no copy of the page per request, and no allocation the size
 * of one to fragment the heap with.
 */
struct page {
	unsigned long refs; /* the server's, and one per response still sending it */
	size_t len;
	char text[];
};

static void page_put(void *cls)
{
	struct page *p = cls;

	if (p && __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(p);
}

struct metrics_server {
	struct MHD_Daemon *httpd;
	int listen_fd; /* until the server owns it */
	unsigned int connections;
	struct web_config web;
	char *cert_pem, *key_pem; /* read at start: the files may be root's alone */
	struct basic_auth *auth;  /* NULL: no authentication */
	char *start_error;	  /* what the library logged while starting */
	bool serving;		  /* started: later complaints are not errors of ours */
	pthread_mutex_t lock;
	struct page *page; /* the latest rendering; NULL before the first */
};

#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define REALM "auditskip"

static struct MHD_Response *text_response(const char *body, size_t len, bool page)
{
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);

	if (resp)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
					page ? CONTENT_TYPE : "text/plain; charset=utf-8");
	return resp;
}

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, const char *body,
			     size_t len)
{
	struct MHD_Response *resp = text_response(body, len, status == MHD_HTTP_OK);
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* 401 with a WWW-Authenticate challenge, unless the request carries a user's right password. */
static bool authorized(struct metrics_server *m, struct MHD_Connection *conn, enum MHD_Result *ret)
{
	static const char denied[] = "Unauthorized\n";
	struct MHD_Response *resp;
	char *password = NULL;
	char *user;
	bool ok;

	if (!m->auth)
		return true;
	user = MHD_basic_auth_get_username_password(conn, &password);
	ok = user && password && basic_auth_check(m->auth, user, password);
	if (password)
		explicit_bzero(password, strlen(password));
	MHD_free(user);
	MHD_free(password);
	if (ok)
		return true;
	resp = text_response(denied, sizeof(denied) - 1, false);
	*ret = resp ? MHD_queue_basic_auth_fail_response(conn, REALM, resp) : MHD_NO;
	if (resp)
		MHD_destroy_response(resp);
	return false;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	static const char not_found[] = "Not found: auditskip serves /metrics\n";
	static const char not_allowed[] = "Method not allowed: use GET\n";
	static const char not_ready[] = "No counts yet: try again in a moment\n";
	struct metrics_server *m = cls;
	struct MHD_Response *resp;
	struct page *page;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)req_cls;
	/* Who asks comes first: without the password, not even a 404 says what is here. */
	if (!authorized(m, conn, &ret))
		return ret;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, not_allowed,
			     sizeof(not_allowed) - 1);
	if (strcmp(url, "/metrics"))
		return reply(conn, MHD_HTTP_NOT_FOUND, not_found, sizeof(not_found) - 1);
	pthread_mutex_lock(&m->lock);
	page = m->page;
	if (page)
		__atomic_add_fetch(&page->refs, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&m->lock);
	if (!page)
		return reply(conn, MHD_HTTP_SERVICE_UNAVAILABLE, not_ready, sizeof(not_ready) - 1);
	resp = MHD_create_response_from_buffer_with_free_callback_cls(page->len, page->text,
								      page_put, page);
	if (!resp) {
		page_put(page);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, CONTENT_TYPE);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ret;
}

/* The library's first complaint while the daemon starts (a bad key, say); later ones are dropped.
 */
static void log_start_error(void *cls, const char *fmt, va_list ap)
{
	struct metrics_server *m = cls;

	pthread_mutex_lock(&m->lock);
	if (!m->serving && !m->start_error && vasprintf(&m->start_error, fmt, ap) < 0)
		m->start_error = NULL;
	pthread_mutex_unlock(&m->lock);
}

/* PATH whole and NUL-terminated, as the library takes PEM. */
static char *read_pem(const char *path, char *err, size_t err_size)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int c;

	if (!f) {
		snprintf(err, err_size, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	out = open_memstream(&buf, &len);
	while (out && (c = getc(f)) != EOF && len < (1 << 20))
		putc(c, out);
	if (!out || fclose(out) || ferror(f) || !len) {
		snprintf(err, err_size, "cannot read %s: %s", path,
			 ferror(f) ? strerror(EIO) : "empty");
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/*
 * Descriptors for CONNECTIONS_MAX: the hard limit is raised now, while the
 * process may (the command started later inherits only that); the soft
 * one when serving starts. Fewer connections when even the hard limit is
 * lower.
 */
static unsigned int connections_possible(void)
{
	struct rlimit rl;
	rlim_t want = CONNECTIONS_MAX + FD_RESERVE;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 64;
	if (rl.rlim_max < want) {
		struct rlimit more = { .rlim_cur = rl.rlim_cur, .rlim_max = want };

		if (!setrlimit(RLIMIT_NOFILE, &more))
			rl.rlim_max = want;
	}
	if (rl.rlim_max >= want)
		return CONNECTIONS_MAX;
	return rl.rlim_max > 2 * FD_RESERVE ? rl.rlim_max - FD_RESERVE : 64;
}

static void raise_soft_nofile(unsigned int connections)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < connections + FD_RESERVE) {
		rl.rlim_cur = connections + FD_RESERVE < rl.rlim_max ? connections + FD_RESERVE :
								       rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static void metrics_free(struct metrics_server *m)
{
	if (m->listen_fd >= 0)
		close(m->listen_fd);
	basic_auth_free(m->auth);
	webconfig_free(&m->web);
	if (m->key_pem)
		explicit_bzero(m->key_pem, strlen(m->key_pem));
	free(m->key_pem);
	free(m->cert_pem);
	free(m->start_error);
	pthread_mutex_destroy(&m->lock);
	page_put(m->page);
	free(m);
}

/*
 * The certificate and key as the server will load them, checked now so a
 * bad pair is refused before anything is attached, with GnuTLS's reason.
 */
static int key_pair_check(struct metrics_server *m, char *err, size_t err_size)
{
	gnutls_datum_t cert = { (unsigned char *)m->cert_pem, strlen(m->cert_pem) };
	gnutls_datum_t key = { (unsigned char *)m->key_pem, strlen(m->key_pem) };
	gnutls_certificate_credentials_t cred;
	int rc;

	if (gnutls_certificate_allocate_credentials(&cred) < 0) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	rc = gnutls_certificate_set_x509_key_mem(cred, &cert, &key, GNUTLS_X509_FMT_PEM);
	gnutls_certificate_free_credentials(cred);
	if (rc < 0) {
		snprintf(err, err_size, "cert_file %s and key_file %s: %s", m->web.cert_file,
			 m->web.key_file, gnutls_strerror(rc));
		return -1;
	}
	return 0;
}

/* The web configuration and what it names, read while the process may read them. */
static int load_web_config(struct metrics_server *m, const char *path, char *err, size_t err_size)
{
	char why[512];

	if (webconfig_load(path, &m->web, why, sizeof(why))) {
		snprintf(err, err_size, "--web.config.file %s: %s", path, why);
		return -1;
	}
	if (m->web.cert_file) {
		if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES) {
			snprintf(err, err_size,
				 "--web.config.file %s: this libmicrohttpd has no TLS", path);
			return -1;
		}
		m->cert_pem = read_pem(m->web.cert_file, why, sizeof(why));
		m->key_pem = m->cert_pem ? read_pem(m->web.key_file, why, sizeof(why)) : NULL;
		if (!m->key_pem || key_pair_check(m, why, sizeof(why))) {
			snprintf(err, err_size, "--web.config.file %s: %s", path, why);
			return -1;
		}
	}
	if (m->web.nusers) {
		m->auth = basic_auth_new(&m->web);
		if (!m->auth) {
			snprintf(err, err_size, "out of memory");
			return -1;
		}
	}
	return 0;
}

struct metrics_server *metrics_open(const char *addr, const char *web_config, char *err,
				    size_t err_size)
{
	struct metrics_server *m = calloc(1, sizeof(*m));

	if (!m) {
		snprintf(err, err_size, "out of memory");
		return NULL;
	}
	m->listen_fd = -1;
	pthread_mutex_init(&m->lock, NULL);
	if (web_config && load_web_config(m, web_config, err, err_size))
		goto fail;
	m->listen_fd = listen_socket(addr, err, err_size);
	if (m->listen_fd < 0)
		goto fail;
	m->connections = connections_possible();
	return m;
fail:
	metrics_free(m);
	return NULL;
}

int metrics_serve(struct metrics_server *m, char *err, size_t err_size)
{
	unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
	sigset_t all, old;

	if (!m)
		return 0;
	raise_soft_nofile(m->connections);
	if (m->cert_pem)
		flags |= MHD_USE_TLS;
	/* Signals are the main loop's business: the server threads start with them blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	/* The TLS options are ignored without MHD_USE_TLS; NULL keys are not read then. */
	m->httpd = MHD_start_daemon(flags, 0, NULL, NULL, answer, m, MHD_OPTION_EXTERNAL_LOGGER,
				    log_start_error, m, MHD_OPTION_LISTEN_SOCKET, m->listen_fd,
				    MHD_OPTION_THREAD_POOL_SIZE, (unsigned int)SERVER_THREADS,
				    MHD_OPTION_CONNECTION_LIMIT, m->connections,
				    MHD_OPTION_PER_IP_CONNECTION_LIMIT, m->connections / 2,
				    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)IDLE_TIMEOUT_S,
				    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)CONNECTION_MEMORY,
				    m->cert_pem ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END,
				    m->cert_pem, MHD_OPTION_HTTPS_MEM_KEY, m->key_pem,
				    MHD_OPTION_HTTPS_PRIORITIES, TLS_PRIORITIES, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!m->httpd) {
		snprintf(err, err_size, "cannot start the HTTP%s server%s%s",
			 m->cert_pem ? "S" : "", m->start_error ? ": " : "",
			 m->start_error ? m->start_error : "");
		/* Strip the library's trailing newline. */
		if (strlen(err) && err[strlen(err) - 1] == '\n')
			err[strlen(err) - 1] = '\0';
		return -1;
	}
	pthread_mutex_lock(&m->lock);
	m->serving = true;
	pthread_mutex_unlock(&m->lock);
	/* The server closes it when it stops. */
	m->listen_fd = -1;
	return 0;
}

void metrics_update(struct metrics_server *m, const struct run_state *r,
		    const struct counts_snapshot *total)
{
	struct page *page, *old;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	if (!m)
		return;
	/* Scrapes keep the previous page when anything here fails. */
	out = open_memstream(&text, &len);
	if (!out)
		return;
	metrics_render(out, r, total);
	if (fclose(out)) {
		free(text);
		return;
	}
	page = malloc(sizeof(*page) + len);
	if (page) {
		page->refs = 1;
		page->len = len;
		memcpy(page->text, text, len);
	}
	free(text);
	if (!page)
		return;
	pthread_mutex_lock(&m->lock);
	old = m->page;
	m->page = page;
	pthread_mutex_unlock(&m->lock);
	page_put(old);
	/*
	 * A burst of clients leaves the server threads' heaps with free pages
	 * in between live blocks; give those back, so the process's RSS shows
	 * what it holds, not the largest burst it ever saw.
	 */
	malloc_trim(0);
}

bool metrics_tls(const struct metrics_server *m)
{
	return m && m->cert_pem;
}

void metrics_stop(struct metrics_server *m)
{
	if (!m)
		return;
	/* This also closes the listening socket, although the library was given it. */
	if (m->httpd)
		MHD_stop_daemon(m->httpd);
	metrics_free(m);
}

#endif /* AUDITSKIP_NO_HTTP */
