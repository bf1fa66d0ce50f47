// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for interned requests (core/reqtab.h) and their use by tasks:
 * equal values give the same pointer and values that differ in one amount or
 * only in which scalars are present give different ones; the last put frees
 * the entry; tasks that ask for the same share one entry, deleting a task
 * drops its reference, a task made again with another request moves its
 * reference; vs_cluster_check() finds a reference count gone wrong and a
 * request that is not the table's.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/cluster.h"
#include "core/reqtab.h"

static struct vs_reqtab tab;

static void tab_setup(void)
{
	cr_assert_eq(vs_reqtab_init(&tab), 0);
}

static void tab_teardown(void)
{
	vs_reqtab_destroy(&tab);
}

TestSuite(reqtab, .init = tab_setup, .fini = tab_teardown);

static struct vs_res res(s64 mcpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, mcpu);
	vs_res_set(&r, VS_RES_MEMORY, mem);
	return r;
}

Test(reqtab, equal_values_give_the_same_pointer)
{
	struct vs_res a = res(500, 1 << 20), b = res(500, 1 << 20);
	const struct vs_res *x = vs_req_get(&tab, &a), *y = vs_req_get(&tab, &b);

	cr_assert_not_null(x);
	cr_assert_eq(x, y);
	cr_assert_neq(x, &a, "the table holds its own copy");
	cr_assert_eq(vs_res_get(x, VS_RES_CPU), 500);
	cr_assert_eq(vs_req_refcount(x), 2);
	cr_assert_eq(vs_reqtab_count(&tab), 1);
	cr_assert_eq(tab.hits, 1);
	cr_assert_eq(tab.misses, 1);
	vs_req_put(&tab, x);
	vs_req_put(&tab, y);
}

Test(reqtab, different_values_give_different_entries)
{
	struct vs_res a = res(500, 1 << 20), b = res(501, 1 << 20), c = res(500, 1 << 20);
	const struct vs_res *x, *y, *z;

	/* c differs from a only in a scalar present at 0: Volcano tells them apart */
	vs_res_set(&c, VS_RES_PODS, 0);
	cr_assert_neq(a.present, c.present);
	x = vs_req_get(&tab, &a);
	y = vs_req_get(&tab, &b);
	z = vs_req_get(&tab, &c);
	cr_assert(x && y && z);
	cr_assert_neq(x, y);
	cr_assert_neq(x, z);
	cr_assert_neq(y, z);
	cr_assert_eq(vs_reqtab_count(&tab), 3);
	vs_req_put(&tab, x);
	vs_req_put(&tab, y);
	vs_req_put(&tab, z);
}

Test(reqtab, last_put_frees_the_entry)
{
	struct vs_res a = res(100, 0);
	const struct vs_res *x = vs_req_get(&tab, &a);

	cr_assert_eq(vs_req_get(&tab, &a), x);
	vs_req_put(&tab, x);
	cr_assert_eq(vs_req_refcount(x), 1);
	cr_assert_eq(vs_reqtab_count(&tab), 1);
	vs_req_put(&tab, x);
	cr_assert_eq(vs_reqtab_count(&tab), 0);
	cr_assert_eq(tab.pool.active_objs, 0);
	vs_req_put(&tab, NULL);
	/* the freed entry was the last one got: it is not handed out again */
	x = vs_req_get(&tab, &a);
	cr_assert_eq(vs_req_refcount(x), 1);
	cr_assert_eq(vs_reqtab_count(&tab), 1);
	vs_req_put(&tab, x);
}

Test(reqtab, many_distinct_values_intern_and_release)
{
	enum { N = 20000 };
	static const struct vs_res *held[N];

	for (int i = 0; i < N; i++) {
		struct vs_res r = res(i, 2 * (s64)i);

		held[i] = vs_req_get(&tab, &r);
		cr_assert_not_null(held[i]);
	}
	cr_assert_eq(vs_reqtab_count(&tab), N);
	for (int i = 0; i < N; i++) {
		struct vs_res r = res(i, 2 * (s64)i);

		cr_assert_eq(vs_req_get(&tab, &r), held[i]);
		vs_req_put(&tab, held[i]);
		vs_req_put(&tab, held[i]);
	}
	cr_assert_eq(vs_reqtab_count(&tab), 0);
}

/* ---- tasks ---- */

static struct vs_cluster cl;

