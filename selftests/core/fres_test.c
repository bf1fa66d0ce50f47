// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the double-precision resource vectors (core/fres.h): that the
 * amounts keep their fractions as Go's float64 does, and that each
 * comparison applies Volcano's tolerance (or none) and its rules for a
 * scalar absent from one side.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/fres.h"

/* The table of these tests' vectors, as a cluster's would be. */
static struct vs_res_dims tab;

static void tab_init(void)
{
	vs_res_dims_init(&tab);
}

TestSuite(fres, .init = tab_init);

#define GPU	"nvidia.com/gpu"

static unsigned int dim(const char *name)
{
	struct vs_err err = { { 0 } };
	int d = vs_res_dim_get(&tab, name, strlen(name), &err);

	cr_assert_geq(d, 0, "registering %s: %s", name, err.msg);
	return d;
}

static struct vs_fres fr(double cpu, double mem)
{
	struct vs_fres r;

	vs_fres_clear(&r);
	r.v[VS_RES_CPU] = cpu;
	r.v[VS_RES_MEMORY] = mem;
	return r;
}

Test(fres, multi_keeps_the_fraction_that_vs_res_truncates)
{
	struct vs_fres f = fr(4000, 3);
	struct vs_res r;

	vs_fres_multi(&f, 1.0 / 3.0);
	cr_assert(f.v[VS_RES_CPU] == 4000 * (1.0 / 3.0));
	cr_assert(f.v[VS_RES_CPU] > 1333.33 && f.v[VS_RES_CPU] < 1333.34);
	cr_assert(f.v[VS_RES_MEMORY] == 1.0);

	vs_res_clear(&r);
	vs_res_set(&r, VS_RES_CPU, 4000);
	vs_res_multi(&r, 1.0 / 3.0);
	cr_assert_eq(vs_res_get(&r, VS_RES_CPU), 1333);
}

Test(fres, from_res_maps_unlimited_to_max_float)
{
	unsigned int gpu = dim(GPU);
	struct vs_res r;
	struct vs_fres f;

	vs_res_set_infinite(&r);
	vs_res_set(&r, gpu, 2000);
	vs_fres_from_res(&f, &r);
	cr_assert(f.v[VS_RES_CPU] == VS_FRES_INF);
	cr_assert(f.v[VS_RES_MEMORY] == VS_FRES_INF);
	cr_assert(vs_fres_has(&f, gpu) && f.v[gpu] == 2000);
	cr_assert_not(vs_fres_has(&f, VS_RES_PODS));
}

Test(fres, less_equal_tolerates_less_than_a_tenth)
{
	struct vs_fres a = fr(1000.05, 0), b = fr(1000, 0), c = fr(1000.1, 0);

	cr_assert(vs_fres_less_equal(&a, &b, VS_DIM_ZERO));
	cr_assert_not(vs_fres_less_equal(&c, &b, VS_DIM_ZERO));
	/* LessEqualWithDimension has no tolerance at all */
	cr_assert_eq(vs_fres_exceeding_dim(&a, &b, &a), VS_RES_BIT(VS_RES_CPU));
}

Test(fres, less_equal_absent_scalar_zero_or_infinity)
{
	unsigned int gpu = dim(GPU);
	struct vs_fres l = fr(1, 1), r = fr(2, 2);

	vs_fres_set(&l, gpu, 1000);
	/* r lacks gpu: 1000 > 0 with Zero, skipped with Infinity */
	cr_assert_not(vs_fres_less_equal(&l, &r, VS_DIM_ZERO));
	cr_assert(vs_fres_less_equal(&l, &r, VS_DIM_INFINITY));
	/* l lacks a scalar r has: fine with Zero, not with Infinity */
	l = fr(1, 1);
	vs_fres_set(&r, gpu, 0);
	cr_assert(vs_fres_less_equal(&l, &r, VS_DIM_ZERO));
	cr_assert_not(vs_fres_less_equal(&l, &r, VS_DIM_INFINITY));
}

Test(fres, exceeding_dim_looks_only_at_requested_dimensions)
{
	unsigned int gpu = dim(GPU);
	struct vs_fres r = fr(3000, 8), rr = fr(2000, 4), req = fr(0, 1);

	/* cpu is over, but req does not ask for cpu */
	cr_assert_eq(vs_fres_exceeding_dim(&r, &rr, &req), VS_RES_BIT(VS_RES_MEMORY));
	req = fr(0, 0);
	vs_fres_set(&req, gpu, 1000);
	vs_fres_set(&r, gpu, 1000);
	cr_assert_eq(vs_fres_exceeding_dim(&r, &rr, &req), VS_RES_BIT(gpu), "absent in rr is 0");
	/* an r without scalars fits whatever rr's scalars */
	r = fr(3000, 8);
	cr_assert_eq(vs_fres_exceeding_dim(&r, &rr, &req), 0);
	/* pods is never compared */
	req = fr(0, 0);
	vs_fres_set(&req, VS_RES_PODS, 1);
	vs_fres_set(&r, VS_RES_PODS, 100);
	cr_assert_eq(vs_fres_exceeding_dim(&r, &rr, &req), 0);
}

