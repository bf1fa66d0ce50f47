// SPDX-License-Identifier: Apache-2.0
/*
 * vskube's HTTP client: see kclient.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <netlink/list.h>

#include "lib/log.h"
#include "vskube/kclient.h"

#define KCL_CONNECT_MS	10000
#define KCL_REQUEST_MS	300000		/* a list page of a large cluster, or a slow server */
#define KCL_USER_AGENT	"vskube/" VSCHED_VERSION
#define KCL_TOKEN_MAX_AGE_MS 60000	/* client-go reads a token file again each minute */

struct kcl {
	struct kc_config *cfg;
	u64 token_read_ms;		/* when the token file was last read */
	bool token_stale;		/* a 401 answered it: read the file before the next request */
	CURLM *multi;
	struct curl_slist *connect_to;	/* tls-server-name: the name in the URL, the host to reach */
	char *base;			/* scheme://host[:port][/path], the host as TLS should see it */
	struct nl_list_head reqs;
	u32 nr;
};

struct kcl_req {
	struct kcl *c;
	struct nl_list_head node;
	CURL *easy;
	struct curl_slist *headers;
	char errbuf[CURL_ERROR_SIZE];
	char *buf;			/* a request's body; a watch's unfinished line */
	size_t len, cap;
	bool watch;
	bool stopped;			/* the line callback asked to stop */
	bool too_big;
	kcl_line_fn line;
	kcl_done_fn done;
	void *ctx;
};

static bool curl_ready;

/* Where TLS must see another name than the server's (kubeconfig tls-server-name). */
static int set_server(struct kcl *c, struct vsnl_err *err)
{
	const char *sni = c->cfg->tls_server_name;
	char *host = NULL, *port = NULL, *url = NULL, *map = NULL;
	CURLU *u;
	int ret = 0;

	if (!sni || !*sni) {
		c->base = strdup(c->cfg->server);
		return c->base ? 0 : vsnl_err_set(err, ENOMEM, "out of memory");
	}
	u = curl_url();
	if (!u)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	if (curl_url_set(u, CURLUPART_URL, c->cfg->server, 0) ||
	    curl_url_get(u, CURLUPART_HOST, &host, 0) ||
	    curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT)) {
		ret = vsnl_err_set(err, EINVAL, "server %s: not a URL libcurl takes",
				   c->cfg->server);
		goto out;
	}
	/* The URL names the TLS name; connections go to the real host. */
	if (curl_url_set(u, CURLUPART_HOST, sni, 0) || curl_url_get(u, CURLUPART_URL, &url, 0)) {
		ret = vsnl_err_set(err, EINVAL, "tls-server-name %s: not a host name", sni);
		goto out;
	}
	if (asprintf(&map, "%s:%s:%s:%s", sni, port, host, port) < 0) {
		map = NULL;
		ret = vsnl_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	c->connect_to = curl_slist_append(NULL, map);
	c->base = strdup(url);
	if (!c->connect_to || !c->base)
		ret = vsnl_err_set(err, ENOMEM, "out of memory");
	else {
		/* curl_url_get() gives "https://name/" for a bare host: no trailing '/'. */
		size_t n = strlen(c->base);

		while (n && c->base[n - 1] == '/')
			c->base[--n] = '\0';
	}
out:
	free(map);
	curl_free(url);
	curl_free(host);
	curl_free(port);
	curl_url_cleanup(u);
	return ret;
}

static u64 clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000 + (u64)ts.tv_nsec / 1000000;
}

/*
 * Service account tokens are rotated: as client-go's cached token source,
 * read the file again when the token is a minute old, and (sooner) after
 * the server refused it. A file that cannot be read keeps the token we had.
 */
static void token_refresh(struct kcl *c)
{
	struct vsnl_err e = { 0 };
	u64 now;

	if (!c->cfg->token_file)
		return;
	now = clock_ms();
	if (!c->token_stale && now - c->token_read_ms < KCL_TOKEN_MAX_AGE_MS)
		return;
	if (kc_reload_token(c->cfg, &e))
		vsnl_error("unable to rotate the token: %s", e.msg);
	c->token_read_ms = now;
	c->token_stale = false;
}

