// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for vskube's leader election (userspace/vskube/leader.h) against the
 * test API server (selftests/kube/), started for each test: a missing Lease
 * created and renewed; a second candidate that waits while the leader renews
 * and takes over only a lease duration after the leader stopped; a release
 * that lets the other take over at once; a write between our read and our
 * update refused with 409 and never two leaders; a race of two candidates;
 * malformed Leases survived, one of them costing a leader its leadership;
 * a server that goes away. Durations are short (a lease of 1 s) and the
 * assertions are on order and outcome, never on how fast the machine is.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "kapi.h"
#include "vskube/informer.h"
#include "vskube/leader.h"

static struct kapi api;
static struct kc_config cfg;
static struct kcl *c;		/* the candidates' */
static struct kcl *t;		/* the test's own writes and reads, apart from theirs */

static void setup(void)
{
	struct vsnl_err e = { 0 };

	kapi_init(&api, "kle-test");
	memset(&cfg, 0, sizeof(cfg));
	kapi_start(&api, 0, &cfg.server);
	c = kcl_new(&cfg, &e);
	cr_assert_not_null(c, "%s", e.msg);
	t = kcl_new(&cfg, &e);
	cr_assert_not_null(t, "%s", e.msg);
}

static void teardown(void)
{
	kcl_free(t);
	kcl_free(c);
	kapi_fini(&api);
	kc_config_free(&cfg);
}

TestSuite(leader, .init = setup, .fini = teardown, .timeout = 120);

/* renew > 1.2 retry; the leader gives up at most retry + renew after its last renewal */
#define LEASE_MS	1000
#define RENEW_MS	600
#define RETRY_MS	150

#define LEASE_NS	"kube-system"
#define LEASE_NAME	"vsched"
#define LEASE_PATH	"/apis/coordination.k8s.io/v1/namespaces/" LEASE_NS "/leases/" LEASE_NAME

/* ---- a candidate, and what it told ---- */

struct cand {
	struct kle *le;
	u32 started, stopped, released;	/* released: stops by kle_release() */
	u64 started_at;
	char leaders[512];		/* every new_leader(), "a,b," */
	u32 troubles;
	char trouble[2048];		/* every trouble(), one a line */
};

static void on_started(struct kle *le, void *ctx)
{
	struct cand *x = ctx;

	cr_assert(kle_is_leader(le));
	x->started++;
	x->started_at = kinf_clock_ms();
}

static void on_stopped(struct kle *le, bool released, void *ctx)
{
	struct cand *x = ctx;

	cr_assert_not(kle_is_leader(le));
	x->stopped++;
	x->released += released;
}

static void on_new_leader(struct kle *le, const char *id, void *ctx)
{
	struct cand *x = ctx;
	size_t n = strlen(x->leaders);

	snprintf(x->leaders + n, sizeof(x->leaders) - n, "%s,", id);
}

static void on_trouble(struct kle *le, const char *what, void *ctx)
{
	struct cand *x = ctx;
	size_t n = strlen(x->trouble);

	x->troubles++;
	snprintf(x->trouble + n, sizeof(x->trouble) - n, "%s\n", what);
}

static const struct kle_ops ops = {
	.started = on_started, .stopped = on_stopped, .new_leader = on_new_leader,
	.trouble = on_trouble,
};

static void cand_new_cfg(struct cand *x, const char *id, u32 lease_ms, u32 renew_ms,
			 u32 retry_ms)
{
	struct kle_config kc = {
		.ns = LEASE_NS, .name = LEASE_NAME, .identity = id,
		.lease_ms = lease_ms, .renew_ms = renew_ms, .retry_ms = retry_ms,
	};
	struct vsnl_err e = { 0 };

	memset(x, 0, sizeof(*x));
	x->le = kle_new(c, &kc, &ops, x, &e);
	cr_assert_not_null(x->le, "%s", e.msg);
	cr_assert_str_eq(kle_identity(x->le), id);
}

static void cand_new(struct cand *x, const char *id)
{
	cand_new_cfg(x, id, LEASE_MS, RENEW_MS, RETRY_MS);
}

static void cand_free(struct cand *x)
{
	kle_free(x->le);
	x->le = NULL;
}

