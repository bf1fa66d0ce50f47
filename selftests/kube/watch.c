// SPDX-License-Identifier: Apache-2.0
/*
 * Watches: a chunked response whose content reader reads the store's
 * history, one WatchEvent a line, as the apiserver streams them. A watch
 * with nothing to say suspends its connection; kapi_watch_tick(), run by
 * the loop after every round of MHD, resumes those that have something:
 * an event past their position, a BOOKMARK due, their timeout, a test
 * control that drops them, or a peer that hung up.
 *
 * A watch from resourceVersion R sends the events after R still in the
 * history, then live ones; R older than the history (or a watch that falls
 * that far behind) gets an ERROR event with a 410 Status, and the stream
 * ends, as the apiserver's watch cache does. No resourceVersion, or "0",
 * starts with an ADDED event for every object that matches.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kapi.h"

/* The apiserver picks 30 to 60 minutes; a test watch lasts the test. */
#define WATCH_DEFAULT_TIMEOUT_MS	(30u * 60 * 1000)

enum watch_end {
	WATCH_RUN,
	WATCH_END,	/* after what is queued, end the stream cleanly */
	WATCH_ABORT,	/* close the connection: the client sees it break */
};

struct kapi_watch {
	struct list_head node;		/* on kapi_server.watches */
	struct kapi_server *srv;
	struct MHD_Connection *conn;
	const struct kapi_resource *res;
	char *ns;			/* NULL: every namespace */
	struct kapi_selector *labels, *fields;
	json_t *initial;		/* objects to send as ADDED first */
	size_t initial_pos;
	uint64_t next_rv;		/* the next event of the history to look at */
	uint64_t gone_rv;		/* nonzero: say 410 for this one and end */
	bool bookmarks;
	uint64_t deadline, next_bookmark;	/* kapi_now_ms() times */
	char *line;			/* the event being sent */
	size_t line_len, line_off;
	bool suspended;
	enum watch_end end;
};

static bool watch_match(const struct kapi_watch *w, json_t *obj)
{
	const char *ns = kapi_meta_str(obj, "namespace");

	if (w->ns && (!ns || strcmp(ns, w->ns)))
		return false;
	return kapi_selector_match(w->labels, obj) && kapi_selector_match(w->fields, obj);
}

static void set_line(struct kapi_watch *w, const char *type, json_t *obj)
{
	json_t *ev = json_pack("{s:s, s:O}", "type", type, "object", obj);
	char *text = ev ? json_dumps(ev, JSON_COMPACT) : NULL;

	json_decref(ev);
	if (!text) {
		w->end = WATCH_ABORT;
		return;
	}
	w->line_len = strlen(text);
	w->line = realloc(text, w->line_len + 2);
	if (!w->line) {
		free(text);
		w->end = WATCH_ABORT;
		return;
	}
	w->line[w->line_len++] = '\n';
	w->line[w->line_len] = '\0';
	w->line_off = 0;
}

static void set_gone(struct kapi_watch *w, uint64_t rv)
{
	char msg[128];
	json_t *st;

	snprintf(msg, sizeof(msg), "too old resource version: %llu (%llu)",
		 (unsigned long long)rv, (unsigned long long)w->srv->store.compacted + 1);
	st = kapi_status_new(410, "Expired", NULL, NULL, msg);
	set_line(w, "ERROR", st);
	json_decref(st);
	w->end = WATCH_END;
}

/* An event as this watch tells it: its selectors turn updates into adds and deletes. */
static const char *event_type(const struct kapi_watch *w, const struct kapi_event *e)
{
	bool now, before;

	if (e->res != w->res)
		return NULL;
	if (e->type == KAPI_DELETED)
		return watch_match(w, e->obj) || watch_match(w, e->prev) ? "DELETED" : NULL;
	now = watch_match(w, e->obj);
	before = e->prev && watch_match(w, e->prev);
	if (now)
		return before ? "MODIFIED" : "ADDED";
	return before ? "DELETED" : NULL;
}

static void set_bookmark(struct kapi_watch *w)
{
	char av[160], rv[24];
	json_t *obj;

	snprintf(rv, sizeof(rv), "%llu", (unsigned long long)(w->next_rv - 1));
	obj = json_pack("{s:s, s:s, s:{s:s}}", "kind", w->res->kind, "apiVersion",
			kapi_resource_api_version(w->res, av, sizeof(av)), "metadata",
			"resourceVersion", rv);
	set_line(w, "BOOKMARK", obj);
	json_decref(obj);
}

/* The next line to send, if any: initial objects, history, a bookmark. */
static void next_line(struct kapi_watch *w, uint64_t now)
{
	const struct kapi_store *s = &w->srv->store;

	if (w->gone_rv) {
		set_gone(w, w->gone_rv);
		return;
	}
	if (w->initial && w->initial_pos < json_array_size(w->initial)) {
		set_line(w, "ADDED", json_array_get(w->initial, w->initial_pos++));
		return;
	}
	while (w->next_rv <= s->rv) {
		const struct kapi_event *e = kapi_store_event(s, w->next_rv);
		const char *type;

		if (!e) {
			/* Fallen behind the history: what it missed is lost. */
			set_gone(w, w->next_rv - 1);
			return;
		}
		w->next_rv++;
		type = event_type(w, e);
		if (type) {
			set_line(w, type, e->obj);
			return;
		}
	}
	if (now >= w->deadline) {
		w->end = WATCH_END;
		return;
	}
	if (w->bookmarks && now >= w->next_bookmark) {
		w->next_bookmark = now + w->srv->opts.bookmark_ms;
		set_bookmark(w);
	}
}

