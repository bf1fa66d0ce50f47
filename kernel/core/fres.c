// SPDX-License-Identifier: Apache-2.0
/*
 * Resource vectors in double precision (see fres.h): Volcano's float64
 * Resource arithmetic and comparisons for the computations that are not
 * integral. The dimension table is res.c's; this file owns only the
 * arithmetic. Each function walks the same side's scalars as its Go
 * counterpart, because which side is walked decides how an absent scalar
 * counts.
 *
 * Invariant kept by every function here: a scalar dimension whose bit is not
 * in @present holds 0.0.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "core/fres.h"
#include "core/resvec.h"

/* Volcano's minResource: amounts closer than this are equal. */
#define FRES_MIN	0.1

DEFINE_RES_SCALAR_OR(vs_fres, double)

/* "l < r || math.Abs(l-r) < diff", Volcano's lessEqualFunc. */
static inline bool fle(double l, double r)
{
	return l < r || fabs(l - r) < FRES_MIN;
}

DEFINE_RES_SET(vs_fres_set, vs_fres, double)

static double res_to_double(s64 v)
{
	if (v == VS_RES_INF)
		return VS_FRES_INF;
	if (v == -VS_RES_INF)
		return -VS_FRES_INF;
	return (double)v;
}

void vs_fres_from_res(struct vs_fres *f, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	vs_fres_clear(f);
	f->v[VS_RES_CPU] = res_to_double(r->v[VS_RES_CPU]);
	f->v[VS_RES_MEMORY] = res_to_double(r->v[VS_RES_MEMORY]);
	for_each_res_dim(d, m, r->present)
		f->v[d] = res_to_double(r->v[d]);
	f->present = r->present;
}

static s64 double_to_res(double v)
{
	if (v >= (double)VS_RES_INF)
		return VS_RES_INF;
	if (v <= -(double)VS_RES_INF)
		return -VS_RES_INF;
	return (s64)llround(v);
}

void vs_fres_to_res(struct vs_res *r, const struct vs_fres *f)
{
	unsigned int d;
	u32 m;

	*r = (struct vs_res){ .present = f->present };
	r->v[VS_RES_CPU] = double_to_res(f->v[VS_RES_CPU]);
	r->v[VS_RES_MEMORY] = double_to_res(f->v[VS_RES_MEMORY]);
	for_each_res_dim(d, m, f->present)
		r->v[d] = double_to_res(f->v[d]);
}

/* ---- arithmetic ---- */

void vs_fres_add(struct vs_fres *r, const struct vs_fres *rr)
{
	unsigned int d;
	u32 m;

	r->v[VS_RES_CPU] += rr->v[VS_RES_CPU];
	r->v[VS_RES_MEMORY] += rr->v[VS_RES_MEMORY];
	for_each_res_dim(d, m, rr->present)
		r->v[d] += rr->v[d];	/* 0.0 when r lacked it */
	r->present |= rr->present;
}

void vs_fres_sub(struct vs_fres *r, const struct vs_fres *rr)
{
	unsigned int d;
	u32 m;

	r->v[VS_RES_CPU] -= rr->v[VS_RES_CPU];
	r->v[VS_RES_MEMORY] -= rr->v[VS_RES_MEMORY];
	/* Volcano's sub returns early on a nil scalar map */
	if (!r->present)
		return;
	for_each_res_dim(d, m, rr->present)
		r->v[d] -= rr->v[d];
	r->present |= rr->present;
}

void vs_fres_multi(struct vs_fres *r, double ratio)
{
	unsigned int d;
	u32 m;

	r->v[VS_RES_CPU] *= ratio;
	r->v[VS_RES_MEMORY] *= ratio;
	for_each_res_dim(d, m, r->present)
		r->v[d] *= ratio;
}

DEFINE_RES_MIN_DIMENSION(vs_fres_min_dimension, vs_fres)

/* math.Max for the amounts that reach it (no NaN; the sign of a zero never matters here). */
static inline double fmax2(double a, double b)
{
	return a > b ? a : b;
}

