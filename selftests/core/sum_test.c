// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the exact sums (core/sum.h) and the resting jobs' sums built
 * on them (core/rest.h), at the edges of the quantity range: amounts of
 * nearly 8 EiB (the largest a quantity parses to), many of them, small
 * amounts beside them, VS_RES_INF. Whatever goes in and comes out again,
 * in whatever order, the sum must be the one taken afresh over what is
 * left.
 */
#include <float.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/rest.h"
#include "core/sum.h"

/* The table of these tests' vectors, as a cluster's would be. */
static struct vs_res_dims tab;

static void tab_init(void)
{
	vs_res_dims_init(&tab);
}

TestSuite(sum, .init = tab_init);

#define QMAX	(VS_RES_INF - 1)	/* the largest amount a quantity parses to */
#define EI	(1LL << 60)

static struct vs_res res(s64 cpu, s64 mem)
{
	struct vs_res r;

	vs_res_clear(&r);
	r.v[VS_RES_CPU] = cpu;
	r.v[VS_RES_MEMORY] = mem;
	return r;
}

static unsigned int dim(const char *name)
{
	struct vs_err err = { { 0 } };
	int d = vs_res_dim_get(&tab, name, strlen(name), &err);

	cr_assert_geq(d, 0, "registering %s: %s", name, err.msg);
	return (unsigned int)d;
}

Test(sum, a_small_amount_beside_huge_ones_comes_back_exactly)
{
	struct vs_res small = res(1, 1000003), huge = res(QMAX, QMAX), fresh_r;
	struct vs_sum s, fresh;
	struct vs_fres f;

	vs_sum_clear(&s);
	/* 1000 amounts at the quantity maximum: 2^73 in all, far past s64 */
	for (int i = 0; i < 500; i++)
		vs_sum_add(&s, &huge);
	vs_sum_add(&s, &small);
	for (int i = 0; i < 500; i++)
		vs_sum_add(&s, &huge);
	cr_assert_eq(vs_sum_get(&s, VS_RES_MEMORY), VS_RES_INF, "past s64 reads as unlimited");
	vs_sum_to_fres(&f, &s);
	cr_assert_eq(f.v[VS_RES_MEMORY], (double)((s128)QMAX * 1000 + 1000003),
		     "the double is the exact sum's nearest, not the saturated one");

	for (int i = 0; i < 1000; i++)
		vs_sum_sub(&s, &huge);
	vs_sum_clear(&fresh);
	vs_sum_add(&fresh, &small);
	cr_assert(vs_sum_equal(&s, &fresh), "taking the huge amounts out left another sum");
	vs_sum_to_res(&fresh_r, &s);
	cr_assert_eq(fresh_r.v[VS_RES_MEMORY], 1000003);
	cr_assert_eq(fresh_r.v[VS_RES_CPU], 1);
}

/* The case: float64 sums lost 1000003 beside 4 EiB. */
Test(sum, four_exbibytes_in_and_out_leave_the_small_amount)
{
	struct vs_res small = res(0, 1000003), huge = res(0, 4 * EI);
	struct vs_sum s;
	struct vs_fres f;

	vs_sum_clear(&s);
	vs_sum_add(&s, &small);
	vs_sum_add(&s, &huge);
	vs_sum_to_fres(&f, &s);
	cr_assert_eq(f.v[VS_RES_MEMORY], (double)(4 * EI + 1000003));
	vs_sum_sub(&s, &huge);
	vs_sum_to_fres(&f, &s);
	cr_assert_eq(f.v[VS_RES_MEMORY], 1000003.0);
	cr_assert_eq(vs_sum_get(&s, VS_RES_MEMORY), 1000003);
}

Test(sum, reads_are_clamped_at_both_ends_of_s64)
{
	struct vs_res one = res(1, 1), qmax = res(QMAX, QMAX);
	struct vs_sum s;

	vs_sum_clear(&s);
	vs_sum_add(&s, &qmax);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), QMAX, "the largest amount is itself");
	vs_sum_add(&s, &one);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), VS_RES_INF, "INT64_MAX reads as unlimited");
	vs_sum_sub(&s, &one);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), QMAX, "and comes back");

	vs_sum_clear(&s);
	vs_sum_sub(&s, &qmax);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), -QMAX);
	vs_sum_sub(&s, &qmax);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), -VS_RES_INF, "below -INT64_MAX");
	vs_sum_add(&s, &qmax);
	vs_sum_add(&s, &qmax);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), 0);
}

Test(sum, an_unlimited_member_is_counted_apart)
{
	struct vs_res five = res(5, 5), inf = res(VS_RES_INF, 7);
	struct vs_sum s;
	struct vs_fres f;

	vs_sum_clear(&s);
	vs_sum_add(&s, &five);
	vs_sum_add(&s, &inf);
	vs_sum_add(&s, &inf);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), VS_RES_INF);
	cr_assert_eq(vs_sum_get(&s, VS_RES_MEMORY), 19);
	vs_sum_to_fres(&f, &s);
	cr_assert_eq(f.v[VS_RES_CPU], VS_FRES_INF, "unlimited is Volcano's MaxFloat64");
	vs_sum_sub(&s, &inf);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), VS_RES_INF, "one unlimited member is left");
	vs_sum_sub(&s, &inf);
	cr_assert_eq(vs_sum_get(&s, VS_RES_CPU), 5, "the finite amount is what is left");
	vs_sum_to_fres(&f, &s);
	cr_assert_eq(f.v[VS_RES_CPU], 5.0);
}