static bool leads(const struct cand *x)
{
	return x && x->le && kle_is_leader(x->le);
}

/* What the test checks after every step of the loop: one leader at most, told as it is. */
static void check(const struct cand *a, const struct cand *b)
{
	cr_assert_not(leads(a) && leads(b), "two leaders at once");
	if (a && a->le)
		cr_assert_eq(kle_is_leader(a->le), a->started > a->stopped);
	if (b && b->le)
		cr_assert_eq(kle_is_leader(b->le), b->started > b->stopped);
}

/*
 * Drive @a and @b (either may be NULL, or freed) in one loop, as a program
 * would, until @cond holds or @ms pass: whether it held. With @cond NULL,
 * just for @ms.
 */
static bool run(struct cand *a, struct cand *b,
		bool (*cond)(const struct cand *, const struct cand *), u64 ms)
{
	struct vsnl_err e = { 0 };
	u64 end = kinf_clock_ms() + ms;

	for (;;) {
		u64 now = kinf_clock_ms(), next = UINT64_MAX, n;
		int wait;

		if (cond && cond(a, b))
			return true;
		if (now >= end)
			return false;
		if (a && a->le && (n = kle_tick(a->le, now)) < next)
			next = n;
		check(a, b);
		if (b && b->le && (n = kle_tick(b->le, now)) < next)
			next = n;
		check(a, b);
		wait = next <= now ? 0 : next - now < 20 ? (int)(next - now) : 20;
		cr_assert_eq(kcl_poll(c, NULL, 0, wait, &e), 0, "%s", e.msg);
		check(a, b);
	}
}

static void run_for(struct cand *a, struct cand *b, u64 ms)
{
	run(a, b, NULL, ms);
}

static bool a_leads(const struct cand *a, const struct cand *b)
{
	return leads(a);
}

static bool b_leads(const struct cand *a, const struct cand *b)
{
	return leads(b);
}

static bool one_leads(const struct cand *a, const struct cand *b)
{
	return leads(a) || leads(b);
}

/* ---- the Lease on the server, through the test's own client ---- */

/* The Lease, or NULL when there is none. */
static json_t *lease_get(void)
{
	struct vsnl_err e = { 0 };
	long status = 0;
	char *body = NULL;
	size_t len = 0;
	json_t *obj;

	cr_assert_eq(kcl_call(t, "GET", LEASE_PATH, NULL, NULL, &status, &body, &len, &e), 0,
		     "%s", e.msg);
	if (status == 404) {
		free(body);
		return NULL;
	}
	cr_assert_eq(status, 200, "%s", body);
	obj = json_loadb(body, len, 0, NULL);
	free(body);
	cr_assert_not_null(obj);
	return obj;
}

static const char *spec_str(json_t *lease, const char *key)
{
	return json_string_value(json_object_get(json_object_get(lease, "spec"), key));
}

static json_int_t spec_int(json_t *lease, const char *key)
{
	json_t *v = json_object_get(json_object_get(lease, "spec"), key);

	cr_assert(json_is_integer(v), "spec.%s is not an integer", key);
	return json_integer_value(v);
}

/* Write the Lease with @spec (JSON text) whatever is there: an update without a precondition. */
static void lease_put(const char *spec)
{
	struct vsnl_err e = { 0 };
	char body[1024];
	long status = 0;

	snprintf(body, sizeof(body), "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
		 "\"metadata\":{\"name\":\"" LEASE_NAME "\",\"namespace\":\"" LEASE_NS "\"},"
		 "\"spec\":%s}", spec);
	cr_assert_eq(kcl_call(t, "PUT", LEASE_PATH, "application/json", body, &status, NULL, NULL,
			      &e), 0, "%s", e.msg);
	if (status == 404)
		cr_assert_eq(kcl_call(t, "POST", "/apis/coordination.k8s.io/v1/namespaces/"
				      LEASE_NS "/leases", "application/json", body, &status, NULL,
				      NULL, &e), 0, "%s", e.msg);
	cr_assert(status == 200 || status == 201, "%ld", status);
}