void vs_fres_max(struct vs_fres *out, const struct vs_fres *l, const struct vs_fres *r)
{
	struct vs_fres res;
	unsigned int d;
	u32 m;

	vs_fres_clear(&res);
	res.v[VS_RES_CPU] = fmax2(l->v[VS_RES_CPU], r->v[VS_RES_CPU]);
	res.v[VS_RES_MEMORY] = fmax2(l->v[VS_RES_MEMORY], r->v[VS_RES_MEMORY]);
	/* a negative scalar is dropped from the result, whichever side it is on */
	for_each_res_dim(d, m, l->present)
		if (l->v[d] >= 0)
			vs_fres_set(&res, d, l->v[d]);
	for_each_res_dim(d, m, r->present)
		if (r->v[d] >= 0)
			vs_fres_set(&res, d, fmax2(r->v[d], scalar_or(&res, d, 0)));
	*out = res;
}

/* Diff's float64(Infinity): the fill for absent scalars, and its marker. */
#define FRES_DIFF_INFINITY	(-1.0)

void vs_fres_diff(const struct vs_fres *r, const struct vs_fres *rr,
		  enum vs_dim_default def, struct vs_fres *inc, struct vs_fres *dec)
{
	double fill = def == VS_DIM_INFINITY ? FRES_DIFF_INFINITY : 0;
	struct vs_fres up, down;
	unsigned int d;
	u32 m;

	vs_fres_clear(&up);
	vs_fres_clear(&down);
	for (d = 0; d < 2; d++) {
		if (r->v[d] > rr->v[d])
			up.v[d] = r->v[d] - rr->v[d];
		else
			down.v[d] = rr->v[d] - r->v[d];
	}
	for_each_res_dim(d, m, r->present | rr->present) {
		double l = scalar_or(r, d, fill), rv = scalar_or(rr, d, fill);

		if (l == FRES_DIFF_INFINITY)
			vs_fres_set(&up, d, l);
		else if (rv == FRES_DIFF_INFINITY)
			vs_fres_set(&down, d, rv);
		else if (l > rv)
			vs_fres_set(&up, d, l - rv);
		else
			vs_fres_set(&down, d, rv - l);
	}
	*inc = up;
	*dec = down;
}

void vs_fres_exceeded_part(struct vs_fres *out, const struct vs_fres *l,
			   const struct vs_fres *r)
{
	struct vs_fres dec;

	vs_fres_diff(l, r, VS_DIM_ZERO, out, &dec);
}

/* ---- comparisons ---- */

bool vs_fres_is_empty(const struct vs_fres *r)
{
	unsigned int d;
	u32 m;

	if (!(r->v[VS_RES_CPU] < FRES_MIN && r->v[VS_RES_MEMORY] < FRES_MIN))
		return false;
	for_each_res_dim(d, m, r->present & ~VS_RES_BIT(VS_RES_PODS))
		if (r->v[d] >= FRES_MIN)
			return false;
	return true;
}

vs_resmask_t vs_fres_names(const struct vs_fres *r)
{
	vs_resmask_t names = 0;
	unsigned int d;
	u32 m;

	if (r->v[VS_RES_CPU] >= FRES_MIN)
		names |= VS_RES_BIT(VS_RES_CPU);
	if (r->v[VS_RES_MEMORY] >= FRES_MIN)
		names |= VS_RES_BIT(VS_RES_MEMORY);
	for_each_res_dim(d, m, r->present)
		if (r->v[d] >= FRES_MIN)
			names |= VS_RES_BIT(d);
	return names;
}

bool vs_fres_less_equal(const struct vs_fres *r, const struct vs_fres *rr,
			enum vs_dim_default def)
{
	unsigned int d;
	u32 m;

	if (!fle(r->v[VS_RES_CPU], rr->v[VS_RES_CPU]) ||
	    !fle(r->v[VS_RES_MEMORY], rr->v[VS_RES_MEMORY]))
		return false;
	/* r lacking a scalar rr has: unlimited is more than anything */
	if (def == VS_DIM_INFINITY && (rr->present & ~r->present))
		return false;
	for_each_res_dim(d, m, r->present) {
		if (!(rr->present & VS_RES_BIT(d)) && def == VS_DIM_INFINITY)
			continue;
		if (!fle(r->v[d], scalar_or(rr, d, 0)))
			return false;
	}
	return true;
}

