// SPDX-License-Identifier: Apache-2.0
/*
 * vskube's /metrics, /healthz and /readyz: see kserve.h. The metrics
 * themselves are lib/prom.h's.
 *
 * The server is libmicrohttpd in epoll mode with no thread of its own:
 * it runs only inside kserve_run(), on the caller's thread, so a probe's
 * callback and a scrape's render see the caller's state as it is between
 * two of its steps. Every request is answered on the first call of the
 * access handler, before any body is read: nothing a client sends is
 * kept beyond the connection's memory pool.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "vskube/kserve.h"

/* What messages call the address when the caller names no flag. */
#define KSERVE_FLAG	"listen address"
#define KSERVE_ADDR_WANT "want HOST:PORT, :PORT or [IPv6]:PORT"

struct kserve {
	struct MHD_Daemon *daemon;
	const struct vsnl_prom_reg *reg;
	const struct kserve_ops *ops;
	void *ctx;
	int fd;				/* MHD's epoll set */
	u16 port;
	bool started;			/* MHD's messages go to ops->log, not into @msg */
	size_t hint;			/* the last exposition's length */
	char msg[VSNL_ERR_MSG_MAX];	/* MHD's last message while starting */
};

/* ------------------------------------------------------------------------- */
/* The listen address. */

static int addr_fail(struct vsnl_err *err, const char *flag, const char *text, const char *fmt,
		     ...) __printf(4, 5);

static int addr_fail(struct vsnl_err *err, const char *flag, const char *text, const char *fmt,
		     ...)
{
	char why[VSNL_ERR_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return vsnl_err_set(err, EINVAL, "%s \"%.64s\": %s", flag ? flag : KSERVE_FLAG, text, why);
}

/* As Go's net.SplitHostPort, then a port that is a number: no service names. */
int kserve_parse_addr(const char *flag, const char *text, struct kserve_addr *out,
		      struct vsnl_err *err)
{
	const char *host, *port, *colon;
	size_t host_len;
	unsigned long n;

	memset(out, 0, sizeof(*out));
	if (!text || !*text)
		return addr_fail(err, flag, "", "empty (" KSERVE_ADDR_WANT ")");
	if (text[0] == '[') {
		const char *close = strchr(text, ']');

		if (!close)
			return addr_fail(err, flag, text, "missing ']' after the IPv6 address");
		if (!close[1])
			return addr_fail(err, flag, text, "missing port (" KSERVE_ADDR_WANT ")");
		if (close[1] != ':')
			return addr_fail(err, flag, text, "'%c' after ']': a ':' and the port "
					 "must follow", close[1]);
		host = text + 1;
		host_len = (size_t)(close - host);
		port = close + 2;
		if (!host_len)
			return addr_fail(err, flag, text, "no address between '[' and ']'");
	} else {
		colon = strrchr(text, ':');
		if (!colon)
			return addr_fail(err, flag, text, "missing port (" KSERVE_ADDR_WANT ")");
		host = text;
		host_len = (size_t)(colon - text);
		port = colon + 1;
		if (memchr(host, ':', host_len))
			return addr_fail(err, flag, text, "too many colons: an IPv6 address "
					 "goes in brackets, as [::1]:8080");
	}
	if (memchr(host, '[', host_len) || memchr(host, ']', host_len) || strchr(port, '[') ||
	    strchr(port, ']'))
		return addr_fail(err, flag, text, "a '[' or ']' out of place");
	if (host_len >= sizeof(out->host))
		return addr_fail(err, flag, text, "the host is longer than %zu bytes",
				 sizeof(out->host) - 1);
	if (!*port)
		return addr_fail(err, flag, text, "missing port (" KSERVE_ADDR_WANT ")");
	/* Digits only: strtoul() would take a sign, spaces and 0x. */
	if (strspn(port, "0123456789") != strlen(port) || strlen(port) > 5)
		return addr_fail(err, flag, text, "port \"%.16s\" is not a number from 0 to 65535",
				 port);
	n = strtoul(port, NULL, 10);
	if (n > 65535)
		return addr_fail(err, flag, text, "port %lu is not a number from 0 to 65535", n);
	memcpy(out->host, host, host_len);
	out->host[host_len] = '\0';
	out->port = (u16)n;
	return 0;
}

union kserve_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
};

/*
 * Where to bind: every address is IPv6's any with IPv4 mapped (as Go
 * listens on ":8080"), or IPv4's any where the kernel has no IPv6; a
 * host is resolved, its first IPv4 address preferred, as Go does.
 */