static ssize_t watch_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct kapi_watch *w = cls;
	size_t n;

	if (w->end == WATCH_ABORT)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	if (!w->line && w->end == WATCH_RUN)
		next_line(w, kapi_now_ms());
	if (w->end == WATCH_ABORT)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	if (!w->line) {
		if (w->end == WATCH_END)
			return MHD_CONTENT_READER_END_OF_STREAM;
		MHD_suspend_connection(w->conn);
		w->suspended = true;
		return 0;
	}
	n = w->line_len - w->line_off;
	if (n > max)
		n = max;
	memcpy(buf, w->line + w->line_off, n);
	w->line_off += n;
	if (w->line_off == w->line_len) {
		free(w->line);
		w->line = NULL;
	}
	return (ssize_t)n;
}

static void watch_free(void *cls)
{
	struct kapi_watch *w = cls;

	list_del(&w->node);
	kapi_selector_free(w->labels);
	kapi_selector_free(w->fields);
	json_decref(w->initial);
	free(w->line);
	free(w->ns);
	free(w);
}

/* Every object that matches, in key order, for a watch from "now". */
static json_t *initial_objects(struct kapi_watch *w)
{
	struct kapi_table *t = kapi_store_table(&w->srv->store, w->res);
	json_t *a = json_array();

	for (size_t i = 0; a && i < t->n; i++)
		if (watch_match(w, t->v[i].obj))
			json_array_append(a, t->v[i].obj);
	return a;
}

enum MHD_Result kapi_watch_start(struct kapi_req *req, const struct kapi_resource *res,
				 const char *ns, struct kapi_selector *labels,
				 struct kapi_selector *fields)
{
	struct kapi_server *srv = req->srv;
	const char *rv_arg = kapi_arg(req, "resourceVersion");
	const char *timeout = kapi_arg(req, "timeoutSeconds");
	const char *bm = kapi_arg(req, "allowWatchBookmarks");
	struct MHD_Response *r;
	struct kapi_watch *w;
	enum MHD_Result ret;
	uint64_t rv = 0, secs = 0, now = kapi_now_ms();

	if ((rv_arg && rv_arg[0] && !kapi_parse_rv(rv_arg, &rv)) ||
	    (timeout && timeout[0] && !kapi_parse_rv(timeout, &secs))) {
		kapi_selector_free(labels);
		kapi_selector_free(fields);
		return kapi_reply_status(req, 400, "BadRequest", NULL, NULL,
					 "resourceVersion and timeoutSeconds must be "
					 "non-negative integers");
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		kapi_selector_free(labels);
		kapi_selector_free(fields);
		return MHD_NO;
	}
	INIT_LIST_HEAD(&w->node);
	w->srv = srv;
	w->conn = req->conn;
	w->res = res;
	w->labels = labels;
	w->fields = fields;
	w->ns = ns ? strdup(ns) : NULL;
	w->bookmarks = bm && (!strcmp(bm, "1") || !strcmp(bm, "true"));
	w->deadline = now + (secs ? secs * 1000 : WATCH_DEFAULT_TIMEOUT_MS);
	w->next_bookmark = now + srv->opts.bookmark_ms;
	if (!rv) {
		w->initial = initial_objects(w);
		w->next_rv = srv->store.rv + 1;
	} else if (rv < srv->store.compacted) {
		w->gone_rv = rv;
	} else {
		w->next_rv = rv + 1;
	}

	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, watch_read, w,
					      watch_free);
	if (!r) {
		watch_free(w);
		return MHD_NO;
	}
	list_add_tail(&w->node, &srv->watches);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache, private");
	req->code = 200;
	ret = MHD_queue_response(req->conn, 200, r);
	MHD_destroy_response(r);
	srv->counters.watches++;
	return ret;
}

/* The peer closed its end while the watch slept: nothing will read it. */
static bool peer_gone(struct kapi_watch *w)
{
	const union MHD_ConnectionInfo *ci;
	struct pollfd p;

	ci = MHD_get_connection_info(w->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!ci)
		return false;
	p.fd = ci->connect_fd;
	p.events = POLLRDHUP;
	p.revents = 0;
	return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

static void resume(struct kapi_watch *w)
{
	if (!w->suspended)
		return;
	w->suspended = false;
	MHD_resume_connection(w->conn);
}

unsigned int kapi_watch_tick(struct kapi_server *srv)
{
	uint64_t now = kapi_now_ms(), next = now + 1000;
	struct kapi_watch *w;

	list_for_each_entry(w, &srv->watches, node) {
		if (!w->suspended)
			continue;
		if (peer_gone(w))
			w->end = WATCH_ABORT;
		if (w->end != WATCH_RUN || w->next_rv <= srv->store.rv || now >= w->deadline ||
		    (w->bookmarks && now >= w->next_bookmark)) {
			resume(w);
			continue;
		}
		if (w->deadline < next)
			next = w->deadline;
		if (w->bookmarks && w->next_bookmark < next)
			next = w->next_bookmark;
	}
	return (unsigned int)(next - now);
}

unsigned int kapi_watch_drop_all(struct kapi_server *srv)
{
	struct kapi_watch *w;
	unsigned int n = 0;

	list_for_each_entry(w, &srv->watches, node) {
		if (w->end == WATCH_ABORT)
			continue;
		w->end = WATCH_ABORT;
		resume(w);
		n++;
	}
	return n;
}

unsigned int kapi_watch_count(const struct kapi_server *srv)
{
	const struct kapi_watch *w;
	unsigned int n = 0;

	list_for_each_entry(w, &srv->watches, node)
		n += w->end != WATCH_ABORT;
	return n;
}

void kapi_watch_stop_all(struct kapi_server *srv)
{
	kapi_watch_drop_all(srv);
}