/* A MicroTime in microseconds since the epoch. */
static s64 time_us(const char *s)
{
	struct tm tm = { 0 };
	const char *end;

	cr_assert_not_null(s);
	end = strptime(s, "%Y-%m-%dT%H:%M:%S", &tm);
	cr_assert(end && end[0] == '.' && strlen(end) == 8 && end[7] == 'Z', "%s", s);
	return (s64)timegm(&tm) * 1000000 + strtol(end + 1, NULL, 10);
}

/* ---- the tests ---- */

static bool renewed3(const struct cand *a, const struct cand *b)
{
	return kle_stats(a->le)->renewed >= 3;
}

Test(leader, creates_a_missing_lease_and_renews_it)
{
	struct cand a;
	json_t *l1, *l2;

	cr_assert_null(lease_get());
	cand_new(&a, "a");
	cr_assert_not(kle_is_leader(a.le));
	kle_start(a.le);
	cr_assert(run(&a, NULL, a_leads, 20000), "%s", a.trouble);
	cr_assert_eq(a.started, 1);
	cr_assert_str_eq(a.leaders, "a,");
	cr_assert_str_eq(kle_leader(a.le), "a");
	cr_assert_eq(kle_stats(a.le)->creates, 1);
	cr_assert_eq(kle_stats(a.le)->acquired, 1);

	l1 = lease_get();
	cr_assert_not_null(l1);
	cr_assert_str_eq(spec_str(l1, "holderIdentity"), "a");
	cr_assert_eq(spec_int(l1, "leaseDurationSeconds"), 1);
	cr_assert_eq(spec_int(l1, "leaseTransitions"), 0);
	cr_assert_not_null(spec_str(l1, "renewTime"));
	cr_assert_eq(time_us(spec_str(l1, "acquireTime")), time_us(spec_str(l1, "renewTime")));

	cr_assert(run(&a, NULL, renewed3, 20000), "%s", a.trouble);
	l2 = lease_get();
	cr_assert_str_eq(spec_str(l2, "holderIdentity"), "a");
	cr_assert_gt(time_us(spec_str(l2, "renewTime")), time_us(spec_str(l1, "renewTime")));
	cr_assert_str_eq(spec_str(l2, "acquireTime"), spec_str(l1, "acquireTime"));
	cr_assert_eq(spec_int(l2, "leaseTransitions"), 0);
	cr_assert_gt(strtoull(json_string_value(json_object_get(json_object_get(l2, "metadata"),
								   "resourceVersion")), NULL, 10),
		     strtoull(json_string_value(json_object_get(json_object_get(l1, "metadata"),
								   "resourceVersion")), NULL, 10));
	/* A leader renews from the Lease it wrote: an update a period, no read. */
	cr_assert_eq(kle_stats(a.le)->gets, 1);
	cr_assert_geq(kle_stats(a.le)->updates, 3);
	cr_assert(kle_is_leader(a.le));
	cr_assert_eq(a.stopped, 0);
	cr_assert_eq(a.troubles, 0, "%s", a.trouble);
	json_decref(l1);
	json_decref(l2);
	cand_free(&a);
}

static bool b_held_twice(const struct cand *a, const struct cand *b)
{
	return kle_stats(b->le)->held >= 2;
}

Test(leader, another_waits_while_the_leader_renews_and_takes_over_after_it_stops)
{
	struct cand a, b;
	json_t *before, *after;
	u64 renewed;

	cand_new(&a, "a");
	cand_new(&b, "b");
	kle_start(a.le);
	cr_assert(run(&a, &b, a_leads, 20000), "%s", a.trouble);
	kle_start(b.le);
	/* Two lease durations: b reads a Lease that keeps changing, and waits. */
	cr_assert(run(&a, &b, b_held_twice, 20000), "%s", b.trouble);
	renewed = kle_stats(a.le)->renewed;
	cr_assert_not(run(&a, &b, b_leads, 2 * LEASE_MS));
	cr_assert(kle_is_leader(a.le));
	cr_assert_gt(kle_stats(a.le)->renewed, renewed);
	cr_assert_eq(b.started, 0);
	cr_assert_str_eq(b.leaders, "a,");
	cr_assert_str_eq(kle_leader(b.le), "a");
	cr_assert_eq(kle_stats(b.le)->updates + kle_stats(b.le)->creates, 0, "b wrote nothing");

	/* a dies without a word: b takes over once the Lease has not changed for its duration. */
	before = lease_get();
	cand_free(&a);
	cr_assert(run(NULL, &b, b_leads, 20000), "%s", b.trouble);
	after = lease_get();
	cr_assert_str_eq(spec_str(after, "holderIdentity"), "b");
	cr_assert_eq(spec_int(after, "leaseTransitions"), 1);
	/* On the clocks: not before a lease duration after a's last renewal (a's, at least). */
	cr_assert_geq(time_us(spec_str(after, "acquireTime")) -
		      time_us(spec_str(before, "renewTime")), LEASE_MS * 1000, "%s then %s",
		      spec_str(before, "renewTime"), spec_str(after, "acquireTime"));
	cr_assert_str_eq(b.leaders, "a,b,");
	cr_assert_eq(b.started, 1);
	cr_assert_eq(b.troubles, 0, "%s", b.trouble);
	json_decref(before);
	json_decref(after);
	cand_free(&b);
}