struct kcl *kcl_new(struct kc_config *cfg, struct vsnl_err *err)
{
	struct kcl *c;

	if (!curl_ready) {
		if (curl_global_init(CURL_GLOBAL_DEFAULT)) {
			vsnl_err_set(err, EIO, "libcurl would not start");
			return NULL;
		}
		curl_ready = true;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		vsnl_err_set(err, ENOMEM, "out of memory");
		return NULL;
	}
	c->cfg = cfg;
	c->token_read_ms = clock_ms();
	NL_INIT_LIST_HEAD(&c->reqs);
	c->multi = curl_multi_init();
	if (!c->multi) {
		vsnl_err_set(err, ENOMEM, "out of memory");
		kcl_free(c);
		return NULL;
	}
	if (set_server(c, err)) {
		kcl_free(c);
		return NULL;
	}
	return c;
}

static void req_free(struct kcl_req *r)
{
	struct kcl *c = r->c;

	nl_list_del(&r->node);
	c->nr--;
	if (r->easy) {
		curl_multi_remove_handle(c->multi, r->easy);
		curl_easy_cleanup(r->easy);
	}
	curl_slist_free_all(r->headers);
	free(r->buf);
	free(r);
}

void kcl_free(struct kcl *c)
{
	struct kcl_req *r, *tmp;

	if (!c)
		return;
	nl_list_for_each_entry_safe(r, tmp, &c->reqs, node)
		req_free(r);
	if (c->multi)
		curl_multi_cleanup(c->multi);
	curl_slist_free_all(c->connect_to);
	free(c->base);
	free(c);
}

void kcl_cancel(struct kcl_req *r)
{
	req_free(r);
}

u32 kcl_pending(const struct kcl *c)
{
	return c->nr;
}

/* Room for @n more bytes (and a NUL) in @r's buffer. */
static bool buf_room(struct kcl_req *r, size_t n, size_t max)
{
	size_t cap = r->cap ? r->cap : 4096;
	char *p;

	if (r->len + n + 1 <= r->cap)
		return true;
	if (r->len + n + 1 > max + 1)
		return false;
	while (cap < r->len + n + 1)
		cap *= 2;
	p = realloc(r->buf, cap);
	if (!p)
		return false;
	r->buf = p;
	r->cap = cap;
	return true;
}

/* Hand each complete line to the caller; keep the rest. */
static bool watch_lines(struct kcl_req *r)
{
	size_t start = 0;
	char *nl;

	while (start < r->len && (nl = memchr(r->buf + start, '\n', r->len - start))) {
		size_t n = (size_t)(nl - (r->buf + start));

		*nl = '\0';
		if (n && r->line(r, r->buf + start, n, r->ctx)) {
			r->stopped = true;
			return false;
		}
		start += n + 1;
	}
	memmove(r->buf, r->buf + start, r->len - start);
	r->len -= start;
	return true;
}

static size_t on_data(char *data, size_t size, size_t nmemb, void *arg)
{
	struct kcl_req *r = arg;
	size_t n = size * nmemb;
	long status = 0;
	bool lines;

	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &status);
	/* A watch refused outright answers with a Status, not events: keep it whole. */
	lines = r->watch && status >= 200 && status < 300;
	if (!buf_room(r, n, lines ? KCL_LINE_MAX : KCL_BODY_MAX)) {
		r->too_big = true;
		return 0;	/* CURLE_WRITE_ERROR ends the transfer */
	}
	memcpy(r->buf + r->len, data, n);
	r->len += n;
	r->buf[r->len] = '\0';
	if (lines && !watch_lines(r))
		return 0;
	return n;
}

