// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for vskube's informers (userspace/vskube/informer.h) against the
 * test API server (selftests/kube/, Documentation/kube-test-apiserver.md),
 * started for each test: a list in pages then a watch; a watch dropped
 * and taken up again from its resourceVersion without an event told twice;
 * a gap the server can no longer replay (410 Gone), closed by a relist
 * that tells what was added, changed and deleted meanwhile; bookmarks;
 * selectors; a server that goes away and comes back; the next page of a
 * list asked for before the objects of this one are told; an optional kind
 * the server does not serve (404), an empty list looked for again.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "kapi.h"
#include "vskube/informer.h"

static struct kapi api;
static struct kc_config cfg;
static struct kcl *c;

static void setup(void)
{
	struct vsnl_err e = { 0 };

	kapi_init(&api, "kinf-test");
	memset(&cfg, 0, sizeof(cfg));
	kapi_start(&api, 100, &cfg.server);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
}

static void teardown(void)
{
	kcl_free(c);
	kapi_fini(&api);
	kc_config_free(&cfg);
}

TestSuite(informer, .init = setup, .fini = teardown, .timeout = 120);

/* ---- what the informer told ---- */

#define SEEN_MAX	256

struct seen {
	char ev[SEEN_MAX][80];		/* "ADDED n1", "DELETED ns/p" */
	u32 nr;
	u32 synced;
	u32 troubles;
};

static void on_event(struct kinf *inf, enum kinf_event type, json_t *obj, void *ctx)
{
	static const char *const names[] = { "ADDED", "MODIFIED", "DELETED" };
	struct seen *s = ctx;
	json_t *meta = json_object_get(obj, "metadata");
	const char *ns = json_string_value(json_object_get(meta, "namespace"));
	const char *name = json_string_value(json_object_get(meta, "name"));

	cr_assert_lt(s->nr, SEEN_MAX);
	snprintf(s->ev[s->nr++], sizeof(s->ev[0]), "%s %s%s%s", names[type], ns ? ns : "",
		 ns ? "/" : "", name);
}

static void on_synced(struct kinf *inf, void *ctx)
{
	((struct seen *)ctx)->synced++;
}

static void on_trouble(struct kinf *inf, const char *what, void *ctx)
{
	((struct seen *)ctx)->troubles++;
}

static const struct kinf_ops ops = {
	.event = on_event, .synced = on_synced, .trouble = on_trouble,
};

static bool has(const struct seen *s, const char *ev)
{
	for (u32 i = 0; i < s->nr; i++)
		if (!strcmp(s->ev[i], ev))
			return true;
	return false;
}

static u32 count(const struct seen *s, const char *ev)
{
	u32 n = 0;

	for (u32 i = 0; i < s->nr; i++)
		n += !strcmp(s->ev[i], ev);
	return n;
}

/* Run the informer until @done(@s) or 20 s. */
static void run_until(struct kinf *inf, bool (*done)(const struct seen *, const struct kinf *),
		      const struct seen *s)
{
	struct vsnl_err e = { 0 };
	u64 end = kinf_clock_ms() + 20000;

	while (!done(s, inf)) {
		u64 now = kinf_clock_ms(), next = kinf_tick(inf, now);
		int wait = next == UINT64_MAX ? 50 : (int)(next > now ? next - now : 0);

		cr_assert_lt(now, end, "timed out: %u events, %u syncs", s->nr, s->synced);
		cr_assert_eq(kcl_poll(c, NULL, 0, wait < 50 ? wait : 50, &e), 0, "%s", e.msg);
	}
}

static u32 want_events, want_syncs, want_failures;

static bool reached(const struct seen *s, const struct kinf *inf)
{
	return s->nr >= want_events && s->synced >= want_syncs &&
	       kinf_stats(inf)->failures >= want_failures;
}

static void until(struct kinf *inf, const struct seen *s, u32 events, u32 syncs, u32 failures)
{
	want_events = events;
	want_syncs = syncs;
	want_failures = failures;
	run_until(inf, reached, s);
}

/* ---- the server's objects ---- */

static long call(const char *method, const char *path, const char *ctype, const char *body)
{
	struct vsnl_err e = { 0 };
	long status = 0;

	cr_assert_eq(kcl_call(c, method, path, ctype, body, &status, NULL, NULL, &e), 0, "%s",
		     e.msg);
	return status;
}

static void node_add(const char *name, const char *zone)
{
	char body[256];

	snprintf(body, sizeof(body), "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
		 "{\"name\":\"%s\",\"labels\":{\"zone\":\"%s\"}}}", name, zone);
	cr_assert_eq(call("POST", "/api/v1/nodes", "application/json", body), 201);
}

