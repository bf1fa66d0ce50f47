// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the node index (sched/nodeindex.h) against a plain scan: random
 * sets, moves and removals of nodes with random scores (many equal) and
 * resources, after each of which the tree's order and subtree maxima are
 * checked, and the first node that reaches a random need, among those a
 * caller takes, skips or drops, is the one the scan finds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "sched/nodeindex.h"

#define N	300

static struct vs_node nodes[N];
static double score[N];
static bool in[N];
static struct vs_nidx ix;
static unsigned long long rnd_state;

static u32 rnd(u32 n)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (u32)(rnd_state >> 33) % n;
}

static void setup(void)
{
	static char names[N][8];

	rnd_state = 42;
	memset(nodes, 0, sizeof(nodes));
	memset(in, 0, sizeof(in));
	for (u32 i = 0; i < N; i++) {
		snprintf(names[i], sizeof(names[i]), "n%u", i);
		nodes[i].name = names[i];
		nodes[i].sidx = i;
	}
	cr_assert_eq(vs_nidx_init(&ix, N), 0);
}

static void teardown(void)
{
	vs_nidx_destroy(&ix);
}

TestSuite(nidx, .init = setup, .fini = teardown);

static void check(void)
{
	struct vs_err err = { { 0 } };

	cr_assert_eq(vs_nidx_check(&ix, &err), 0, "%s", err.msg);
}

/* New resources and a new score for node @i (scores from a few values: many ties). */
static void change(u32 i)
{
	struct vs_node *n = &nodes[i];

	vs_res_clear(&n->idle);
	vs_res_clear(&n->releasing);
	vs_res_clear(&n->pipelined);
	n->idle.v[VS_RES_CPU] = rnd(8) * 1000;
	n->idle.v[VS_RES_MEMORY] = rnd(8) << 30;
	n->releasing.v[VS_RES_CPU] = rnd(3) * 1000;
	n->releasing.v[VS_RES_MEMORY] = rnd(3) << 30;
	score[i] = rnd(6) * 10.5;
	vs_nidx_set(&ix, n, score[i]);
	in[i] = true;
}

static bool reaches(u32 i, const struct vs_nidx_max *need)
{
	struct vs_res f;
	s64 v[VS_NIDX_NR];

	/* what a node may offer: the larger of its Idle and its FutureIdle */
	vs_node_future_idle(&nodes[i], &f);
	v[VS_NIDX_CPU] = max_t(s64, nodes[i].idle.v[VS_RES_CPU], f.v[VS_RES_CPU]);
	v[VS_NIDX_MEM] = max_t(s64, nodes[i].idle.v[VS_RES_MEMORY], f.v[VS_RES_MEMORY]);
	for (int d = 0; d < VS_NIDX_NR; d++)
		if (v[d] < need->v[d])
			return false;
	return true;
}

/* The caller's verdicts: by node, fixed for one search. */
static enum vs_nidx_verdict verdict[N];
static u32 asked[N];

static enum vs_nidx_verdict accept(void *ctx, struct vs_node *node)
{
	asked[node->sidx]++;
	return verdict[node->sidx];
}

/* What a scan in allocate's order finds; the dropped ones leave @in. */
static int scan(const struct vs_nidx_max *need)
{
	int best = -1;

	for (;;) {
		best = -1;
		for (u32 i = 0; i < N; i++) {
			if (!in[i] || !reaches(i, need) || verdict[i] == VS_NIDX_SKIP)
				continue;
			if (best < 0 || score[i] > score[best])
				best = (int)i;
		}
		if (best < 0 || verdict[best] == VS_NIDX_TAKE)
			break;
		/* DROP: the index takes it out and goes on, as the scan does now */
		in[best] = false;
	}
	return best;
}

static void random_need(struct vs_nidx_max *need)
{
	need->v[VS_NIDX_CPU] = rnd(10) * 1000;
	need->v[VS_NIDX_MEM] = (s64)rnd(10) << 30;
	if (!rnd(8))
		need->v[VS_NIDX_MEM] = INT64_MIN;	/* a dimension of no concern */
}

Test(nidx, an_empty_index_finds_nothing)
{
	struct vs_nidx_max need = { { INT64_MIN, INT64_MIN } };

	check();
	cr_assert_null(vs_nidx_first(&ix, &need, accept, NULL));
}

Test(nidx, equal_scores_go_in_session_order)
{
	struct vs_nidx_max need = { { 1000, 1 << 30 } };

	for (u32 i = 0; i < 10; i++) {
		nodes[i].idle.v[VS_RES_CPU] = 1000;
		nodes[i].idle.v[VS_RES_MEMORY] = 1 << 30;
		verdict[i] = VS_NIDX_TAKE;
	}
	for (u32 i = 0; i < 10; i++)
		vs_nidx_set(&ix, &nodes[9 - i], 5.0);	/* inserted backwards */
	check();
	cr_assert_eq(vs_nidx_first(&ix, &need, accept, NULL), &nodes[0]);
	/* a better score wins, whatever its place */
	vs_nidx_set(&ix, &nodes[7], 6.0);
	cr_assert_eq(vs_nidx_first(&ix, &need, accept, NULL), &nodes[7]);
	/* a node that does not reach the need is passed over without being asked */
	nodes[7].idle.v[VS_RES_CPU] = 500;
	vs_nidx_set(&ix, &nodes[7], 6.0);
	memset(asked, 0, sizeof(asked));
	cr_assert_eq(vs_nidx_first(&ix, &need, accept, NULL), &nodes[0]);
	cr_assert_eq(asked[7], 0);
	check();
}

Test(nidx, random_changes_find_what_a_scan_finds)
{
	struct vs_nidx_max need;
	u32 found = 0;

	for (u32 round = 0; round < 4000; round++) {
		u32 op = rnd(10), i = rnd(N);

		if (op < 6) {
			change(i);
		} else if (op < 7) {
			vs_nidx_remove(&ix, &nodes[i]);
			in[i] = false;
		} else {
			struct vs_node *got;
			int want;

			random_need(&need);
			for (u32 k = 0; k < N; k++) {
				u32 v = rnd(20);

				verdict[k] = v < 14 ? VS_NIDX_TAKE : v < 18 ? VS_NIDX_SKIP :
					     VS_NIDX_DROP;
			}
			want = scan(&need);
			got = vs_nidx_first(&ix, &need, accept, NULL);
			cr_assert_eq(got, want < 0 ? NULL : &nodes[want], "round %u: got %s, "
				     "want %s", round, got ? got->name : "none",
				     want < 0 ? "none" : nodes[want].name);
			found += got != NULL;
			for (u32 k = 0; k < N; k++)
				cr_assert_eq(vs_nidx_has(&ix, &nodes[k]), in[k],
					     "round %u: node %u %s", round, k,
					     in[k] ? "was dropped" : "is still there");
		}
		check();
	}
	cr_assert_gt(found, 100, "the searches found %u nodes", found);
}
