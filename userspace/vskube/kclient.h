/* SPDX-License-Identifier: Apache-2.0 */
/*
 * vskube's HTTP client of the API server, on libcurl's multi interface.
 *
 * Everything runs in the caller's thread: requests and watch streams are
 * started, and kcl_poll() waits on their sockets and on the caller's own
 * file descriptors (vschedd's socket), moves the transfers on and calls
 * back. A request calls @done once, with the HTTP status and the whole
 * body; a watch calls @line for every line of the stream (one WatchEvent
 * of JSON each) as it arrives, then @done when the stream ends. A
 * request that never reached an answer calls @done with status 0 and
 * libcurl's words for why.
 *
 *	struct kcl *c = kcl_new(&cfg, &err);
 *	kcl_request(c, "GET", "/api/v1/nodes?limit=500", NULL, NULL, 0, got, ctx);
 *	while (kcl_pending(c))
 *		kcl_poll(c, NULL, 0, 1000, &err);
 *
 * Authentication and TLS come from the configuration (kubeconfig.h): a
 * bearer token, a client certificate and key, basic authentication; the
 * CA to verify the server with, or no verification when the kubeconfig
 * says insecure-skip-tls-verify.
 */
#ifndef VSKUBE_KCLIENT_H
#define VSKUBE_KCLIENT_H

#include <stddef.h>
#include <curl/curl.h>

#include "lib/compiler.h"
#include "lib/vsnl.h"
#include "vskube/kubeconfig.h"

struct kcl;
struct kcl_req;

/*
 * The end of a request or a watch: @status is the HTTP status, 0 when
 * there was none (@why then says what went wrong: "Couldn't connect to
 * server"). @body holds what a request received, NUL-terminated (a
 * watch's is empty). The request is freed when this returns.
 */
typedef void (*kcl_done_fn)(struct kcl_req *r, long status, const char *body, size_t len,
			    const char *why, void *ctx);

/* One line of a watch stream, without its '\n' and NUL-terminated. Non-zero stops the watch. */
typedef int (*kcl_line_fn)(struct kcl_req *r, const char *line, size_t len, void *ctx);

/*
 * A client of @cfg's server (which must outlive it); NULL with @err when
 * it cannot be had. With a token file (cfg->token_file) the client reads
 * it again into cfg->token each minute, and after a 401, as client-go does.
 */
struct kcl *kcl_new(struct kc_config *cfg, struct vsnl_err *err);

/* Stop every request (no callback) and free the client. */
void kcl_free(struct kcl *c);

/*
 * Start @method on @path (from the root: "/api/v1/nodes?limit=500") with
 * @body of @len bytes and its @ctype (NULL: none). NULL when out of memory.
 */
struct kcl_req *kcl_request(struct kcl *c, const char *method, const char *path,
			    const char *ctype, const char *body, size_t len, kcl_done_fn done,
			    void *ctx);

/* Start a watch stream: GET @path, which asks for watch=1. */
struct kcl_req *kcl_watch(struct kcl *c, const char *path, kcl_line_fn line, kcl_done_fn done,
			  void *ctx);

/* Stop @r now; its @done is not called. */
void kcl_cancel(struct kcl_req *r);

/*
 * Move the transfers on without waiting: a request just started is sent
 * now rather than at the next kcl_poll(). Transfers that end are finished
 * at the next kcl_poll(); a watch's lines may be told from here.
 */
void kcl_kick(struct kcl *c);

/* Requests and watches not yet done. */
u32 kcl_pending(const struct kcl *c);

/*
 * Wait up to @timeout_ms for any transfer or any of the @nr @extra file
 * descriptors (their revents say which), move the transfers on and call
 * their callbacks. 0, or -EIO with @err when libcurl fails.
 */
int kcl_poll(struct kcl *c, struct curl_waitfd *extra, unsigned int nr, int timeout_ms,
	     struct vsnl_err *err);

/*
 * One request to its end, waiting here: *@status and the body in *@body
 * (NUL-terminated, the caller frees it; may be NULL). 0 when an answer
 * came, whatever its status; -EIO with @err when none did.
 */
int kcl_call(struct kcl *c, const char *method, const char *path, const char *ctype,
	     const char *body, long *status, char **resp, size_t *len, struct vsnl_err *err);

/* The largest body a request keeps, and the longest line of a watch. */
#define KCL_BODY_MAX	(512u << 20)
#define KCL_LINE_MAX	(64u << 20)

#endif /* VSKUBE_KCLIENT_H */