static void node_label(const char *name, const char *zone)
{
	char path[128], body[128];

	snprintf(path, sizeof(path), "/api/v1/nodes/%s", name);
	snprintf(body, sizeof(body), "{\"metadata\":{\"labels\":{\"zone\":\"%s\"}}}", zone);
	cr_assert_eq(call("PATCH", path, "application/merge-patch+json", body), 200);
}

static void node_del(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/api/v1/nodes/%s", name);
	cr_assert_eq(call("DELETE", path, NULL, NULL), 200);
}

Test(informer, lists_in_pages_then_watches)
{
	struct seen s = { 0 };
	struct kinf *inf;
	char name[16];

	for (int i = 0; i < 7; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		node_add(name, "a");
	}
	inf = kinf_new(c, "/api/v1/nodes", NULL, 3, &ops, &s);
	cr_assert_not_null(inf);
	kinf_start(inf);
	until(inf, &s, 7, 1, 0);
	cr_assert_eq(s.nr, 7);
	cr_assert(has(&s, "ADDED n0") && has(&s, "ADDED n6"));
	cr_assert(kinf_synced(inf));
	cr_assert_eq(kinf_count(inf), 7);
	cr_assert_eq(kinf_stats(inf)->pages, 3, "7 nodes in pages of 3");
	cr_assert_eq(kinf_stats(inf)->lists, 1);

	node_add("n7", "b");
	node_label("n1", "c");
	node_del("n2");
	until(inf, &s, 10, 1, 0);
	cr_assert_str_eq(s.ev[7], "ADDED n7");
	cr_assert_str_eq(s.ev[8], "MODIFIED n1");
	cr_assert_str_eq(s.ev[9], "DELETED n2");
	cr_assert_eq(kinf_count(inf), 7);
	cr_assert_eq(s.troubles, 0);
	kinf_free(inf);
}

/* Lists of nodes (pages) the server has answered, asked by a client of its own. */
static u32 pages_answered(void)
{
	struct vsnl_err e = { 0 };
	struct kcl *other = kcl_new(&cfg, &e);
	char *body = NULL;
	long status = 0;
	json_t *log, *r;
	size_t i;
	u32 n = 0;

	cr_assert_not_null(other, "%s", e.msg);
	cr_assert_eq(kcl_call(other, "GET", "/__test/requests", NULL, NULL, &status, &body, NULL,
			      &e), 0, "%s", e.msg);
	cr_assert_eq(status, 200);
	log = json_loads(body, 0, NULL);
	cr_assert_not_null(log);
	json_array_foreach(json_object_get(log, "requests"), i, r)
		n += !strcmp(json_string_value(json_object_get(r, "path")), "/api/v1/nodes") &&
		     !strcmp(json_string_value(json_object_get(r, "method")), "GET") &&
		     !json_is_true(json_object_get(r, "watch"));
	json_decref(log);
	free(body);
	kcl_free(other);
	return n;
}

struct ahead {
	struct seen seen;
	u32 answered_at_first;		/* pages answered when the first object was told */
};

static void on_event_ahead(struct kinf *inf, enum kinf_event type, json_t *obj, void *ctx)
{
	struct ahead *a = ctx;
	u64 end = kinf_clock_ms() + 5000;

	if (!a->seen.nr)
		/* The second page is answered while the first is still being told. */
		while ((a->answered_at_first = pages_answered()) < 2 && kinf_clock_ms() < end)
			usleep(10000);
	on_event(inf, type, obj, ctx);
}

Test(informer, the_next_page_is_asked_for_before_this_one_is_told)
{
	static const struct kinf_ops ahead_ops = {
		.event = on_event_ahead, .synced = on_synced, .trouble = on_trouble,
	};
	static struct ahead a;
	struct kinf *inf;
	char name[16];

	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "n%d", i);
		node_add(name, "a");
	}
	inf = kinf_new(c, "/api/v1/nodes", NULL, 2, &ahead_ops, &a);
	cr_assert_not_null(inf);
	kinf_start(inf);
	until(inf, &a.seen, 5, 1, 0);
	cr_assert_eq(a.answered_at_first, 2, "the first page, and the second asked before the "
		     "first was told (%u)", a.answered_at_first);
	cr_assert_eq(kinf_stats(inf)->pages, 3);
	cr_assert_eq(a.seen.nr, 5, "each node told once");
	cr_assert_str_eq(a.seen.ev[0], "ADDED n0");
	cr_assert_str_eq(a.seen.ev[4], "ADDED n4");
	kinf_free(inf);
}

