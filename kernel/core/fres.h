/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_fres: a resource vector in double precision, the float64 mirror
 * of struct vs_res.
 *
 * vs_res holds exact integers, which is what requests, allocatable and
 * allocations are. Some of Volcano's computations are not integral: the
 * proportion plugin hands each queue remaining * weight / totalWeight of the
 * cluster, round after round, and compares what a queue holds with the
 * fractional amount it deserves. Truncating those amounts to integers would
 * change decisions at the boundaries (a queue that deserves 3333.33
 * millicores may hold 3333, not 3334), so such computations run on vs_fres,
 * whose arithmetic is IEEE double as Go's float64 is, with Volcano's
 * comparison rules: a tolerance of 0.1 (minResource) where Volcano has one,
 * none where it has none.
 *
 * The dimensions are vs_res's (same indices, names and units, from the
 * table in res.h); @present says which scalars are in Volcano's map, and an
 * absent scalar holds 0.0. As in vs_res, "no scalar present" stands for
 * both Go's nil and its empty map; the one operation that tells them apart
 * (sub into an empty but non-nil map) does not occur in the computations
 * that use vs_fres. VS_FRES_INF is Volcano's math.MaxFloat64; a vs_res's
 * VS_RES_INF converts to it.
 *
 * Only the operations a caller needs are here; each mirrors its Go function
 * in pkg/scheduler/api/resource_info.go (or helpers.go) predicate for
 * predicate.
 */
#ifndef VS_CORE_FRES_H
#define VS_CORE_FRES_H

#include <float.h>
#include <stddef.h>

#include "core/res.h"

#define VS_FRES_INF	DBL_MAX

struct vs_fres {
	double v[VS_RES_MAX];
	u32 present;		/* bit d set: scalar dimension d is present */
};

static inline void vs_fres_clear(struct vs_fres *r)
{
	*r = (struct vs_fres){ .present = 0 };
}

/* Get(): cpu and memory, or a scalar with absent as zero. */
static inline double vs_fres_get(const struct vs_fres *r, unsigned int dim)
{
	return r->v[dim];
}

static inline bool vs_fres_has(const struct vs_fres *r, unsigned int dim)
{
	return dim < 2 || (r->present & VS_RES_BIT(dim));
}

void vs_fres_set(struct vs_fres *r, unsigned int dim, double value);

/* The same amounts in double precision; VS_RES_INF becomes VS_FRES_INF. */
void vs_fres_from_res(struct vs_fres *f, const struct vs_res *r);
/* Back, rounded to the nearest unit; infinities stay infinite. */
void vs_fres_to_res(struct vs_res *r, const struct vs_fres *f);

/* ---- arithmetic ---- */

/* r += rr; rr's scalars become present in r (Add). */
void vs_fres_add(struct vs_fres *r, const struct vs_fres *rr);

/*
 * r -= rr (sub): cpu and memory always; scalars only when r has any, and
 * then every scalar of rr becomes present in r. No check that rr fits.
 */
void vs_fres_sub(struct vs_fres *r, const struct vs_fres *rr);

/* r *= ratio, per dimension (Multi). */
void vs_fres_multi(struct vs_fres *r, double ratio);

/* r = min(r, rr) over r's dimensions, absent in rr taken as @def (MinDimensionResource). */
void vs_fres_min_dimension(struct vs_fres *r, const struct vs_fres *rr,
			   enum vs_dim_default def);

/*
 * helpers.Max: the larger of l and r per dimension into @out (which may be
 * either). A scalar is kept only from a side where it is not negative.
 */
void vs_fres_max(struct vs_fres *out, const struct vs_fres *l, const struct vs_fres *r);

/*
 * Diff: how much r exceeds rr (@inc) and falls short of it (@dec), absent
 * scalars taken as @def; every scalar of either side lands in exactly one
 * of the two, a tie in @dec at 0. With VS_DIM_INFINITY an absent scalar
 * (and, as in Volcano, a real amount of exactly -1) passes through as -1.
 */
void vs_fres_diff(const struct vs_fres *r, const struct vs_fres *rr,
		  enum vs_dim_default def, struct vs_fres *inc, struct vs_fres *dec);

/* ExceededPart: what of @l exceeds @r, per dimension (Diff's @inc with Zero). */
void vs_fres_exceeded_part(struct vs_fres *out, const struct vs_fres *l,
			   const struct vs_fres *r);

/* ---- comparisons ---- */

/* IsEmpty: every dimension but pods below 0.1. */
bool vs_fres_is_empty(const struct vs_fres *r);

/* ResourceNames: the dimensions holding at least 0.1. */
vs_resmask_t vs_fres_names(const struct vs_fres *r);

/* LessEqual: every dimension of r at most rr's, within 0.1. */
bool vs_fres_less_equal(const struct vs_fres *r, const struct vs_fres *rr,
			enum vs_dim_default def);

/*
 * LessEqualWithDimensionAndResourcesName: the dimensions @req asks for
 * (pods ignored) where r exceeds rr, strictly and without tolerance; 0 when
 * r fits. A scalar is not looked at when r has none at all.
 */
vs_resmask_t vs_fres_exceeding_dim(const struct vs_fres *r, const struct vs_fres *rr,
				   const struct vs_fres *req);

/*
 * LessEqualPartlyWithDimensionZeroFiltered: the dimensions @req asks for
 * (pods ignored) where r is at most rr within 0.1, leaving out those where
 * both r and rr are below 0.1; 0 when there is none. Absent scalars count
 * as zero.
 */
vs_resmask_t vs_fres_le_partly_zero_filtered(const struct vs_fres *r, const struct vs_fres *rr,
					     const struct vs_fres *req);

/*
 * GreaterPartlyWithRelevantDimensions: the dimensions @req asks for (pods
 * ignored) where r exceeds rr strictly, looking only at the ones rr has:
 * cpu or memory of at least 0.1, scalars present in rr (even at zero).
 */
vs_resmask_t vs_fres_gt_partly_relevant(const struct vs_fres *r, const struct vs_fres *rr,
					const struct vs_fres *req);

/*
 * equality.Semantic.DeepEqual on two Resources: the same scalars present
 * and every amount equal (==, no tolerance).
 */
bool vs_fres_same(const struct vs_fres *a, const struct vs_fres *b);

/* helpers.Share: l / r, with 0/0 = 0 and x/0 = 1. */
double vs_fshare(double l, double r);

/* "cpu 2000.00, memory 1073741824.00, pods 1.00" (Volcano's String(), in dimension order). */
int vs_fres_fmt(const struct vs_res_dims *dims, char *buf, size_t len, const struct vs_fres *r);

#endif /* VS_CORE_FRES_H */