static bool a_done(const struct cand *a, const struct cand *b)
{
	return kle_done(a->le);
}

static bool b_held(const struct cand *a, const struct cand *b)
{
	return kle_stats(b->le)->held >= 1;
}

Test(leader, a_release_lets_another_take_over_at_once)
{
	struct cand a, b;
	json_t *l;
	u64 released;

	/* A long lease, so that taking over at once cannot be mistaken for an expiry. */
	cand_new_cfg(&a, "a", 30000, RENEW_MS, RETRY_MS);
	cand_new_cfg(&b, "b", 30000, RENEW_MS, RETRY_MS);
	kle_start(a.le);
	cr_assert(run(&a, &b, a_leads, 20000), "%s", a.trouble);
	kle_start(b.le);
	cr_assert(run(&a, &b, b_held, 20000), "%s", b.trouble);

	kle_release(a.le);
	cr_assert_not(kle_is_leader(a.le));
	cr_assert_eq(a.stopped, 1);
	cr_assert_eq(a.released, 1);
	cr_assert(run(&a, &b, a_done, 20000), "%s", a.trouble);
	cr_assert_eq(kle_stats(a.le)->released, 1, "%s", a.trouble);
	cr_assert_eq(kle_tick(a.le, kinf_clock_ms()), UINT64_MAX);
	l = lease_get();
	cr_assert_str_eq(spec_str(l, "holderIdentity"), "");
	cr_assert_eq(spec_int(l, "leaseDurationSeconds"), 1);
	cr_assert_eq(spec_int(l, "leaseTransitions"), 0);
	json_decref(l);

	released = kinf_clock_ms();
	cr_assert(run(&a, &b, b_leads, 20000), "%s", b.trouble);
	cr_assert_lt(kinf_clock_ms() - released, 30000, "not by an expiry");
	l = lease_get();
	cr_assert_str_eq(spec_str(l, "holderIdentity"), "b");
	cr_assert_eq(spec_int(l, "leaseDurationSeconds"), 30);
	cr_assert_eq(spec_int(l, "leaseTransitions"), 1);
	json_decref(l);
	cr_assert_str_eq(b.leaders, "a,b,", "%s", b.leaders);
	cr_assert_eq(a.started, 1);
	cr_assert_eq(a.troubles, 0, "%s", a.trouble);
	cand_free(&a);
	cand_free(&b);
}

static bool b_done(const struct cand *a, const struct cand *b)
{
	return kle_done(b->le);
}

Test(leader, release_by_a_candidate_that_does_not_lead_writes_nothing)
{
	struct cand a, b;
	json_t *l;

	cand_new(&a, "a");
	cand_new(&b, "b");
	kle_start(a.le);
	cr_assert(run(&a, &b, a_leads, 20000), "%s", a.trouble);
	kle_start(b.le);
	cr_assert(run(&a, &b, b_held, 20000), "%s", b.trouble);
	kle_release(b.le);
	cr_assert(run(&a, &b, b_done, 20000));
	run_for(&a, &b, 2 * RETRY_MS);
	cr_assert_eq(b.stopped, 0);
	cr_assert_eq(kle_stats(b.le)->updates + kle_stats(b.le)->creates, 0);
	l = lease_get();
	cr_assert_str_eq(spec_str(l, "holderIdentity"), "a");
	json_decref(l);
	cr_assert(kle_is_leader(a.le));
	cand_free(&a);
	cand_free(&b);
}