Test(informer, a_dropped_watch_goes_on_from_its_resource_version)
{
	struct seen s = { 0 };
	struct kinf *inf = kinf_new(c, "/api/v1/nodes", NULL, 0, &ops, &s);

	node_add("n0", "a");
	node_add("n1", "a");
	kinf_start(inf);
	until(inf, &s, 2, 1, 0);
	node_add("n2", "a");
	until(inf, &s, 3, 1, 0);

	cr_assert_eq(call("POST", "/__test/drop-watches", NULL, NULL), 200);
	until(inf, &s, 3, 1, 1);	/* the broken stream is seen, and retried */
	node_add("n3", "a");
	node_label("n0", "b");
	until(inf, &s, 5, 1, 1);
	cr_assert_str_eq(s.ev[3], "ADDED n3");
	cr_assert_str_eq(s.ev[4], "MODIFIED n0");
	cr_assert_eq(count(&s, "ADDED n2"), 1, "no event told twice");
	cr_assert_eq(kinf_stats(inf)->lists, 1, "no relist: the history had it all");
	cr_assert_geq(kinf_stats(inf)->watches, 2);
	kinf_free(inf);
}

Test(informer, a_gap_past_the_history_is_closed_by_a_relist)
{
	struct seen s = { 0 };
	struct kinf *inf = kinf_new(c, "/api/v1/nodes", NULL, 2, &ops, &s);

	node_add("keep", "a");
	node_add("change", "a");
	node_add("go", "a");
	kinf_start(inf);
	until(inf, &s, 3, 1, 0);

	/* The watch breaks; while the informer backs off, things happen and are compacted. */
	cr_assert_eq(call("POST", "/__test/drop-watches", NULL, NULL), 200);
	until(inf, &s, 3, 1, 1);
	node_add("new", "a");
	node_label("change", "b");
	node_del("go");
	cr_assert_eq(call("POST", "/__test/compact", NULL, NULL), 200);
	until(inf, &s, 6, 2, 1);
	cr_assert_eq(s.nr, 6, "keep is not told again");
	cr_assert(has(&s, "ADDED new"));
	cr_assert(has(&s, "MODIFIED change"));
	cr_assert(has(&s, "DELETED go"));
	/* The watch's 410; a page of the relist may meet the compaction too, and start over. */
	cr_assert_geq(kinf_stats(inf)->gone, 1);
	cr_assert_geq(kinf_stats(inf)->lists, 2);
	cr_assert_eq(kinf_count(inf), 3);

	/* And it watches again from the relist. */
	node_add("after", "a");
	until(inf, &s, 7, 2, 1);
	cr_assert_str_eq(s.ev[6], "ADDED after");
	kinf_free(inf);
}

static bool bookmarked(const struct seen *s, const struct kinf *inf)
{
	return kinf_stats(inf)->bookmarks >= 2;
}

Test(informer, bookmarks_move_the_resource_version_on)
{
	struct seen s = { 0 };
	struct kinf *inf = kinf_new(c, "/api/v1/pods", NULL, 0, &ops, &s);
	char rv[64];

	kinf_start(inf);
	until(inf, &s, 0, 1, 0);
	snprintf(rv, sizeof(rv), "%s", kinf_rv(inf));
	/* Nodes move the store's revision; the pod informer hears of it by bookmarks only. */
	node_add("n0", "a");
	node_add("n1", "a");
	run_until(inf, bookmarked, &s);
	cr_assert_eq(s.nr, 0);
	cr_assert_gt(strtoull(kinf_rv(inf), NULL, 10), strtoull(rv, NULL, 10), "%s after %s",
		     kinf_rv(inf), rv);
	kinf_free(inf);
}

Test(informer, selectors_choose_the_objects)
{
	struct seen s = { 0 };
	struct kinf *inf = kinf_new(c, "/api/v1/nodes", "labelSelector=zone%3Da", 0, &ops, &s);

	node_add("in", "a");
	node_add("out", "b");
	kinf_start(inf);
	until(inf, &s, 1, 1, 0);
	cr_assert_str_eq(s.ev[0], "ADDED in");
	node_label("out", "a");		/* starts matching: ADDED */
	node_label("in", "b");		/* stops matching: DELETED */
	until(inf, &s, 3, 1, 0);
	cr_assert_str_eq(s.ev[1], "ADDED out");
	cr_assert_str_eq(s.ev[2], "DELETED in");
	kinf_free(inf);
}

