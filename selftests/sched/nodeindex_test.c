// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the node index (sched/nodeindex.h) against a plain scan: random
 * sets, moves and removals of nodes with random scores (many equal), after
 * each of which every slot of the tree is checked against its children, and
 * the first node a caller takes, among nodes it takes, skips or drops, is
 * the one the scan finds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "sched/nodeindex.h"
#include "tracetest.h"

#define N	300

static struct vs_node nodes[N];
static struct vs_node *by_sidx[N];
static double score[N];
static bool in[N];
static struct vs_nidx ix;
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
		by_sidx[i] = &nodes[i];
	}
	cr_assert_eq(vs_nidx_init(&ix, by_sidx, N, NULL), 0);
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

/* A new score for node @i (from a few values: many ties). */
static void change(u32 i)
{
	struct vs_node *n = &nodes[i];

	score[i] = rnd(6) * 10.5;
	vs_nidx_set(&ix, n, score[i]);
	in[i] = true;
}

/* The caller's verdicts: by node, fixed for one search. */
static enum vs_nidx_verdict verdict[N];
static u32 asked[N];

static enum vs_nidx_verdict accept(void *ctx, struct vs_node *node)
{
	asked[node->sidx]++;
	return verdict[node->sidx];
}

/* The leaf positions of a laid-out index; a node is searched when within [lo, hi). */
static u32 pos[N];
static u32 lo = 0, hi = N;