static struct kcl_req *req_new(struct kcl *c, const char *method, const char *path,
			       const char *ctype, const char *body, size_t len, bool watch)
{
	const struct kc_config *cfg = c->cfg;
	struct kcl_req *r = calloc(1, sizeof(*r));
	char *url = NULL, *auth = NULL, *type = NULL;
	bool ok;

	if (!r)
		return NULL;
	token_refresh(c);
	r->c = c;
	r->watch = watch;
	nl_list_add_tail(&r->node, &c->reqs);
	c->nr++;
	r->easy = curl_easy_init();
	if (!r->easy || asprintf(&url, "%s%s", c->base, path) < 0) {
		url = NULL;
		goto fail;
	}
	r->headers = curl_slist_append(NULL, "Accept: application/json");
	ok = r->headers != NULL;
	if (ok && cfg->token) {
		ok = asprintf(&auth, "Authorization: Bearer %s", cfg->token) >= 0;
		if (!ok)
			auth = NULL;
		ok = ok && curl_slist_append(r->headers, auth);
	}
	if (ok && ctype) {
		ok = asprintf(&type, "Content-Type: %s", ctype) >= 0;
		if (!ok)
			type = NULL;
		ok = ok && curl_slist_append(r->headers, type);
	}
	free(auth);
	free(type);
	if (!ok)
		goto fail;

	curl_easy_setopt(r->easy, CURLOPT_URL, url);
	curl_easy_setopt(r->easy, CURLOPT_HTTPHEADER, r->headers);
	curl_easy_setopt(r->easy, CURLOPT_USERAGENT, KCL_USER_AGENT);
	curl_easy_setopt(r->easy, CURLOPT_ERRORBUFFER, r->errbuf);
	curl_easy_setopt(r->easy, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(r->easy, CURLOPT_WRITEDATA, r);
	curl_easy_setopt(r->easy, CURLOPT_PRIVATE, r);
	curl_easy_setopt(r->easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(r->easy, CURLOPT_CONNECTTIMEOUT_MS, (long)KCL_CONNECT_MS);
	curl_easy_setopt(r->easy, CURLOPT_TCP_KEEPALIVE, 1L);
	curl_easy_setopt(r->easy, CURLOPT_TCP_KEEPIDLE, 30L);
	curl_easy_setopt(r->easy, CURLOPT_TCP_KEEPINTVL, 15L);
	if (!watch)
		curl_easy_setopt(r->easy, CURLOPT_TIMEOUT_MS, (long)KCL_REQUEST_MS);
	if (c->connect_to)
		curl_easy_setopt(r->easy, CURLOPT_CONNECT_TO, c->connect_to);
	if (strcmp(method, "GET"))
		curl_easy_setopt(r->easy, CURLOPT_CUSTOMREQUEST, method);
	if (body) {
		curl_easy_setopt(r->easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
		curl_easy_setopt(r->easy, CURLOPT_COPYPOSTFIELDS, body);
	}
	if (cfg->username) {
		curl_easy_setopt(r->easy, CURLOPT_USERNAME, cfg->username);
		curl_easy_setopt(r->easy, CURLOPT_PASSWORD, cfg->password ? cfg->password : "");
	}
	if (cfg->ca.data) {
		struct curl_blob b = { cfg->ca.data, cfg->ca.len, CURL_BLOB_COPY };

		curl_easy_setopt(r->easy, CURLOPT_CAINFO_BLOB, &b);
	}
	if (cfg->cert.data) {
		struct curl_blob cert = { cfg->cert.data, cfg->cert.len, CURL_BLOB_COPY };
		struct curl_blob key = { cfg->key.data, cfg->key.len, CURL_BLOB_COPY };

		curl_easy_setopt(r->easy, CURLOPT_SSLCERT_BLOB, &cert);
		curl_easy_setopt(r->easy, CURLOPT_SSLCERTTYPE, "PEM");
		curl_easy_setopt(r->easy, CURLOPT_SSLKEY_BLOB, &key);
		curl_easy_setopt(r->easy, CURLOPT_SSLKEYTYPE, "PEM");
	}
	if (cfg->insecure) {
		curl_easy_setopt(r->easy, CURLOPT_SSL_VERIFYPEER, 0L);
		curl_easy_setopt(r->easy, CURLOPT_SSL_VERIFYHOST, 0L);
	}
	free(url);
	if (curl_multi_add_handle(c->multi, r->easy) != CURLM_OK)
		goto fail_nourl;
	return r;

fail:
	free(url);
fail_nourl:
	req_free(r);
	return NULL;
}

struct kcl_req *kcl_request(struct kcl *c, const char *method, const char *path,
			    const char *ctype, const char *body, size_t len, kcl_done_fn done,
			    void *ctx)
{
	struct kcl_req *r = req_new(c, method, path, ctype, body, len, false);

	if (r) {
		r->done = done;
		r->ctx = ctx;
	}
	return r;
}

struct kcl_req *kcl_watch(struct kcl *c, const char *path, kcl_line_fn line, kcl_done_fn done,
			  void *ctx)
{
	struct kcl_req *r = req_new(c, "GET", path, NULL, NULL, 0, true);

	if (r) {
		r->line = line;
		r->done = done;
		r->ctx = ctx;
	}
	return r;
}

/* A transfer ended: tell its owner, then free it. */
static void finish(struct kcl_req *r, CURLcode res)
{
	long status = 0;
	const char *why = NULL;
	bool lines;

	curl_easy_getinfo(r->easy, CURLINFO_RESPONSE_CODE, &status);
	if (status == 401)
		r->c->token_stale = true;
	lines = r->watch && status >= 200 && status < 300;
	if (r->too_big)
		why = lines ? "a watch event longer than the limit" : "a body larger than the limit";
	else if (r->stopped)
		why = "stopped";
	else if (res != CURLE_OK)
		why = r->errbuf[0] ? r->errbuf : curl_easy_strerror(res);
	/* A watch's last line may lack its '\n'. */
	if (lines && !why && r->len && r->line(r, r->buf, r->len, r->ctx))
		why = "stopped";
	if (lines)
		r->len = 0;
	if (r->done)
		r->done(r, res == CURLE_OK || r->stopped ? status : 0, r->buf ? r->buf : "",
			r->len, why, r->ctx);
	req_free(r);
}

int kcl_poll(struct kcl *c, struct curl_waitfd *extra, unsigned int nr, int timeout_ms,
	     struct vsnl_err *err)
{
	CURLMcode mc;
	CURLMsg *msg;
	int running, left;

	mc = curl_multi_poll(c->multi, extra, nr, timeout_ms, NULL);
	if (mc == CURLM_OK)
		mc = curl_multi_perform(c->multi, &running);
	if (mc != CURLM_OK)
		return vsnl_err_set(err, EIO, "libcurl: %s", curl_multi_strerror(mc));
	while ((msg = curl_multi_info_read(c->multi, &left))) {
		struct kcl_req *r = NULL;

		if (msg->msg != CURLMSG_DONE)
			continue;
		curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&r);
		if (r)
			finish(r, msg->data.result);
	}
	return 0;
}

void kcl_kick(struct kcl *c)
{
	int running;

	/* An error shows again at the next kcl_poll(), which reports it. */
	curl_multi_perform(c->multi, &running);
}

struct call {
	bool done;
	long status;
	char *body;
	size_t len;
	char why[CURL_ERROR_SIZE];
};

static void call_done(struct kcl_req *r, long status, const char *body, size_t len,
		      const char *why, void *ctx)
{
	struct call *call = ctx;

	call->done = true;
	call->status = status;
	if (why)
		snprintf(call->why, sizeof(call->why), "%s", why);
	call->body = malloc(len + 1);
	if (call->body) {
		memcpy(call->body, body, len);
		call->body[len] = '\0';
		call->len = len;
	}
}

int kcl_call(struct kcl *c, const char *method, const char *path, const char *ctype,
	     const char *body, long *status, char **resp, size_t *len, struct vsnl_err *err)
{
	struct call call = { 0 };
	struct kcl_req *r;
	int ret = 0;

	r = kcl_request(c, method, path, ctype, body, body ? strlen(body) : 0, call_done, &call);
	if (!r)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	while (!call.done && !ret)
		ret = kcl_poll(c, NULL, 0, 1000, err);
	if (ret) {
		if (!call.done)
			kcl_cancel(r);
		free(call.body);
		return ret;
	}
	if (!call.status) {
		free(call.body);
		return vsnl_err_set(err, EIO, "%s %s%s: %s", method, c->cfg->server, path,
				    call.why[0] ? call.why : "no answer");
	}
	if (!call.body)
		return vsnl_err_set(err, ENOMEM, "out of memory");
	*status = call.status;
	if (len)
		*len = call.len;
	if (resp)
		*resp = call.body;
	else
		free(call.body);
	return 0;
}