static int resolve(const struct kserve_addr *a, const char *flag, const char *text,
		   union kserve_sockaddr *out, bool *dual, struct vsnl_err *err)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE };
	struct addrinfo *res, *pick = NULL;
	int fd, rc;

	memset(out, 0, sizeof(*out));
	*dual = false;
	if (!a->host[0]) {
		fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd >= 0) {
			close(fd);
			out->in6.sin6_family = AF_INET6;
			out->in6.sin6_addr = in6addr_any;
			out->in6.sin6_port = htons(a->port);
			*dual = true;
		} else {
			out->in.sin_family = AF_INET;
			out->in.sin_addr.s_addr = htonl(INADDR_ANY);
			out->in.sin_port = htons(a->port);
		}
		return 0;
	}
	/* A host with a ':' can only be an IPv6 address: no name to look up. */
	if (strchr(a->host, ':'))
		hints.ai_flags |= AI_NUMERICHOST;
	rc = getaddrinfo(a->host, NULL, &hints, &res);
	if (rc)
		return vsnl_err_set(err, EINVAL, "%s \"%.64s\": %s: %s", flag, text, a->host,
				    gai_strerror(rc));
	for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET) {
			pick = ai;
			break;
		}
		if (ai->ai_family == AF_INET6 && !pick)
			pick = ai;
	}
	/* An IPv4 or IPv6 address: either fits. */
	if (pick)
		memcpy(out, pick->ai_addr,
		       pick->ai_addrlen < sizeof(*out) ? pick->ai_addrlen : sizeof(*out));
	freeaddrinfo(res);
	if (!pick)
		return vsnl_err_set(err, EINVAL, "%s \"%.64s\": %s has no IP address", flag,
				    text, a->host);
	if (out->sa.sa_family == AF_INET) {
		out->in.sin_port = htons(a->port);
	} else {
		out->in6.sin6_port = htons(a->port);
		*dual = IN6_IS_ADDR_UNSPECIFIED(&out->in6.sin6_addr);
	}
	return 0;
}

/* ------------------------------------------------------------------------- */
/* The server. */

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, const char *text,
			     size_t len, enum MHD_ResponseMemoryMode mode, const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)text, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free((void *)text);
		return MHD_NO;
	}
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) != MHD_YES ||
	    (status == MHD_HTTP_METHOD_NOT_ALLOWED &&
	     MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES)) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned int status,
				  const char *text)
{
	return reply(conn, status, text, strlen(text), MHD_RESPMEM_PERSISTENT,
		     "text/plain; charset=utf-8");
}

/* What the owner's gather() finds at this scrape, appended to @text; false when out of memory. */
static bool append_gathered(struct kserve *ks, char **text, size_t *len)
{
	struct vsnl_prom_reg *reg;
	size_t more = 0;
	char *extra = NULL, *all;
	bool ok = true;

	if (!ks->ops || !ks->ops->gather)
		return true;
	reg = vsnl_prom_reg_new();
	if (!reg)
		return false;
	if (!ks->ops->gather(ks->ctx, reg)) {
		extra = vsnl_prom_render(reg, 0, &more);
		ok = extra;
	}
	if (more) {
		all = realloc(*text, *len + more + 1);
		if (all) {
			memcpy(all + *len, extra, more + 1);
			*text = all;
			*len += more;
		}
		ok = all;
	}
	free(extra);
	vsnl_prom_reg_free(reg);
	return ok;
}

static enum MHD_Result serve_metrics(struct kserve *ks, struct MHD_Connection *conn)
{
	size_t len = 0;
	char *text = vsnl_prom_render(ks->reg, ks->hint, &len);

	if (text)
		ks->hint = len;
	if (!text || !append_gathered(ks, &text, &len)) {
		free(text);
		return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	}
	return reply(conn, MHD_HTTP_OK, text, len, MHD_RESPMEM_MUST_FREE, VSNL_PROM_CONTENT_TYPE);
}

/* "ok", as Kubernetes' components answer; else the check's reason with a 500. */
static enum MHD_Result serve_check(struct MHD_Connection *conn,
				  int (*check)(void *ctx, struct vsnl_err *why), void *ctx,
				  const char *fallback)
{
	struct vsnl_err why = { 0 };

	if (!check || !check(ctx, &why))
		return reply_text(conn, MHD_HTTP_OK, "ok");
	if (!why.msg[0])
		snprintf(why.msg, sizeof(why.msg), "%s", fallback);
	return reply(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, why.msg, strlen(why.msg),
		     MHD_RESPMEM_MUST_COPY, "text/plain; charset=utf-8");
}

static enum MHD_Result serve_healthz(struct kserve *ks, struct MHD_Connection *conn)
{
	return serve_check(conn, ks->ops ? ks->ops->healthz : NULL, ks->ctx, "not healthy");
}