Test(leader, a_write_between_our_read_and_our_update_wins)
{
	struct vsnl_err e = { 0 };
	struct cand a;
	json_t *l;
	u64 wrote = 0, end = kinf_clock_ms() + 20000;

	/* Free (released by someone), so that a's first attempt is a read then an update. */
	lease_put("{\"holderIdentity\":\"\",\"leaseDurationSeconds\":1,\"leaseTransitions\":4}");
	cand_new(&a, "a");
	kle_start(a.le);
	/*
	 * The update is sent on the next kcl_poll() after the read's answer:
	 * here, in between, another holder writes the Lease. Its renewTime is
	 * far ahead: a's clock, not the holder's, says when it expires.
	 */
	while (kle_stats(a.le)->conflicts == 0) {
		u64 now = kinf_clock_ms();

		cr_assert_lt(now, end, "no conflict: %s", a.trouble);
		kle_tick(a.le, now);
		cr_assert_eq(kcl_poll(c, NULL, 0, 20, &e), 0, "%s", e.msg);
		if (!wrote && kle_stats(a.le)->updates == 1) {
			wrote = kinf_clock_ms();
			lease_put("{\"holderIdentity\":\"ghost\",\"leaseDurationSeconds\":1,"
				  "\"leaseTransitions\":5,"
				  "\"acquireTime\":\"2099-01-01T00:00:00.000000Z\","
				  "\"renewTime\":\"2099-01-01T00:00:00.000000Z\"}");
		}
		cr_assert_not(kle_is_leader(a.le), "a took a Lease written after its read");
	}
	cr_assert_gt(wrote, 0);
	cr_assert_eq(kle_stats(a.le)->updates, 1);
	cr_assert_eq(a.started, 0);
	l = lease_get();
	cr_assert_str_eq(spec_str(l, "holderIdentity"), "ghost");
	json_decref(l);

	/* The ghost never renews: a takes over, a lease duration after it saw the write. */
	cr_assert(run(&a, NULL, a_leads, 20000), "%s", a.trouble);
	cr_assert_geq(a.started_at - wrote, LEASE_MS);
	l = lease_get();
	cr_assert_str_eq(spec_str(l, "holderIdentity"), "a");
	cr_assert_eq(spec_int(l, "leaseTransitions"), 6);
	json_decref(l);
	cr_assert_str_eq(a.leaders, "ghost,a,", "%s", a.leaders);
	cr_assert_eq(a.troubles, 0, "%s", a.trouble);
	cand_free(&a);
}

static bool loser_knows(const struct cand *a, const struct cand *b)
{
	const struct cand *won = leads(a) ? a : b, *lost = won == a ? b : a;

	return !strcmp(kle_leader(lost->le), kle_identity(won->le));
}

Test(leader, two_candidates_racing_elect_one)
{
	struct vsnl_err e = { 0 };
	long status;

	/* Round 0 races to create the Lease, the others to take a free one. */
	for (int round = 0; round < 4; round++) {
		struct cand a, b, *won, *lost;

		if (round)
			lease_put("{\"holderIdentity\":\"\",\"leaseDurationSeconds\":1}");
		cand_new(&a, "a");
		cand_new(&b, "b");
		kle_start(a.le);
		kle_start(b.le);
		cr_assert(run(&a, &b, one_leads, 20000), "%s%s", a.trouble, b.trouble);
		won = leads(&a) ? &a : &b;
		lost = won == &a ? &b : &a;
		/* The loser lost to a 409, or read the winner's Lease: either way it waits. */
		cr_assert(run(&a, &b, loser_knows, 20000), "%s%s", a.trouble, b.trouble);
		run_for(&a, &b, 2 * RETRY_MS);
		cr_assert(kle_is_leader(won->le));
		cr_assert_not(kle_is_leader(lost->le));
		cr_assert_eq(lost->started, 0);
		cr_assert_geq(kle_stats(lost->le)->conflicts + kle_stats(lost->le)->held, 1);
		cand_free(&a);
		cand_free(&b);
	}
	cr_assert_eq(kcl_call(t, "DELETE", LEASE_PATH, NULL, NULL, &status, NULL, NULL, &e), 0,
		     "%s", e.msg);
	cr_assert_eq(status, 200);
}