static void cl_setup(void)
{
	struct vs_node_spec ns;
	struct vs_job_spec js;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_init(&cl), 0);
	vs_node_spec_init(&ns, "n1");
	ns.allocatable = res(64000, 64LL << 30);
	vs_res_set(&ns.allocatable, VS_RES_PODS, 110);
	cr_assert_eq(vs_node_add(&cl, &ns, NULL, &e), 0, "%s", e.msg);
	vs_job_spec_init(&js, "ns", "j");
	cr_assert_eq(vs_job_add(&cl, &js, NULL, &e), 0, "%s", e.msg);
}

static void cl_teardown(void)
{
	vs_cluster_destroy(&cl);
}

TestSuite(task_req, .init = cl_setup, .fini = cl_teardown);

static struct vs_task *task(const char *name, s64 mcpu, s64 mem, bool running)
{
	struct vs_task_spec spec;
	struct vs_task *t;
	struct vs_err e = { { 0 } };

	vs_task_spec_init(&spec, "ns", name, "j");
	spec.req = res(mcpu, mem);
	if (running) {
		spec.status = VS_TASK_RUNNING;
		spec.node = "n1";
	}
	cr_assert_eq(vs_task_add(&cl, &spec, &t, &e), 0, "%s", e.msg);
	return t;
}

static void check_all(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "invariant broken: %s", e.msg);
}

Test(task_req, tasks_that_ask_for_the_same_share_one_entry)
{
	struct vs_task *w0 = task("w-0", 1000, 1LL << 30, true);
	struct vs_task *w1 = task("w-1", 1000, 1LL << 30, false);
	struct vs_task *ps = task("ps-0", 2000, 1LL << 30, false);

	cr_assert_eq(w0->req, w1->req);
	cr_assert_neq(w0->req, ps->req);
	cr_assert_eq(vs_req_refcount(w0->req), 2);
	cr_assert_eq(vs_req_refcount(ps->req), 1);
	cr_assert_eq(vs_reqtab_count(&cl.reqs), 2);
	/* the shared value is the task's request, the pod included */
	cr_assert_eq(vs_res_get(w1->req, VS_RES_CPU), 1000);
	cr_assert_eq(vs_res_get(w1->req, VS_RES_PODS), 1);
	check_all();
}

Test(task_req, delete_drops_the_reference_and_the_last_frees_it)
{
	struct vs_task *w0 = task("w-0", 1000, 1LL << 30, true);
	struct vs_task *w1 = task("w-1", 1000, 1LL << 30, false);
	const struct vs_res *req = w0->req;

	vs_task_del(&cl, w0);
	cr_assert_eq(vs_req_refcount(req), 1);
	cr_assert_eq(w1->req, req);
	check_all();
	vs_task_del(&cl, w1);
	cr_assert_eq(vs_reqtab_count(&cl.reqs), 0);
	cr_assert_eq(cl.reqs.pool.active_objs, 0);
	check_all();
}

/* A pod's spec does not change: it is made again, and its reference moves. */
Test(task_req, a_task_made_again_with_another_request_moves_its_reference)
{
	struct vs_task *w0 = task("w-0", 1000, 1LL << 30, false);
	struct vs_task *w1 = task("w-1", 1000, 1LL << 30, false);
	const struct vs_res *old = w0->req;

	vs_task_del(&cl, w0);
	w0 = task("w-0", 4000, 1LL << 30, false);
	cr_assert_neq(w0->req, old);
	cr_assert_eq(vs_req_refcount(old), 1);
	cr_assert_eq(vs_req_refcount(w0->req), 1);
	cr_assert_eq(w1->req, old);
	check_all();
}

Test(task_req, check_finds_a_reference_count_gone_wrong)
{
	struct vs_task *w0 = task("w-0", 1000, 1LL << 30, false);
	struct vs_err e = { { 0 } };

	task("w-1", 1000, 1LL << 30, false);
	check_all();
	vs_ireq_of(w0->req)->refcount++;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	cr_assert(strstr(e.msg, "counts 3 references, 2 found"), "%s", e.msg);
	vs_ireq_of(w0->req)->refcount -= 2;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	vs_ireq_of(w0->req)->refcount++;
	check_all();
}

Test(task_req, check_finds_a_request_that_is_not_the_tables)
{
	struct vs_task *w0 = task("w-0", 1000, 1LL << 30, false);
	const struct vs_res *req = w0->req;
	struct vs_res copy = *req;
	struct vs_err e = { { 0 } };

	/* an equal value, but a private copy: writers must go through vs_req_get() */
	w0->req = &copy;
	cr_assert_eq(vs_cluster_check(&cl, &e), -EIO);
	cr_assert(strstr(e.msg, "pod ns/w-0") || strstr(e.msg, "task ns/w-0"), "%s", e.msg);
	w0->req = req;
	check_all();
}
