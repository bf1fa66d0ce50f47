// SPDX-License-Identifier: Apache-2.0
/*
 * Test controls under /__test/: not Kubernetes, but what a test needs to
 * make the API server misbehave as a real one sometimes does. POSTs change
 * something, GET /__test/stats only reads:
 *
 *   POST /__test/drop-watches	break every open watch stream
 *   POST /__test/compact		forget the history: older resourceVersions get 410
 *   POST /__test/fail-bindings?count=N&code=C&message=M
 *				the next N binding POSTs fail with C and M
 *   GET  /__test/stats		revisions, counters, open watches
 *   GET  /__test/requests?since=N	the requests logged after N (method, path,
 *				whether a watch, status, User-Agent), the last
 *				KAPI_LOG_SIZE at most
 */
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

static enum MHD_Result fail_bindings(struct kapi_req *req)
{
	struct kapi_server *srv = req->srv;
	const char *count = kapi_arg(req, "count"), *code = kapi_arg(req, "code");
	const char *msg = kapi_arg(req, "message");
	uint64_t n = 1, c = 500;
	char *m;

	if ((count && !kapi_parse_rv(count, &n)) || (code && !kapi_parse_rv(code, &c)) ||
	    c < 400 || c > 599 || n > 1000000)
		return kapi_reply_status(req, 400, "BadRequest", NULL, NULL,
					 "count must be an integer, code one of 400..599");
	m = strdup(msg ? msg : "injected binding failure");
	if (!m)
		return MHD_NO;
	free(srv->fail_message);
	srv->fail_message = m;
	srv->fail_count = (unsigned int)n;
	srv->fail_code = (unsigned int)c;
	return kapi_reply_json(req, 200, json_pack("{s:I, s:I, s:s}", "count", (json_int_t)n,
						   "code", (json_int_t)c, "message", m));
}

static enum MHD_Result stats(struct kapi_req *req)
{
	struct kapi_server *srv = req->srv;
	const struct kapi_counters *c = &srv->counters;

	return kapi_reply_json(req, 200,
		json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			  "resourceVersion", (json_int_t)srv->store.rv,
			  "compacted", (json_int_t)srv->store.compacted,
			  "requests", (json_int_t)c->requests, "writes", (json_int_t)c->writes,
			  "bindings", (json_int_t)c->bindings,
			  "evictions", (json_int_t)c->evictions,
			  "watchesOpened", (json_int_t)c->watches,
			  "watchesOpen", (json_int_t)kapi_watch_count(srv),
			  "failBindings", (json_int_t)srv->fail_count));
}

static enum MHD_Result requests(struct kapi_req *req)
{
	struct kapi_server *srv = req->srv;
	const char *since_arg = kapi_arg(req, "since");
	uint64_t since = 0, first;
	json_t *list = json_array();

	if (since_arg && !kapi_parse_rv(since_arg, &since)) {
		json_decref(list);
		return kapi_reply_status(req, 400, "BadRequest", NULL, NULL,
					 "since must be a non-negative integer");
	}
	/* This request is logged once answered: it is not in its own reply. */
	first = srv->log_seq > KAPI_LOG_SIZE ? srv->log_seq - KAPI_LOG_SIZE + 1 : 1;
	if (since + 1 > first)
		first = since + 1;
	for (uint64_t seq = first; seq <= srv->log_seq; seq++) {
		const struct kapi_log_entry *e = &srv->log[seq % KAPI_LOG_SIZE];

		json_array_append_new(list, json_pack("{s:I, s:s, s:s, s:b, s:i, s:s}",
						      "seq", (json_int_t)e->seq,
						      "method", e->method, "path", e->path ? e->path : "",
						      "watch", e->watch, "code", (int)e->code,
						      "userAgent", e->agent ? e->agent : ""));
	}
	return kapi_reply_json(req, 200, json_pack("{s:I, s:o}", "last", (json_int_t)srv->log_seq,
						   "requests", list));
}

enum MHD_Result kapi_testctl(struct kapi_req *req, const char *what)
{
	struct kapi_server *srv = req->srv;
	bool post = !strcmp(req->method, MHD_HTTP_METHOD_POST);

	if (!strcmp(what, "stats") && !strcmp(req->method, MHD_HTTP_METHOD_GET))
		return stats(req);
	if (!strcmp(what, "requests") && !strcmp(req->method, MHD_HTTP_METHOD_GET))
		return requests(req);
	if (!strcmp(what, "drop-watches") && post)
		return kapi_reply_json(req, 200, json_pack("{s:i}", "dropped",
							   (int)kapi_watch_drop_all(srv)));
	if (!strcmp(what, "compact") && post) {
		kapi_store_compact(&srv->store);
		return kapi_reply_json(req, 200, json_pack("{s:I}", "compacted",
							   (json_int_t)srv->store.compacted));
	}
	if (!strcmp(what, "fail-bindings") && post)
		return fail_bindings(req);
	return kapi_reply_status(req, 404, "NotFound", NULL, NULL,
				 "no test control %s %s", req->method, what);
}