static const char *want_says;

static bool troubled(const struct cand *a, const struct cand *b)
{
	return strstr(a->trouble, want_says) != NULL;
}

static bool a_stopped(const struct cand *a, const struct cand *b)
{
	return a->stopped >= 1;
}

Test(leader, malformed_leases_are_survived)
{
	static const struct {
		const char *spec, *says;
	} bad[] = {
		{ "{\"holderIdentity\":7}", "spec.holderIdentity is not a string" },
		{ "{\"holderIdentity\":\"x\",\"leaseDurationSeconds\":\"fifteen\"}",
		  "spec.leaseDurationSeconds is not an integer" },
		{ "{\"holderIdentity\":\"x\",\"leaseDurationSeconds\":1.5}",
		  "spec.leaseDurationSeconds is not an integer" },
		{ "{\"holderIdentity\":\"x\",\"leaseTransitions\":-1}",
		  "spec.leaseTransitions is not an integer" },
		{ "{\"holderIdentity\":\"x\",\"renewTime\":\"yesterday\"}",
		  "spec.renewTime is not an RFC 3339 time" },
		{ "{\"holderIdentity\":\"x\",\"acquireTime\":\"2026-02-30T10:00:00.000000Z\"}",
		  "spec.acquireTime is not an RFC 3339 time" },
	};
	struct cand a;
	json_t *l;
	u64 failures = 0;

	cand_new(&a, "a");
	lease_put(bad[0].spec);
	kle_start(a.le);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		if (i)
			lease_put(bad[i].spec);
		a.troubles = 0;
		a.trouble[0] = '\0';
		/* An answer to a read from before the write may come first: wait for this one's. */
		want_says = bad[i].says;
		cr_assert(run(&a, NULL, troubled, 20000), "%s: %s", bad[i].spec, a.trouble);
		cr_assert(strstr(a.trouble, "a malformed Lease: "), "%s", a.trouble);
		cr_assert_not(kle_is_leader(a.le));
		cr_assert_gt(kle_stats(a.le)->failures, failures);
		failures = kle_stats(a.le)->failures;
	}
	cr_assert_eq(kle_stats(a.le)->updates + kle_stats(a.le)->creates, 0,
		     "nothing written over what it could not read");

	/* Made whole again, the Lease is taken at the next attempt. */
	lease_put("{\"holderIdentity\":\"\",\"leaseDurationSeconds\":1}");
	cr_assert(run(&a, NULL, a_leads, 20000), "%s", a.trouble);

	/*
	 * Broken under a leader: its renewal meets a 409, reads what it cannot
	 * use, and tries again until the renew deadline, then stops leading
	 * and goes back to waiting for a Lease it can read.
	 */
	lease_put("{\"holderIdentity\":\"a\",\"leaseDurationSeconds\":\"one\"}");
	cr_assert(run(&a, NULL, a_stopped, 20000), "%s", a.trouble);
	cr_assert_eq(a.released, 0);
	cr_assert_not(kle_is_leader(a.le));
	cr_assert_eq(kle_stats(a.le)->lost, 1);
	cr_assert(strstr(a.trouble, "no longer the leader"), "%s", a.trouble);
	lease_put("{\"holderIdentity\":\"\",\"leaseDurationSeconds\":1,\"leaseTransitions\":2}");
	cr_assert(run(&a, NULL, a_leads, 20000), "%s", a.trouble);
	cr_assert_eq(a.started, 2);
	l = lease_get();
	cr_assert_str_eq(spec_str(l, "holderIdentity"), "a");
	cr_assert_eq(spec_int(l, "leaseTransitions"), 3);
	json_decref(l);
	cand_free(&a);
}

