// SPDX-License-Identifier: Apache-2.0
/*
 * Resting jobs' sums: see rest.h. The amounts are summed exactly
 * (core/sum.h); what is left here is which scalars a sum has.
 */
#include <string.h>

#include "core/rest.h"

#define for_each_bit(d, tmp, mask) \
	for ((tmp) = (mask); (tmp) && ((d) = __builtin_ctz(tmp), true); \
	     (tmp) &= (tmp) - 1)

void vs_rsum_add(struct vs_rsum *s, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	vs_sum_add(&s->s, r);
	for_each_bit(d, m, r->present)
		s->nr[d]++;
}

void vs_rsum_sub(struct vs_rsum *s, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	/*
	 * Every scalar of a member is in the sum (present), so vs_sum_sub()
	 * takes each of r's out; the last member to have one takes it away.
	 */
	vs_sum_sub(&s->s, r);
	for_each_bit(d, m, r->present)
		if (!--s->nr[d])
			s->s.present &= ~VS_RES_BIT(d);
}

void vs_queue_rest_add(struct vs_queue_rest *qr, const struct vs_job_contrib *c)
{
	qr->nr_jobs++;
	vs_rsum_add(&qr->allocated, &c->allocated);
	if (c->has_inqueue)
		vs_rsum_add(&qr->inqueue, &c->inqueue);
	vs_rsum_add(&qr->elastic, &c->elastic);
	if (c->has_oc_inqueue)
		vs_rsum_add(&qr->oc_inqueue, &c->oc_inqueue);
}

void vs_queue_rest_sub(struct vs_queue_rest *qr, const struct vs_job_contrib *c)
{
	qr->nr_jobs--;
	vs_rsum_sub(&qr->allocated, &c->allocated);
	if (c->has_inqueue)
		vs_rsum_sub(&qr->inqueue, &c->inqueue);
	vs_rsum_sub(&qr->elastic, &c->elastic);
	if (c->has_oc_inqueue)
		vs_rsum_sub(&qr->oc_inqueue, &c->oc_inqueue);
}

static bool rsum_equal(const struct vs_rsum *a, const struct vs_rsum *b)
{
	return vs_sum_equal(&a->s, &b->s) && !memcmp(a->nr, b->nr, sizeof(a->nr));
}

bool vs_queue_rest_equal(const struct vs_queue_rest *a, const struct vs_queue_rest *b)
{
	return a->nr_jobs == b->nr_jobs && rsum_equal(&a->allocated, &b->allocated) &&
	       rsum_equal(&a->inqueue, &b->inqueue) && rsum_equal(&a->elastic, &b->elastic) &&
	       rsum_equal(&a->oc_inqueue, &b->oc_inqueue);
}