static enum MHD_Result serve_readyz(struct kserve *ks, struct MHD_Connection *conn)
{
	return serve_check(conn, ks->ops ? ks->ops->readyz : NULL, ks->ctx, "not ready");
}

static const struct kserve_route {
	const char *path;
	enum MHD_Result (*serve)(struct kserve *ks, struct MHD_Connection *conn);
} routes[] = {
	{ .path = "/metrics", .serve = serve_metrics },
	{ .path = "/healthz", .serve = serve_healthz },
	{ .path = "/readyz", .serve = serve_readyz },
};

/*
 * Answered on the first call, whatever the request carries: a body is
 * never read (libmicrohttpd closes the connection after answering one
 * it did not read), and a query string is not part of @url.
 */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **state)
{
	struct kserve *ks = cls;

	for (size_t i = 0; i < ARRAY_SIZE(routes); i++) {
		if (strcmp(url, routes[i].path))
			continue;
		if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
			return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
					  "405 method not allowed\n");
		return routes[i].serve(ks, conn);
	}
	return reply_text(conn, MHD_HTTP_NOT_FOUND, "404 page not found\n");
}

static void on_log(void *cls, const char *fmt, va_list ap) __printf(2, 0);

/* While starting, the last message is the reason kserve_new() gives; then the owner's. */
static void on_log(void *cls, const char *fmt, va_list ap)
{
	struct kserve *ks = cls;
	size_t len;

	vsnprintf(ks->msg, sizeof(ks->msg), fmt, ap);
	len = strlen(ks->msg);
	while (len && (ks->msg[len - 1] == '\n' || ks->msg[len - 1] == '.'))
		ks->msg[--len] = '\0';
	if (ks->started && ks->ops && ks->ops->log)
		ks->ops->log(ks->ctx, ks->msg);
}

struct kserve *kserve_new(const char *flag, const char *addr, const struct vsnl_prom_reg *reg,
			  const struct kserve_ops *ops, void *ctx, struct vsnl_err *err)
{
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	const union MHD_DaemonInfo *info;
	union kserve_sockaddr sa;
	struct kserve_addr a;
	struct kserve *ks;
	bool dual;

	if (!flag)
		flag = KSERVE_FLAG;
	if (kserve_parse_addr(flag, addr, &a, err) || resolve(&a, flag, addr, &sa, &dual, err))
		return NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		vsnl_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	ks->reg = reg;
	ks->ops = ops;
	ks->ctx = ctx;
	if (sa.sa.sa_family == AF_INET6)
		flags |= dual ? MHD_USE_DUAL_STACK : MHD_USE_IPv6;
	/* The logger first, so that a failure to bind is told to it. */
	ks->daemon = MHD_start_daemon(flags, a.port, NULL, NULL, on_request, ks,
				      MHD_OPTION_EXTERNAL_LOGGER, on_log, ks,
				      MHD_OPTION_SOCK_ADDR, &sa.sa,
				      MHD_OPTION_CONNECTION_LIMIT, (unsigned int)KSERVE_CONN_MAX,
				      MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				      (size_t)KSERVE_CONN_MEMORY,
				      MHD_OPTION_CONNECTION_TIMEOUT,
				      (unsigned int)KSERVE_CONN_TIMEOUT_S,
				      MHD_OPTION_END);
	if (!ks->daemon) {
		vsnl_err_set(err, EADDRNOTAVAIL, "%s \"%.64s\": %s", flag, addr,
			     ks->msg[0] ? ks->msg : "cannot listen");
		free(ks);
		return NULL;
	}
	info = MHD_get_daemon_info(ks->daemon, MHD_DAEMON_INFO_BIND_PORT);
	ks->port = info && info->port ? info->port : a.port;
	info = MHD_get_daemon_info(ks->daemon, MHD_DAEMON_INFO_EPOLL_FD);
	ks->fd = info ? info->epoll_fd : -1;
	ks->started = true;
	return ks;
}

void kserve_free(struct kserve *ks)
{
	if (!ks)
		return;
	MHD_stop_daemon(ks->daemon);
	free(ks);
}

int kserve_fd(const struct kserve *ks)
{
	return ks->fd;
}

int kserve_timeout_ms(struct kserve *ks)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (MHD_get_timeout(ks->daemon, &ms) != MHD_YES)
		return -1;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

int kserve_run(struct kserve *ks, struct vsnl_err *err)
{
	if (MHD_run(ks->daemon) != MHD_YES)
		return vsnl_err_set(err, EIO, "libmicrohttpd: the server cannot be run");
	return 0;
}

u16 kserve_port(const struct kserve *ks)
{
	return ks->port;
}
