// SPDX-License-Identifier: Apache-2.0
/*
 * kapiserver's HTTP side: libmicrohttpd's access handler gathers a request
 * and its body, the router maps the path to discovery, a resource (rest.c)
 * or a test control (testctl.c), and the reply helpers answer in JSON,
 * errors as Status objects as the apiserver writes them.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

/* The apiserver refuses bodies over 3 MiB; so does kapiserver. */
#define KAPI_MAX_BODY	(3u << 20)
#define KAPI_MAX_SEGS	8

const char *kapi_arg(const struct kapi_req *req, const char *name)
{
	return MHD_lookup_connection_value(req->conn, MHD_GET_ARGUMENT_KIND, name);
}

static const struct {
	unsigned int code;
	const char *reason;
} reasons[] = {
	{ 400, "BadRequest" },
	{ 401, "Unauthorized" },
	{ 403, "Forbidden" },
	{ 404, "NotFound" },
	{ 405, "MethodNotAllowed" },
	{ 406, "NotAcceptable" },
	{ 409, "Conflict" },
	{ 410, "Expired" },
	{ 413, "RequestEntityTooLarge" },
	{ 415, "UnsupportedMediaType" },
	{ 422, "Invalid" },
	{ 429, "TooManyRequests" },
	{ 500, "InternalError" },
	{ 503, "ServiceUnavailable" },
	{ 504, "Timeout" },
};

