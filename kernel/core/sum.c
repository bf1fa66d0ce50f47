// SPDX-License-Identifier: Apache-2.0
/*
 * Exact sums of resource vectors: see sum.h.
 */
#include <string.h>

#include "core/sum.h"

_Static_assert(_Alignof(struct vs_sum) <= 8, "a vs_sum must fit where the pools put objects");

#define for_each_bit(d, tmp, mask) \
	for ((tmp) = (mask); (tmp) && ((d) = __builtin_ctz(tmp), true); \
	     (tmp) &= (tmp) - 1)

static inline void add_amount(struct vs_sum *s, unsigned int d, s64 v)
{
	if (unlikely(v == VS_RES_INF))
		s->nr_inf[d]++;
	else
		s->v[d] += v;
}

static inline void sub_amount(struct vs_sum *s, unsigned int d, s64 v)
{
	if (unlikely(v == VS_RES_INF))
		s->nr_inf[d]--;
	else
		s->v[d] -= v;
}

void vs_sum_add(struct vs_sum *s, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	add_amount(s, VS_RES_CPU, r->v[VS_RES_CPU]);
	add_amount(s, VS_RES_MEMORY, r->v[VS_RES_MEMORY]);
	/* an absent scalar holds 0 in the sum (nothing ever wrote it) */
	for_each_bit(d, m, r->present)
		add_amount(s, d, r->v[d]);
	s->present |= r->present;
}

void vs_sum_add_sum(struct vs_sum *s, const struct vs_sum *o)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++) {
		s->v[d] += o->v[d];
		s->nr_inf[d] += o->nr_inf[d];
	}
	s->present |= o->present;
}

void vs_sum_sub(struct vs_sum *s, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	sub_amount(s, VS_RES_CPU, r->v[VS_RES_CPU]);
	sub_amount(s, VS_RES_MEMORY, r->v[VS_RES_MEMORY]);
	/* Volcano's Sub leaves a nil scalar map alone (vs_res_sub()) */
	if (!s->present)
		return;
	for_each_bit(d, m, r->present)
		sub_amount(s, d, r->v[d]);
	s->present |= r->present;
}

s64 vs_sum_get(const struct vs_sum *s, unsigned int dim)
{
	s128 v = s->v[dim];

	if ((s32)s->nr_inf[dim] > 0 || v >= VS_RES_INF)
		return VS_RES_INF;
	if (v <= -VS_RES_INF)
		return -VS_RES_INF;
	return (s64)v;
}

void vs_sum_to_res(struct vs_res *r, const struct vs_sum *s)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		r->v[d] = vs_sum_get(s, d);
	r->present = s->present;
}

void vs_sum_to_fres(struct vs_fres *f, const struct vs_sum *s)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		f->v[d] = (s32)s->nr_inf[d] > 0 ? VS_FRES_INF : (double)s->v[d];
	f->present = s->present;
}

double vs_sum_dominant_share(const struct vs_sum *alloc, const struct vs_res *total)
{
	double share = 0;
	unsigned int d;
	u32 m;

	/* total.ResourceNames(): pods counts too when the total has some */
	for_each_bit(d, m, vs_res_names(total)) {
		double l, s;

		if ((s32)alloc->nr_inf[d] > 0)
			l = (double)VS_RES_INF;
		else
			l = (double)alloc->v[d];
		/* helpers.Share, vs_share(): 0/0 = 0, x/0 = 1 */
		if (!total->v[d])
			s = l == 0 ? 0 : 1;
		else
			s = l / (double)total->v[d];
		if (s > share)
			share = s;
	}
	return share;
}

bool vs_sum_equal(const struct vs_sum *a, const struct vs_sum *b)
{
	return a->present == b->present && !memcmp(a->nr_inf, b->nr_inf, sizeof(a->nr_inf)) &&
	       !memcmp(a->v, b->v, sizeof(a->v));
}