vs_resmask_t vs_fres_exceeding_dim(const struct vs_fres *r, const struct vs_fres *rr,
				   const struct vs_fres *req)
{
	vs_resmask_t over = 0;
	unsigned int d;
	u32 m;

	if (req->v[VS_RES_CPU] > 0 && r->v[VS_RES_CPU] > rr->v[VS_RES_CPU])
		over |= VS_RES_BIT(VS_RES_CPU);
	if (req->v[VS_RES_MEMORY] > 0 && r->v[VS_RES_MEMORY] > rr->v[VS_RES_MEMORY])
		over |= VS_RES_BIT(VS_RES_MEMORY);
	/* "if r.scalar is nil, whatever rr.scalar is, r is less or equal to rr" */
	if (!r->present)
		return over;
	for_each_res_dim(d, m, req->present & ~VS_RES_BIT(VS_RES_PODS))
		if (req->v[d] > 0 && scalar_or(r, d, 0) > scalar_or(rr, d, 0))
			over |= VS_RES_BIT(d);
	return over;
}

vs_resmask_t vs_fres_le_partly_zero_filtered(const struct vs_fres *r, const struct vs_fres *rr,
					     const struct vs_fres *req)
{
	vs_resmask_t fit = 0;
	unsigned int d;
	u32 m;

	/* a dimension neither side holds says nothing either way */
	for (d = 0; d < 2; d++)
		if (req->v[d] > 0 && !(r->v[d] < FRES_MIN && rr->v[d] < FRES_MIN) &&
		    fle(r->v[d], rr->v[d]))
			fit |= VS_RES_BIT(d);
	for_each_res_dim(d, m, req->present & ~VS_RES_BIT(VS_RES_PODS)) {
		double l = scalar_or(r, d, 0), rv = scalar_or(rr, d, 0);

		if (req->v[d] > 0 && !(l < FRES_MIN && rv < FRES_MIN) && fle(l, rv))
			fit |= VS_RES_BIT(d);
	}
	return fit;
}

vs_resmask_t vs_fres_gt_partly_relevant(const struct vs_fres *r, const struct vs_fres *rr,
					const struct vs_fres *req)
{
	vs_resmask_t over = 0;
	unsigned int d;
	u32 m;

	for (d = 0; d < 2; d++)
		if (req->v[d] > 0 && rr->v[d] >= FRES_MIN && r->v[d] > rr->v[d])
			over |= VS_RES_BIT(d);
	/* a scalar rr lacks is not one it could be over */
	for_each_res_dim(d, m, req->present & rr->present & ~VS_RES_BIT(VS_RES_PODS))
		if (req->v[d] > 0 && scalar_or(r, d, 0) > rr->v[d])
			over |= VS_RES_BIT(d);
	return over;
}

bool vs_fres_same(const struct vs_fres *a, const struct vs_fres *b)
{
	unsigned int d;
	u32 m;

	if (a->present != b->present || a->v[VS_RES_CPU] != b->v[VS_RES_CPU] ||
	    a->v[VS_RES_MEMORY] != b->v[VS_RES_MEMORY])
		return false;
	for_each_res_dim(d, m, a->present)
		if (a->v[d] != b->v[d])
			return false;
	return true;
}

double vs_fshare(double l, double r)
{
	if (r == 0)
		return l == 0 ? 0 : 1;
	return l / r;
}

static __printf(4, 5) size_t fappend(char *buf, size_t len, size_t pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(pos < len ? buf + pos : NULL, pos < len ? len - pos : 0, fmt, ap);
	va_end(ap);
	return n > 0 ? pos + (size_t)n : pos;
}

static size_t fappend_amount(char *buf, size_t len, size_t pos, const char *sep,
			     const char *name, double v)
{
	if (v == VS_FRES_INF)
		return fappend(buf, len, pos, "%s%s maxFloat", sep, name);
	return fappend(buf, len, pos, "%s%s %0.2f", sep, name, v);
}

int vs_fres_fmt(const struct vs_res_dims *dims, char *buf, size_t len, const struct vs_fres *r)
{
	size_t pos = 0;
	unsigned int d;
	u32 m;

	if (len)
		buf[0] = '\0';
	pos = fappend_amount(buf, len, pos, "", "cpu", r->v[VS_RES_CPU]);
	pos = fappend_amount(buf, len, pos, ", ", "memory", r->v[VS_RES_MEMORY]);
	for_each_res_dim(d, m, r->present)
		pos = fappend_amount(buf, len, pos, ", ", vs_res_dim_name(dims, d), r->v[d]);
	return (int)pos;
}