const char *kapi_reason(unsigned int code)
{
	for (size_t i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (reasons[i].code == code)
			return reasons[i].reason;
	return code >= 500 ? "InternalError" : "BadRequest";
}

const char *kapi_qualified(const struct kapi_resource *res, char *buf, size_t len)
{
	if (!res->group[0])
		return res->plural;
	snprintf(buf, len, "%s.%s", res->plural, res->group);
	return buf;
}

json_t *kapi_status_new(unsigned int code, const char *reason, const struct kapi_resource *res,
			const char *name, const char *msg)
{
	bool ok = code < 300;
	json_t *st;

	st = json_pack("{s:s, s:s, s:{}, s:s}", "kind", "Status", "apiVersion", "v1",
		       "metadata", "status", ok ? "Success" : "Failure");
	if (!st)
		return NULL;
	if (msg)
		json_object_set_new(st, "message", json_string(msg));
	if (!ok)
		json_object_set_new(st, "reason", json_string(reason ? reason : kapi_reason(code)));
	if (res) {
		json_t *d = json_pack("{s:s, s:s}", "name", name ? name : "", "kind", res->plural);

		if (res->group[0])
			json_object_set_new(d, "group", json_string(res->group));
		json_object_set_new(st, "details", d);
	}
	json_object_set_new(st, "code", json_integer(code));
	return st;
}

static enum MHD_Result reply_buffer(struct kapi_req *req, unsigned int code, char *text,
				    size_t len, const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(text);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache, private");
	req->code = code;
	ret = MHD_queue_response(req->conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

enum MHD_Result kapi_reply_json(struct kapi_req *req, unsigned int code, json_t *obj)
{
	char *text = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
	size_t len;

	json_decref(obj);
	if (!text)
		return MHD_NO;
	len = strlen(text);
	/* One more byte: a newline, as the apiserver's encoder ends a document. */
	text = realloc(text, len + 2);
	if (!text)
		return MHD_NO;
	text[len++] = '\n';
	text[len] = '\0';
	return reply_buffer(req, code, text, len, "application/json");
}

enum MHD_Result kapi_reply_status(struct kapi_req *req, unsigned int code, const char *reason,
				  const struct kapi_resource *res, const char *name,
				  const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return kapi_reply_json(req, code, kapi_status_new(code, reason, res, name, msg));
}

static enum MHD_Result not_found(struct kapi_req *req)
{
	return kapi_reply_status(req, 404, "NotFound", NULL, NULL,
				 "the server could not find the requested resource");
}

static enum MHD_Result reply_text(struct kapi_req *req, const char *text)
{
	return reply_buffer(req, 200, strdup(text), strlen(text), "text/plain; charset=utf-8");
}

static enum MHD_Result root_paths(struct kapi_req *req)
{
	json_t *paths = json_pack("[s,s,s,s,s]", "/api", "/api/v1", "/apis", "/healthz",
				  "/version");

	for (size_t i = 0; i < kapi_nr_resources; i++) {
		const struct kapi_resource *r = &kapi_resources[i];
		char buf[160];

		if (!r->group[0])
			continue;
		snprintf(buf, sizeof(buf), "/apis/%s/%s", r->group, r->version);
		json_array_append_new(paths, json_string(buf));
	}
	return kapi_reply_json(req, 200, json_pack("{s:o}", "paths", paths));
}

/* /api/v1/... or /apis/GROUP/VERSION/...: rest[] is what follows. */
static enum MHD_Result route_resource(struct kapi_req *req, const char *group,
				      const char *version, char **rest, int n)
{
	const struct kapi_resource *res;
	const char *ns = NULL, *name, *sub;

	/* namespaces/NAME/status is the namespace's; namespaces/NS/pods is a pod list. */
	if (n >= 3 && !strcmp(rest[0], "namespaces") && strcmp(rest[2], "status") &&
	    strcmp(rest[2], "finalize")) {
		ns = rest[1];
		rest += 2;
		n -= 2;
	}
	res = kapi_resource_find(group, version, rest[0]);
	if (!res || (ns && !res->namespaced) || n > 3)
		return not_found(req);
	name = n >= 2 ? rest[1] : NULL;
	sub = n == 3 ? rest[2] : NULL;
	if (sub && !((!strcmp(sub, "status") && (res->subs & KAPI_SUB_STATUS)) ||
		     (!strcmp(sub, "binding") && (res->subs & KAPI_SUB_BINDING)) ||
		     (!strcmp(sub, "eviction") && (res->subs & KAPI_SUB_EVICTION))))
		return not_found(req);
	return kapi_rest(req, res, ns, name, sub);
}

static enum MHD_Result route_discovery(struct kapi_req *req, char **seg, int n)
{
	char addr[64];
	json_t *doc;

	if (strcmp(req->method, MHD_HTTP_METHOD_GET))
		return kapi_reply_status(req, 405, "MethodNotAllowed", NULL, NULL,
					 "the server does not allow this method on the requested resource");
	if (!strcmp(seg[0], "api")) {
		if (n == 1) {
			snprintf(addr, sizeof(addr), "127.0.0.1:%u", req->srv->port);
			return kapi_reply_json(req, 200, kapi_discovery_core_versions(addr));
		}
		doc = kapi_discovery_resources("", seg[1]);
	} else if (n == 1) {
		/*
		 * An Accept of the aggregated form (as=APIGroupDiscoveryList)
		 * gets the plain one: its Content-Type tells the client so.
		 */
		doc = kapi_discovery_groups();
	} else if (n == 2) {
		doc = kapi_discovery_group(seg[1]);
	} else {
		doc = kapi_discovery_resources(seg[1], seg[2]);
	}
	return doc ? kapi_reply_json(req, 200, doc) : not_found(req);
}

static enum MHD_Result route_openapi(struct kapi_req *req, char **seg, int n)
{
	json_t *doc = NULL;

	if (n == 2)
		doc = kapi_openapi_root();
	else if (n == 4 && !strcmp(seg[2], "api"))
		doc = kapi_openapi_gv("", seg[3]);
	else if (n == 5 && !strcmp(seg[2], "apis"))
		doc = kapi_openapi_gv(seg[3], seg[4]);
	return doc ? kapi_reply_json(req, 200, doc) : not_found(req);
}

static enum MHD_Result route(struct kapi_req *req)
{
	char *seg[KAPI_MAX_SEGS];
	char *path = strdup(req->url), *save = NULL;
	enum MHD_Result ret;
	int n = 0;

	if (!path)
		return MHD_NO;
	for (char *s = strtok_r(path, "/", &save); s; s = strtok_r(NULL, "/", &save)) {
		if (n == KAPI_MAX_SEGS) {
			ret = not_found(req);
			goto out;
		}
		seg[n++] = s;
	}

	if (n == 0) {
		ret = root_paths(req);
	} else if (!strcmp(seg[0], "version") && n == 1) {
		ret = kapi_reply_json(req, 200, kapi_discovery_version());
	} else if ((!strcmp(seg[0], "healthz") || !strcmp(seg[0], "livez") ||
		    !strcmp(seg[0], "readyz")) && n == 1) {
		ret = reply_text(req, "ok");
	} else if (!strcmp(seg[0], "__test") && n == 2) {
		ret = kapi_testctl(req, seg[1]);
	} else if (!strcmp(seg[0], "api") && (n <= 2 || strcmp(seg[1], "v1"))) {
		ret = n <= 2 ? route_discovery(req, seg, n) : not_found(req);
	} else if (!strcmp(seg[0], "api")) {
		ret = route_resource(req, "", "v1", seg + 2, n - 2);
	} else if (!strcmp(seg[0], "apis") && n <= 3) {
		ret = route_discovery(req, seg, n);
	} else if (!strcmp(seg[0], "apis")) {
		ret = route_resource(req, seg[1], seg[2], seg + 3, n - 3);
	} else if (!strcmp(seg[0], "openapi") && n >= 2 && !strcmp(seg[1], "v3")) {
		ret = route_openapi(req, seg, n);
	} else {
		/* /openapi/v2 too: kubectl reads v3 (kapi_openapi_root()). */
		ret = not_found(req);
	}
out:
	free(path);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload, size_t *upload_size, void **con_cls)
{
	struct kapi_server *srv = cls;
	struct kapi_req *req = *con_cls;
	const char *user_agent;

	if (!req) {
		req = calloc(1, sizeof(*req));
		if (!req)
			return MHD_NO;
		req->srv = srv;
		req->conn = conn;
		req->method = method;
		req->url = url;
		user_agent = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_USER_AGENT);
		req->agent = strdup(user_agent ? user_agent : "");
		*con_cls = req;
		srv->counters.requests++;
		return MHD_YES;
	}
	if (*upload_size) {
		size_t n = *upload_size;

		*upload_size = 0;
		if (req->too_large || req->len + n > KAPI_MAX_BODY) {
			req->too_large = true;
			return MHD_YES;
		}
		if (req->len + n + 1 > req->cap) {
			size_t cap = (req->len + n + 1) * 2;
			char *b = realloc(req->body, cap);

			if (!b)
				return MHD_NO;
			req->body = b;
			req->cap = cap;
		}
		memcpy(req->body + req->len, upload, n);
		req->len += n;
		req->body[req->len] = '\0';
		return MHD_YES;
	}
	if (req->too_large)
		return kapi_reply_status(req, 413, "RequestEntityTooLarge", NULL, NULL,
					 "the request body is larger than %u bytes", KAPI_MAX_BODY);
	return route(req);
}

static void log_clear(struct kapi_log_entry *e)
{
	free(e->path);
	free(e->agent);
	memset(e, 0, sizeof(*e));
}

/* The request goes into the log; its user agent moves there. */
static void log_request(struct kapi_server *srv, struct kapi_req *req)
{
	uint64_t seq = ++srv->log_seq;
	struct kapi_log_entry *e = &srv->log[seq % KAPI_LOG_SIZE];

	log_clear(e);
	e->seq = seq;
	snprintf(e->method, sizeof(e->method), "%s", req->method);
	e->code = req->code;
	e->watch = req->watch;
	e->path = strdup(req->url);
	e->agent = req->agent;
	req->agent = NULL;
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
			 enum MHD_RequestTerminationCode why)
{
	struct kapi_server *srv = cls;
	struct kapi_req *req = *con_cls;

	if (!req)
		return;
	if (srv->opts.verbose)
		fprintf(stderr, "kapiserver: %s %s -> %u\n", req->method, req->url, req->code);
	log_request(srv, req);
	free(req->agent);
	free(req->body);
	free(req);
	*con_cls = NULL;
}

/* MHD's own messages (a watch closed by a drop, say) are for -v only. */
static void mhd_log(void *cls, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct kapi_server *srv = cls;

	if (!srv->opts.verbose)
		return;
	fputs("kapiserver: microhttpd: ", stderr);
	vfprintf(stderr, fmt, ap);
}

int kapi_http_start(struct kapi_server *srv)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)srv->opts.port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	const union MHD_DaemonInfo *info;

	/* No polling thread: the loop in kapiserver.c runs MHD, and timers, itself. */
	srv->daemon = MHD_start_daemon(MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME,
				       0, NULL, NULL, on_request, srv,
				       MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa,
				       MHD_OPTION_NOTIFY_COMPLETED, on_completed, srv,
				       MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)120,
				       MHD_OPTION_EXTERNAL_LOGGER, mhd_log, srv,
				       MHD_OPTION_END);
	if (!srv->daemon)
		return -1;
	info = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
	srv->port = info ? info->port : srv->opts.port;
	return 0;
}

void kapi_http_stop(struct kapi_server *srv)
{
	if (!srv->daemon)
		return;
	/* Suspended connections must be resumed, and let go, before the daemon stops. */
	kapi_watch_stop_all(srv);
	MHD_run(srv->daemon);
	MHD_stop_daemon(srv->daemon);
	srv->daemon = NULL;
	for (size_t i = 0; i < KAPI_LOG_SIZE; i++)
		log_clear(&srv->log[i]);
}
