/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What res.c and fres.c share. struct vs_res and struct vs_fres lay out the
 * same (v[] by dimension, @present for the scalars) and differ only in the
 * amount's type; where Volcano's Go is the same for both, so is the C,
 * written here once and instantiated in each file for its type.
 *
 * Internal to kernel/core/: not for the plugins, which use res.h and fres.h.
 */
#ifndef VS_CORE_RESVEC_H
#define VS_CORE_RESVEC_H

#include "core/res.h"

/* Walk the set bits of @mask, lowest first; @tmp is scratch. */
#define for_each_res_dim(d, tmp, mask) \
	for ((tmp) = (mask); (tmp) && ((d) = __builtin_ctz(tmp), true); \
	     (tmp) &= (tmp) - 1)

/* static scalar_or(): a scalar's value, or @def when it is absent. */
#define DEFINE_RES_SCALAR_OR(type, amount)					\
static inline amount scalar_or(const struct type *r, unsigned int d, amount def)	\
{										\
	return r->present & VS_RES_BIT(d) ? r->v[d] : def;			\
}

/* fn(r, dim, value): set a dimension; a scalar becomes present. */
#define DEFINE_RES_SET(fn, type, amount)					\
void fn(struct type *r, unsigned int dim, amount value)				\
{										\
	r->v[dim] = value;							\
	if (dim >= 2)								\
		r->present |= VS_RES_BIT(dim);					\
}

/* fn(r, rr, def): r = min(r, rr) per dimension, MinDimensionResource. */
#define DEFINE_RES_MIN_DIMENSION(fn, type)					\
void fn(struct type *r, const struct type *rr, enum vs_dim_default def)		\
{										\
	unsigned int d;								\
	u32 m;									\
										\
	if (rr->v[VS_RES_CPU] < r->v[VS_RES_CPU])				\
		r->v[VS_RES_CPU] = rr->v[VS_RES_CPU];				\
	if (rr->v[VS_RES_MEMORY] < r->v[VS_RES_MEMORY])				\
		r->v[VS_RES_MEMORY] = rr->v[VS_RES_MEMORY];			\
	/* only r's scalars; one rr lacks is min(x, 0) = 0 or min(x, inf) = x */\
	for_each_res_dim(d, m, r->present) {					\
		if (rr->present & VS_RES_BIT(d)) {				\
			if (rr->v[d] < r->v[d])					\
				r->v[d] = rr->v[d];				\
		} else if (def == VS_DIM_ZERO) {				\
			r->v[d] = 0;						\
		}								\
	}									\
}

#endif /* VS_CORE_RESVEC_H */