/* Presence as vs_res_add()/vs_res_sub() (Volcano's Add and Sub) have it. */
Test(sum, scalars_are_present_as_vs_res_add_and_sub_make_them)
{
	unsigned int gpu = dim("nvidia.com/gpu");
	struct vs_res plain = res(1, 1), g = res(1, 1), r;
	struct vs_sum s;
	struct vs_fres f;

	vs_res_set(&g, gpu, 2000);
	vs_sum_clear(&s);
	vs_sum_add(&s, &plain);
	vs_sum_sub(&s, &g);
	cr_assert_not(s.present, "a sum without scalars is left its scalars by a sub");
	vs_sum_add(&s, &g);
	vs_sum_add(&s, &g);
	vs_sum_sub(&s, &g);
	vs_sum_sub(&s, &g);
	vs_sum_to_res(&r, &s);
	cr_assert(vs_res_has(&r, gpu), "a scalar stays present at zero, as in Volcano's map");
	cr_assert_eq(r.v[gpu], 0);
	vs_sum_to_fres(&f, &s);
	cr_assert(vs_fres_has(&f, gpu));
	cr_assert_eq(f.v[gpu], 0.0);
	cr_assert_eq(f.v[VS_RES_CPU], 0.0);
}

Test(sum, ordinary_amounts_read_as_vs_fres_from_res_reads_them)
{
	struct vs_res a = res(123456789, 3LL << 40), b = res(987654321, 5LL << 30), t;
	struct vs_fres fs, fr;
	struct vs_sum s;

	vs_sum_clear(&s);
	vs_sum_add(&s, &a);
	vs_sum_add(&s, &b);
	t = a;
	vs_res_add(&t, &b);
	vs_sum_to_fres(&fs, &s);
	vs_fres_from_res(&fr, &t);
	cr_assert(vs_fres_same(&fs, &fr));
}

/* A queue's resting sums: out of order, huge and small, scalars leaving with their last member. */
Test(sum, resting_sums_equal_a_fresh_sum_after_any_order)
{
	unsigned int gpu = dim("nvidia.com/gpu");
	struct vs_job_contrib c[6];
	struct vs_queue_rest qr = { 0 }, fresh = { 0 };
	static const int out[] = { 4, 0, 2, 5 };	/* left: 1, 3 */

	memset(c, 0, sizeof(c));
	for (int i = 0; i < 6; i++) {
		c[i].allocated = res(i % 2 ? QMAX : 1000003, i % 2 ? 4 * EI : 1000003 + i);
		c[i].elastic = c[i].allocated;
		c[i].has_inqueue = c[i].has_oc_inqueue = i % 3 == 0;
		c[i].inqueue = res(QMAX, 1);
		c[i].oc_inqueue = res(QMAX - i, QMAX);
	}
	vs_res_set(&c[4].allocated, gpu, QMAX);
	vs_res_set(&c[1].elastic, gpu, 1);

	for (int i = 0; i < 6; i++)
		vs_queue_rest_add(&qr, &c[i]);
	for (unsigned int i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		vs_queue_rest_sub(&qr, &c[out[i]]);
	vs_queue_rest_add(&fresh, &c[1]);
	vs_queue_rest_add(&fresh, &c[3]);
	cr_assert(vs_queue_rest_equal(&qr, &fresh), "the sums drifted from a fresh one");
	cr_assert_not(qr.allocated.s.present & VS_RES_BIT(gpu), "gpu left with job 4");
	cr_assert(qr.elastic.s.present & VS_RES_BIT(gpu), "job 1 still has gpu");
	cr_assert_eq(vs_sum_get(&qr.allocated.s, VS_RES_CPU), VS_RES_INF);
	vs_queue_rest_sub(&qr, &c[3]);
	cr_assert_eq(vs_sum_get(&qr.allocated.s, VS_RES_CPU), QMAX);
	cr_assert_eq(vs_sum_get(&qr.allocated.s, VS_RES_MEMORY), 4 * EI);
}

Test(sum, dominant_share_is_vs_res_dominant_share_for_ordinary_amounts)
{
	struct vs_res alloc = res(1500, 3LL << 30), total = res(8000, 16LL << 30);
	struct vs_sum s;

	vs_res_set(&total, VS_RES_PODS, 110);
	vs_res_set(&alloc, VS_RES_PODS, 3);
	vs_sum_clear(&s);
	vs_sum_add(&s, &alloc);
	cr_assert_eq(vs_sum_dominant_share(&s, &total), vs_res_dominant_share(&alloc, &total));
}

/* A job allocated 4 EiB beside 1000003 and discarded it: its share is the small one's. */
Test(sum, dominant_share_comes_back_after_a_huge_allocation)
{
	struct vs_res small = res(0, 1000003), huge = res(0, 4 * EI), total = res(8000, 7 * EI);
	struct vs_sum s;

	vs_sum_clear(&s);
	vs_sum_add(&s, &small);
	vs_sum_add(&s, &huge);
	cr_assert_gt(vs_sum_dominant_share(&s, &total), 0.5);
	vs_sum_add(&s, &huge);
	vs_sum_sub(&s, &huge);
	vs_sum_sub(&s, &huge);
	cr_assert_eq(vs_sum_dominant_share(&s, &total), vs_share(1000003, 7 * EI));
}