/* What a scan in allocate's order finds; the dropped ones leave @in. */
static int scan(void)
{
	int best = -1;

	for (;;) {
		best = -1;
		for (u32 i = 0; i < N; i++) {
			if (!in[i] || verdict[i] == VS_NIDX_SKIP)
				continue;
			if (ix.pos && (pos[i] < lo || pos[i] >= hi))
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

/* Half the time a node's score changes, a tenth of the time a node leaves: true then. */
static bool random_change(void)
{
	u32 op = rnd(10), i = rnd(N);

	if (op < 6) {
		change(i);
	} else if (op < 7) {
		vs_nidx_remove(&ix, &nodes[i]);
		in[i] = false;
	} else {
		return false;
	}
	check();
	return true;
}

static void random_verdicts(void)
{
	for (u32 k = 0; k < N; k++) {
		u32 v = rnd(20);

		verdict[k] = v < 14 ? VS_NIDX_TAKE : v < 18 ? VS_NIDX_SKIP : VS_NIDX_DROP;
	}
}

/* The index holds the nodes the scan has not dropped, and is consistent. */
static void expect_held(u32 round)
{
	for (u32 k = 0; k < N; k++)
		cr_assert_eq(vs_nidx_has(&ix, &nodes[k]), in[k], "round %u: node %u %s", round, k,
			     in[k] ? "was dropped" : "is still there");
	check();
}

Test(nidx, an_empty_index_finds_nothing)
{
	check();
	cr_assert_null(vs_nidx_first(&ix, accept, NULL));
}

Test(nidx, equal_scores_go_in_session_order)
{
	for (u32 i = 0; i < 10; i++)
		verdict[i] = VS_NIDX_TAKE;
	for (u32 i = 0; i < 10; i++)
		vs_nidx_set(&ix, &nodes[9 - i], 5.0);	/* inserted backwards */
	check();
	cr_assert_eq(vs_nidx_first(&ix, accept, NULL), &nodes[0]);
	/* a better score wins, whatever its place */
	vs_nidx_set(&ix, &nodes[7], 6.0);
	cr_assert_eq(vs_nidx_first(&ix, accept, NULL), &nodes[7]);
	/* a node its caller passes over is asked once, then the next in order */
	verdict[7] = VS_NIDX_SKIP;
	memset(asked, 0, sizeof(asked));
	cr_assert_eq(vs_nidx_first(&ix, accept, NULL), &nodes[0]);
	cr_assert_eq(asked[7], 1);
	cr_assert_eq(asked[1], 0);
	/* a worse score moves it behind the ties, a removal takes it out */
	verdict[7] = VS_NIDX_TAKE;
	vs_nidx_set(&ix, &nodes[7], 4.0);
	vs_nidx_remove(&ix, &nodes[0]);
	cr_assert_eq(vs_nidx_first(&ix, accept, NULL), &nodes[1]);
	check();
}

Test(nidx, random_changes_find_what_a_scan_finds)
{
	u32 found = 0;

	for (u32 round = 0; round < 4000; round++) {
		struct vs_node *got;
		int want;

		if (random_change())
			continue;
		random_verdicts();
		want = scan();
		got = vs_nidx_first(&ix, accept, NULL);
		cr_assert_eq(got, want < 0 ? NULL : &nodes[want], "round %u: got %s, "
			     "want %s", round, got ? got->name : "none",
			     want < 0 ? "none" : nodes[want].name);
		found += got != NULL;
		expect_held(round);
	}
	cr_assert_gt(found, 100, "the searches found %u nodes", found);
}

/* Filled leaf by leaf and fixed at once, an index is the one vs_nidx_set() builds. */
Test(nidx, a_bulk_fill_is_the_index_sets_build)
{
	struct vs_nidx other;
	int want;

	for (u32 i = 0; i < N; i++)
		verdict[i] = VS_NIDX_TAKE;
	cr_assert_eq(vs_nidx_init(&other, by_sidx, N, NULL), 0);
	for (u32 i = 0; i < N; i++) {
		if (rnd(4) == 0)
			continue;	/* some nodes stay out */
		change(i);
		vs_nidx_put(&other, &nodes[i], score[i]);
	}
	vs_nidx_fix_all(&other);
	check();
	cr_assert_eq(other.nr, ix.nr);
	for (u32 i = 1; i < 2 * ix.size; i++) {
		cr_assert_eq(other.t[i].sidx, ix.t[i].sidx, "slot %u holds another node", i);
		if (ix.t[i].sidx != VS_NIDX_EMPTY)
			cr_assert_eq(other.t[i].score, ix.t[i].score, "slot %u scores otherwise", i);
	}
	want = scan();
	cr_assert_eq(vs_nidx_first(&other, accept, NULL), want < 0 ? NULL : &nodes[want]);
	vs_nidx_destroy(&other);
}

/*
 * Laid out in another order, an index keeps session order for ties, and a
 * search within a range of positions finds what a scan of the nodes there
 * finds: random changes, removals, searches, best scores of ranges and
 * best scores below a score.
 */
Test(nidx, a_range_of_a_laid_out_index_is_searched_as_its_nodes_are_scanned)
{
	u32 found = 0;

	vs_nidx_destroy(&ix);
	/* a random permutation */
	for (u32 i = 0; i < N; i++)
		pos[i] = i;
	for (u32 i = N - 1; i > 0; i--) {
		u32 j = rnd(i + 1), t = pos[i];

		pos[i] = pos[j];
		pos[j] = t;
	}
	cr_assert_eq(vs_nidx_init(&ix, by_sidx, N, pos), 0);
	for (u32 round = 0; round < 4000; round++) {
		double best = 0, want_best = -1, below;
		struct vs_node *got;
		int want;
		bool any;

		if (random_change())
			continue;
		lo = rnd(N);
		hi = lo + 1 + rnd(N - lo);
		random_verdicts();
		for (u32 k = 0; k < N; k++)
			if (in[k] && pos[k] >= lo && pos[k] < hi && score[k] > want_best)
				want_best = score[k];
		any = vs_nidx_best_in(&ix, lo, hi, &best);
		cr_assert_eq(any, want_best >= 0, "round %u: [%u, %u) empty or not", round, lo, hi);
		if (any)
			cr_assert_eq(best, want_best, "round %u: best of [%u, %u)", round, lo, hi);
		/* the best below the best, or below another score */
		below = any && rnd(2) ? want_best : rnd(7) * 10.5;
		want_best = -1;
		for (u32 k = 0; k < N; k++)
			if (in[k] && pos[k] >= lo && pos[k] < hi && score[k] < below &&
			    score[k] > want_best)
				want_best = score[k];
		any = vs_nidx_best_below(&ix, lo, hi, below, &best);
		cr_assert_eq(any, want_best >= 0, "round %u: [%u, %u) below %g: empty or not", round,
			     lo, hi, below);
		if (any)
			cr_assert_eq(best, want_best, "round %u: best of [%u, %u) below %g", round, lo,
				     hi, below);
		want = scan();
		got = vs_nidx_first_in(&ix, lo, hi, accept, NULL);
		cr_assert_eq(got, want < 0 ? NULL : &nodes[want], "round %u: [%u, %u) got %s, want %s",
			     round, lo, hi, got ? got->name : "none",
			     want < 0 ? "none" : nodes[want].name);
		found += got != NULL;
		expect_held(round);
		/* and the whole index, as without a layout */
		lo = 0;
		hi = N;
		want = scan();
		got = vs_nidx_first(&ix, accept, NULL);
		cr_assert_eq(got, want < 0 ? NULL : &nodes[want], "round %u: whole", round);
		expect_held(round);
	}
	cr_assert_gt(found, 100, "the searches found %u nodes", found);
}