Test(leader, a_leader_that_cannot_renew_stops_leading)
{
	struct cand a;

	cand_new(&a, "a");
	kle_start(a.le);
	cr_assert(run(&a, NULL, a_leads, 20000), "%s", a.trouble);
	kapi_stop(&api);
	cr_assert(run(&a, NULL, a_stopped, 20000), "%s", a.trouble);
	cr_assert_not(kle_is_leader(a.le));
	cr_assert_eq(a.released, 0);
	cr_assert_eq(kle_stats(a.le)->lost, 1);
	cr_assert_geq(kle_stats(a.le)->failures, 1);
	cr_assert(strstr(a.trouble, "no longer the leader"), "%s", a.trouble);
	/* And it goes on trying, without a server, without end. */
	run_for(&a, NULL, 2 * RETRY_MS);
	cr_assert_lt(kle_tick(a.le, kinf_clock_ms()), UINT64_MAX);
	cand_free(&a);
}

Test(leader, options_are_checked_as_client_go_does)
{
	static const struct {
		struct kle_config cfg;
		const char *says;
	} bad[] = {
		{ { .ns = "ns", .name = "n", .lease_ms = 10000, .renew_ms = 10000 },
		  "--leader-elect-lease-duration (10s) must be greater than "
		  "--leader-elect-renew-deadline (10s)" },
		{ { .ns = "ns", .name = "n", .renew_ms = 1200, .retry_ms = 1000 },
		  "--leader-elect-renew-deadline (1.2s) must be greater than 1.2 times "
		  "--leader-elect-retry-period (1s)" },
		{ { .ns = "ns", .name = "n", .lease_ms = 900, .renew_ms = 500, .retry_ms = 100 },
		  "--leader-elect-lease-duration (900ms) must be at least 1s" },
		{ { .ns = "ns", .name = "n", .lease_ms = 5000 },
		  "--leader-elect-lease-duration (5s) must be greater than "
		  "--leader-elect-renew-deadline (10s)" },
		{ { .ns = "Volcano", .name = "n" }, "--leader-elect-resource-namespace \"Volcano\"" },
		{ { .name = "n" }, "--leader-elect-resource-namespace \"\"" },
		{ { .ns = "ns", .name = "a/b" }, "--leader-elect-resource-name \"a/b\"" },
	};
	struct kle_config good = { .ns = "volcano-system", .name = "vc-scheduler" };
	struct vsnl_err e = { 0 };
	struct cand x, y;
	const char *id;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		e = (struct vsnl_err){ 0 };
		cr_assert_eq(kle_config_check(&bad[i].cfg, &e), -EINVAL, "%zu", i);
		cr_assert(strstr(e.msg, bad[i].says), "%zu: %s", i, e.msg);
		e = (struct vsnl_err){ 0 };
		cr_assert_null(kle_new(c, &bad[i].cfg, &ops, NULL, &e));
		cr_assert(strstr(e.msg, bad[i].says), "%zu: %s", i, e.msg);
	}
	cr_assert_eq(kle_config_check(&good, &e), 0, "%s", e.msg);
	good.lease_ms = 2000;
	good.renew_ms = 1300;
	good.retry_ms = 1000;
	cr_assert_eq(kle_config_check(&good, &e), 0, "1.3s > 1.2 * 1s: %s", e.msg);

	/* Without an identity: the hostname, '_', a random UUID, another each time. */
	memset(&x, 0, sizeof(x));
	memset(&y, 0, sizeof(y));
	good = (struct kle_config){ .ns = "volcano-system", .name = "vc-scheduler" };
	x.le = kle_new(c, &good, &ops, &x, &e);
	y.le = kle_new(c, &good, &ops, &y, &e);
	cr_assert(x.le && y.le, "%s", e.msg);
	id = kle_identity(x.le);
	cr_assert_str_neq(id, kle_identity(y.le));
	cr_assert_gt(strlen(id), 37);
	id += strlen(id) - 37;
	cr_assert_eq(id[0], '_', "%s", kle_identity(x.le));
	cr_assert(id[9] == '-' && id[14] == '-' && id[15] == '4' && id[19] == '-' && id[24] == '-',
		  "%s", id);
	cr_assert_str_eq(kle_leader(x.le), "");
	cr_assert_eq(kle_tick(x.le, kinf_clock_ms()), UINT64_MAX, "nothing before kle_start()");
	cand_free(&x);
	cand_free(&y);
}
