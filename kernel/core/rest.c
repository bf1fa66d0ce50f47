// SPDX-License-Identifier: Apache-2.0
/*
 * Resting jobs' sums: see rest.h.
 *
 * The amounts are integers (millicores, bytes, counts) in doubles: sums
 * and differences of them are exact while they stay below 2^53 times their
 * common power of two (whole GiB of memory: far beyond any cluster), so a
 * sum kept by adding and taking out equals one taken afresh in any order.
 */
#include <math.h>
#include <string.h>

#include "core/rest.h"

#define for_each_bit(d, tmp, mask) \
	for ((tmp) = (mask); (tmp) && ((d) = __builtin_ctz(tmp), true); \
	     (tmp) &= (tmp) - 1)

void vs_fsum_add(struct vs_fsum *s, const struct vs_fres *f)
{
	unsigned int d;
	u32 m;

	s->f.v[VS_RES_CPU] += f->v[VS_RES_CPU];
	s->f.v[VS_RES_MEMORY] += f->v[VS_RES_MEMORY];
	for_each_bit(d, m, f->present) {
		s->f.v[d] = (s->nr[d]++ ? s->f.v[d] : 0) + f->v[d];
		s->f.present |= VS_RES_BIT(d);
	}
}

void vs_fsum_sub(struct vs_fsum *s, const struct vs_fres *f)
{
	unsigned int d;
	u32 m;

	s->f.v[VS_RES_CPU] -= f->v[VS_RES_CPU];
	s->f.v[VS_RES_MEMORY] -= f->v[VS_RES_MEMORY];
	for_each_bit(d, m, f->present) {
		if (--s->nr[d]) {
			s->f.v[d] -= f->v[d];
			continue;
		}
		s->f.v[d] = 0;
		s->f.present &= ~VS_RES_BIT(d);
	}
}

void vs_rsum_add(struct vs_rsum *s, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	s->r.v[VS_RES_CPU] += r->v[VS_RES_CPU];
	s->r.v[VS_RES_MEMORY] += r->v[VS_RES_MEMORY];
	for_each_bit(d, m, r->present) {
		s->r.v[d] = (s->nr[d]++ ? s->r.v[d] : 0) + r->v[d];
		s->r.present |= VS_RES_BIT(d);
	}
}

void vs_rsum_sub(struct vs_rsum *s, const struct vs_res *r)
{
	unsigned int d;
	u32 m;

	s->r.v[VS_RES_CPU] -= r->v[VS_RES_CPU];
	s->r.v[VS_RES_MEMORY] -= r->v[VS_RES_MEMORY];
	for_each_bit(d, m, r->present) {
		if (--s->nr[d]) {
			s->r.v[d] -= r->v[d];
			continue;
		}
		s->r.v[d] = 0;
		s->r.present &= ~VS_RES_BIT(d);
	}
}

void vs_queue_rest_add(struct vs_queue_rest *qr, const struct vs_job_contrib *c)
{
	qr->nr_jobs++;
	vs_fsum_add(&qr->allocated, &c->allocated);
	if (c->has_inqueue)
		vs_fsum_add(&qr->inqueue, &c->inqueue);
	vs_fsum_add(&qr->elastic, &c->elastic);
	if (c->has_oc_inqueue)
		vs_rsum_add(&qr->oc_inqueue, &c->oc_inqueue);
}

void vs_queue_rest_sub(struct vs_queue_rest *qr, const struct vs_job_contrib *c)
{
	qr->nr_jobs--;
	vs_fsum_sub(&qr->allocated, &c->allocated);
	if (c->has_inqueue)
		vs_fsum_sub(&qr->inqueue, &c->inqueue);
	vs_fsum_sub(&qr->elastic, &c->elastic);
	if (c->has_oc_inqueue)
		vs_rsum_sub(&qr->oc_inqueue, &c->oc_inqueue);
}

static bool fres_finite(const struct vs_fres *f)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		if (!isfinite(f->v[d]) || fabs(f->v[d]) >= VS_FRES_INF)
			return false;
	return true;
}

bool vs_job_contrib_finite(const struct vs_job_contrib *c)
{
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		if (c->has_oc_inqueue && (c->oc_inqueue.v[d] >= VS_RES_INF ||
					  c->oc_inqueue.v[d] <= -VS_RES_INF))
			return false;
	return fres_finite(&c->allocated) && fres_finite(&c->elastic) &&
	       (!c->has_inqueue || fres_finite(&c->inqueue));
}

static bool fsum_equal(const struct vs_fsum *a, const struct vs_fsum *b)
{
	if (a->f.present != b->f.present || memcmp(a->nr, b->nr, sizeof(a->nr)))
		return false;
	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		if (fabs(a->f.v[d] - b->f.v[d]) > 1e-9 * fmax(1, fabs(a->f.v[d])))
			return false;
	return true;
}

bool vs_queue_rest_equal(const struct vs_queue_rest *a, const struct vs_queue_rest *b)
{
	return a->nr_jobs == b->nr_jobs && fsum_equal(&a->allocated, &b->allocated) &&
	       fsum_equal(&a->inqueue, &b->inqueue) && fsum_equal(&a->elastic, &b->elastic) &&
	       a->oc_inqueue.r.present == b->oc_inqueue.r.present &&
	       !memcmp(a->oc_inqueue.nr, b->oc_inqueue.nr, sizeof(a->oc_inqueue.nr)) &&
	       !memcmp(a->oc_inqueue.r.v, b->oc_inqueue.r.v, sizeof(a->oc_inqueue.r.v));
}