Test(informer, a_server_that_goes_and_comes_back)
{
	struct seen s = { 0 };
	struct kinf *inf = kinf_new(c, "/api/v1/nodes", NULL, 0, &ops, &s);
	char old[64];

	node_add("n0", "a");
	kinf_start(inf);
	until(inf, &s, 1, 1, 0);
	snprintf(old, sizeof(old), "%s", cfg.server);
	kapi_stop(&api);
	until(inf, &s, 1, 1, 2);	/* the stream breaks, the next watch cannot connect */
	cr_assert_gt(s.troubles, 0);

	/* A new server (empty, on another port): the informer is pointed at it. */
	kinf_free(inf);
	kcl_free(c);
	kapi_start(&api, 100, &cfg.server);
	c = kcl_new(&cfg, &(struct vsnl_err){ 0 });
	cr_assert_not_null(c);
	cr_assert_str_neq(cfg.server, old);
	memset(&s, 0, sizeof(s));
	inf = kinf_new(c, "/api/v1/nodes", NULL, 0, &ops, &s);
	node_add("m0", "a");
	kinf_start(inf);
	until(inf, &s, 1, 1, 0);
	cr_assert_str_eq(s.ev[0], "ADDED m0");
	kinf_free(inf);
}

/* ---- an optional kind: the server may not serve it ---- */

struct absent_seen {
	struct seen s;
	long told[8];			/* the statuses absent() was told, in order */
	u32 nr_told;
};

static void on_absent(struct kinf *inf, long status, void *ctx)
{
	struct absent_seen *a = ctx;

	cr_assert_lt(a->nr_told, ARRAY_SIZE(a->told));
	a->told[a->nr_told++] = status;
}

static const struct kinf_ops optional_ops = {
	.event = on_event, .synced = on_synced, .trouble = on_trouble, .absent = on_absent,
};

static bool three_looks(const struct seen *s, const struct kinf *inf)
{
	return kinf_stats(inf)->absent >= 3;
}

Test(informer, an_optional_kind_the_server_lacks_is_an_empty_list_looked_for_again)
{
	struct absent_seen a = { 0 };
	struct kinf *inf = kinf_new(c, "/apis/example.com/v1/widgets", NULL, 0, &optional_ops,
				    &a);

	cr_assert_not_null(inf);
	kinf_set_optional(inf, 100);
	kinf_start(inf);
	run_until(inf, three_looks, &a.s);
	/* synced at each look, with nothing: the owner goes on without the kind */
	cr_assert(kinf_synced(inf));
	cr_assert_geq(a.s.synced, 3);
	cr_assert_eq(a.s.nr, 0);
	cr_assert_eq(kinf_count(inf), 0);
	/* said once, not at every look; no failure, no trouble, no watch */
	cr_assert_eq(a.nr_told, 1);
	cr_assert_eq(a.told[0], 404);
	cr_assert_eq(kinf_absent(inf), 404);
	cr_assert_eq(a.s.troubles, 0);
	cr_assert_eq(kinf_stats(inf)->failures, 0);
	cr_assert_eq(kinf_stats(inf)->watches, 0);
	cr_assert_geq(kinf_stats(inf)->lists, 3);
	kinf_free(inf);
}

Test(informer, an_optional_kind_the_server_serves_is_listed_and_watched)
{
	struct absent_seen a = { 0 };
	struct kinf *inf = kinf_new(c, "/api/v1/nodes", NULL, 0, &optional_ops, &a);

	node_add("n0", "a");
	kinf_set_optional(inf, 100);
	kinf_start(inf);
	until(inf, &a.s, 1, 1, 0);
	node_add("n1", "a");
	until(inf, &a.s, 2, 1, 0);
	cr_assert_str_eq(a.s.ev[1], "ADDED n1");
	cr_assert_eq(a.nr_told, 0);
	cr_assert_eq(kinf_absent(inf), 0);
	cr_assert_eq(kinf_stats(inf)->absent, 0);
	cr_assert_eq(kinf_stats(inf)->lists, 1);
	kinf_free(inf);
}

/* Without kinf_set_optional(), a 404 is a failure retried with backoff, as before. */
Test(informer, a_required_kind_the_server_lacks_is_a_failure)
{
	struct absent_seen a = { 0 };
	struct kinf *inf = kinf_new(c, "/apis/example.com/v1/widgets", NULL, 0, &optional_ops,
				    &a);

	kinf_start(inf);
	until(inf, &a.s, 0, 0, 1);
	cr_assert_eq(a.s.synced, 0);
	cr_assert(!kinf_synced(inf));
	cr_assert_gt(a.s.troubles, 0);
	cr_assert_eq(a.nr_told, 0);
	kinf_free(inf);
}
