/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vskube's own HTTP endpoint: /metrics for Prometheus, /healthz and
 * /readyz for the kubelet's probes, served on the bridge's one thread.
 *
 * libmicrohttpd runs without threads of its own, in epoll mode: the
 * server is one file descriptor that the caller adds to its poll set
 * (beside libcurl's sockets, through kcl_poll()'s extra descriptors),
 * waits no longer than kserve_timeout_ms() says, and calls kserve_run()
 * after the wait. libmicrohttpd wants it run after any wait that
 * timeout bounded, whether the descriptor is readable or not, and it
 * returns at once when nothing is due, so the simplest loop runs it
 * after every wait:
 *
 *	struct curl_waitfd w = { .fd = kserve_fd(ks), .events = CURL_WAIT_POLLIN };
 *	int t = kserve_timeout_ms(ks);
 *
 *	kcl_poll(c, &w, 1, t >= 0 && t < wait_ms ? t : wait_ms, &err);
 *	kserve_run(ks, &err);
 *
 * The metrics are a registry (lib/prom.h) the caller fills at start and
 * updates with calls that only store numbers; every scrape renders it in
 * Prometheus' text format 0.0.4, followed by what the caller's gather()
 * puts in a registry made for that scrape.
 */
#ifndef VSKUBE_KSERVE_H
#define VSKUBE_KSERVE_H

#include <stddef.h>

#include "lib/compiler.h"
#include "lib/prom.h"
#include "lib/vsnl.h"

/* ------------------------------------------------------------------------- */
/* The server. */

/*
 * The address to listen on, as Volcano's --listen-address and Kubernetes'
 * flags write it: "HOST:PORT", ":PORT" (every address, IPv6 and IPv4),
 * "[IPv6]:PORT". Port 0 asks for a free one (kserve_port() tells which).
 */
struct kserve_addr {
	char host[256];			/* "" for every address; no brackets */
	u16 port;
};

/*
 * 0, or -EINVAL with @err naming the @flag the address came from
 * ("--listen-address"; NULL: "listen address"), quoting @text and saying
 * what is wrong with it.
 */
int kserve_parse_addr(const char *flag, const char *text, struct kserve_addr *out,
		      struct vsnl_err *err);

struct kserve;

struct kserve_ops {
	/*
	 * Whether the bridge is alive (/healthz) and ready (/readyz): 0, or
	 * non-zero with the reason in @why, which the probe answers with a
	 * 500. NULL: always. Called on the caller's thread, in kserve_run().
	 */
	int (*healthz)(void *ctx, struct vsnl_err *why);
	int (*readyz)(void *ctx, struct vsnl_err *why);
	/* libmicrohttpd's messages once serving (a client gone): NULL drops them. */
	void (*log)(void *ctx, const char *msg);
	/*
	 * Metrics whose series are only known at the scrape (the scheduler's
	 * queues): called on each GET or HEAD of /metrics with an empty
	 * registry of its own to fill, rendered after the fixed one and freed
	 * after the scrape. Non-zero leaves it out of that scrape. NULL: none.
	 */
	int (*gather)(void *ctx, struct vsnl_prom_reg *reg);
};

/*
 * Listen on @addr, given by @flag (kserve_parse_addr()), and serve @reg's
 * metrics (NULL: an empty page) and @ops' probes (NULL: always ok); @reg,
 * @ops and @ctx outlive the server. NULL with @err (naming the flag and
 * the address) when the address is not one or cannot be listened on.
 */
struct kserve *kserve_new(const char *flag, const char *addr, const struct vsnl_prom_reg *reg,
			  const struct kserve_ops *ops, void *ctx, struct vsnl_err *err);

/* Close the listening socket and every connection. */
void kserve_free(struct kserve *ks);

/* The one descriptor to poll for reading (libmicrohttpd's epoll set). */
int kserve_fd(const struct kserve *ks);

/* The longest the caller may wait before kserve_run(): -1 for as long as it likes. */
int kserve_timeout_ms(struct kserve *ks);

/*
 * Accept, read, answer and time out what is due, without blocking.
 * Harmless when nothing is. 0, or -EIO with @err.
 */
int kserve_run(struct kserve *ks, struct vsnl_err *err);

/* The port listened on: the one chosen when the address asked for 0. */
u16 kserve_port(const struct kserve *ks);

/* Bounds on what a client can make the server hold. */
#define KSERVE_CONN_MAX		64		/* connections at once */
#define KSERVE_CONN_MEMORY	(32u << 10)	/* a request's line and headers */
#define KSERVE_CONN_TIMEOUT_S	60		/* an idle or slow connection */

#endif /* VSKUBE_KSERVE_H */