Test(fres, min_dimension_zero_clears_what_rr_lacks)
{
	unsigned int gpu = dim(GPU);
	struct vs_fres r = fr(3000, 8), rr = fr(2000.5, 10), z;

	vs_fres_set(&r, gpu, 4000);
	z = r;
	vs_fres_min_dimension(&r, &rr, VS_DIM_INFINITY);
	cr_assert(r.v[VS_RES_CPU] == 2000.5 && r.v[VS_RES_MEMORY] == 8 && r.v[gpu] == 4000);
	vs_fres_min_dimension(&z, &rr, VS_DIM_ZERO);
	cr_assert(vs_fres_has(&z, gpu) && z.v[gpu] == 0);
}

Test(fres, max_drops_negative_scalars)
{
	unsigned int gpu = dim(GPU);
	struct vs_fres l = fr(1, 5), r = fr(3, 2), out;

	vs_fres_set(&l, gpu, -1000);
	vs_fres_set(&r, VS_RES_PODS, 2);
	vs_fres_max(&out, &l, &r);
	cr_assert(out.v[VS_RES_CPU] == 3 && out.v[VS_RES_MEMORY] == 5);
	cr_assert_not(vs_fres_has(&out, gpu));
	cr_assert(vs_fres_has(&out, VS_RES_PODS) && out.v[VS_RES_PODS] == 2);
	/* in place, as deserved = Max(deserved, guarantee) */
	vs_fres_max(&l, &l, &r);
	cr_assert(vs_fres_same(&l, &out));
}

Test(fres, diff_puts_every_scalar_on_one_side)
{
	unsigned int gpu = dim(GPU);
	struct vs_fres l = fr(3.5, 2), r = fr(1, 2), inc, dec;

	vs_fres_set(&l, gpu, 1000);
	vs_fres_set(&r, VS_RES_PODS, 4);
	vs_fres_diff(&l, &r, VS_DIM_ZERO, &inc, &dec);
	cr_assert(inc.v[VS_RES_CPU] == 2.5 && dec.v[VS_RES_CPU] == 0);
	cr_assert(inc.v[VS_RES_MEMORY] == 0 && dec.v[VS_RES_MEMORY] == 0, "a tie is 0 both ways");
	cr_assert(vs_fres_has(&inc, gpu) && !vs_fres_has(&dec, gpu) && inc.v[gpu] == 1000);
	cr_assert(vs_fres_has(&dec, VS_RES_PODS) && dec.v[VS_RES_PODS] == 4);
	/* with Infinity an absent scalar passes through as -1 */
	vs_fres_diff(&l, &r, VS_DIM_INFINITY, &inc, &dec);
	cr_assert(dec.v[gpu] == -1 && inc.v[VS_RES_PODS] == -1);
	vs_fres_exceeded_part(&inc, &r, &l);
	cr_assert(inc.v[VS_RES_CPU] == 0 && inc.v[VS_RES_PODS] == 4 && !vs_fres_has(&inc, gpu));
}

Test(fres, sub_leaves_scalars_alone_when_r_has_none)
{
	unsigned int gpu = dim(GPU);
	struct vs_fres r = fr(5, 5), rr = fr(1, 1);

	vs_fres_set(&rr, gpu, 1000);
	vs_fres_sub(&r, &rr);
	cr_assert(r.v[VS_RES_CPU] == 4 && !vs_fres_has(&r, gpu));
	vs_fres_set(&r, VS_RES_PODS, 1);
	vs_fres_sub(&r, &rr);
	cr_assert(vs_fres_has(&r, gpu) && r.v[gpu] == -1000);
}

Test(fres, empty_names_and_same)
{
	struct vs_fres a = fr(0.09, 0), b = fr(0.09, 0);

	vs_fres_set(&a, VS_RES_PODS, 10);
	cr_assert(vs_fres_is_empty(&a), "pods never makes a resource non-empty");
	cr_assert_eq(vs_fres_names(&a), VS_RES_BIT(VS_RES_PODS));
	cr_assert_not(vs_fres_same(&a, &b), "a scalar present on one side only");
	vs_fres_set(&b, VS_RES_PODS, 10);
	cr_assert(vs_fres_same(&a, &b));
	b.v[VS_RES_CPU] = 0.09 + 1e-12;
	cr_assert_not(vs_fres_same(&a, &b), "DeepEqual has no tolerance");
	cr_assert_eq(vs_fshare(0, 0), 0);
	cr_assert_eq(vs_fshare(1, 0), 1);
	cr_assert(vs_fshare(1, 4) == 0.25);
}

Test(fres, fmt_as_volcano_prints_a_resource)
{
	struct vs_fres f = fr(1333.3333, VS_FRES_INF);
	char buf[128];

	vs_fres_set(&f, VS_RES_PODS, 2);
	vs_fres_fmt(&tab, buf, sizeof(buf), &f);
	cr_assert_str_eq(buf, "cpu 1333.33, memory maxFloat, pods 2.00");
}
