/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Resources: struct vs_res, a fixed-size vector of exact integers.
 *
 * Dimension 0 is cpu in millicores, 1 is memory in bytes; both are always
 * present. Every other dimension is a scalar resource registered by name
 * (pods, ephemeral-storage, nvidia.com/gpu, hugepages-2Mi, ...), at an index
 * from the name table of the cluster the vector belongs to (struct
 * vs_res_dims). Units follow Volcano's NewResource exactly:
 * cpu in millicores, memory in bytes, pods as a count, and every other scalar
 * (ephemeral-storage included) in milli-units of its quantity, so that
 * "nvidia.com/gpu: 1" is 1000.
 *
 * Volcano keeps scalars in a map, and a scalar that is absent from the map is
 * not the same as one that is zero: comparisons take a default for absent
 * dimensions (Zero or Infinity). @present keeps that distinction, one bit per
 * scalar dimension.
 *
 * Volcano compares floats with a tolerance of 0.1 (minResource). Our values
 * are integers in the same units, so "|l - r| < 0.1" is exactly "l == r" and
 * "v < 0.1" is "v <= 0": the integer forms below are the same predicates.
 *
 * VS_RES_INF stands for an unlimited amount (Volcano's MaxFloat64): arithmetic
 * saturates at it, and INF - x stays INF.
 *
 * The core's totals (a job's total_request and allocated, a queue's allocated
 * and request, a node's used, releasing and pipelined, the cluster's
 * allocatable) are vs_res too, kept by adding each member when it comes and
 * taking it out when it goes. They stay s64, not wider, because every hot
 * path reads them as vs_res (predicates compare requests with idle on every
 * node tried). Their overflow is defined: a true total past INT64_MAX - 1
 * reads as VS_RES_INF (saturation, what a sum taken afresh with vs_res_add()
 * gives), and since a saturated total has lost what it held, taking a member
 * out of one (vs_res_saturated()) counts it again from its members instead
 * of subtracting: exact below the limit, the same as a fresh sum past it,
 * and a walk of the members only past 8 EiB. The sums that must stay exact
 * past the limit (a queue's resting jobs, a session's float attributes) are
 * struct vs_sum (core/sum.h).
 */
#ifndef VS_CORE_RES_H
#define VS_CORE_RES_H

#include <stddef.h>
#include "core/compiler.h"
#include "core/err.h"

#define VS_RES_CPU	0	/* millicores */
#define VS_RES_MEMORY	1	/* bytes */
#define VS_RES_PODS	2	/* count; registered first, always at this index */
#define VS_RES_MAX	16	/* dimensions in a vector, cpu and memory included */

#define VS_RES_INF	INT64_MAX

/* How a comparison treats a scalar dimension absent from one side. */
enum vs_dim_default {
	VS_DIM_ZERO,		/* absent counts as zero */
	VS_DIM_INFINITY,	/* absent counts as unlimited */
};

struct vs_res {
	s64 v[VS_RES_MAX];
	u32 present;		/* bit d set: scalar dimension d is present */
};

/* A mask of dimensions (bit d for dimension d), as comparisons report them. */
typedef u32 vs_resmask_t;

#define VS_RES_BIT(d)		((vs_resmask_t)1 << (d))
#define VS_RES_ALWAYS		(VS_RES_BIT(VS_RES_CPU) | VS_RES_BIT(VS_RES_MEMORY))

/* ---- the dimension name table ---- */

/*
 * The longest name accepted. Kubernetes would let a qualified name reach
 * 253 + 1 + 63 characters; no real resource name comes near 253, and this
 * bound lets the table keep names inline.
 */
#define VS_RES_NAME_MAX		253

/*
 * Which scalar each index of a vector means: a cluster's own (struct
 * vs_cluster's @dims), since two clusters may register different names in
 * different orders. cpu, memory and pods come first and stay; scalars are
 * appended by vs_res_dim_get() in the order they are first seen. Only
 * name <-> index lookups need a table: the arithmetic below works on
 * indices and takes none. Lookups are a linear scan: there are at most
 * VS_RES_MAX names.
 */
struct vs_res_dims {
	unsigned int n;
	u8 len[VS_RES_MAX];
	char name[VS_RES_MAX][VS_RES_NAME_MAX + 1];
};

/* A table with cpu, memory and pods alone. */
void vs_res_dims_init(struct vs_res_dims *dims);

/* The number of registered dimensions (cpu, memory, pods and the scalars). */
static inline unsigned int vs_res_ndims(const struct vs_res_dims *dims)
{
	return dims->n;
}

/*
 * The dimension's Kubernetes name ("cpu", "nvidia.com/gpu"), or NULL. Inline:
 * a fit error names the first short resource on every node a predicate refuses.
 */
static inline const char *vs_res_dim_name(const struct vs_res_dims *dims, unsigned int dim)
{
	return dim < dims->n ? dims->name[dim] : NULL;
}

/* The index of a registered dimension, or -ENOENT. */
int vs_res_dim_lookup(const struct vs_res_dims *dims, const char *name, size_t len);

/*
 * The index of @name, registering it if it is new. Refuses names Kubernetes
 * would not accept as a resource (with the reason in @err), quota names
 * ("count/..."), both -EINVAL, and a name past the last free dimension
 * (-ENOSPC). A cluster's table grows through vs_cluster_dim_get(), which
 * journals the name in the open transaction.
 */
int vs_res_dim_get(struct vs_res_dims *dims, const char *name, size_t len,
		   struct vs_err *err);

/*
 * Forget the scalars registered since vs_res_ndims() was @mark (never cpu,
 * memory or pods): how a transaction's undo gives back a name.
 */
void vs_res_dims_rewind(struct vs_res_dims *dims, unsigned int mark);

/* ---- quantities ---- */

/*
 * Parse a Kubernetes quantity ("500m", "1.5", "4Gi", "1G", "2e3", "1Ki") of
 * @len bytes into an integer in units of 10^-@milli (milli = 3 for
 * millicores, 0 for plain units), rounding up as Quantity.MilliValue() and
 * Value() do. Refuses malformed text, negative values and values past
 * INT64_MAX - 1, with the reason in @err.
 */
int vs_quantity_parse(const char *s, size_t len, unsigned int milli, s64 *out,
		      struct vs_err *err);

/*
 * Print @v (in units of 10^-@milli) as a canonical quantity: "500m", "2",
 * "4Gi", "1536Mi", "1G". Binary suffixes are preferred for dimensions counted
 * in bytes (@binary; used with milli 0 only). Returns the length snprintf
 * would.
 */
int vs_quantity_fmt(char *buf, size_t len, s64 v, unsigned int milli, bool binary);

/*
 * The units of a dimension: 3 for millicores and milli-scalars, 0 otherwise.
 * Decided by the index alone (memory and pods are at fixed ones): no table.
 */
unsigned int vs_res_dim_milli(unsigned int dim);

/*
 * Set the dimension named @name of @r from the quantity text @qty, in that
 * dimension's units; the dimension becomes present. "pods" also counts as
 * Volcano's MaxTaskNum. Errors name the resource and the bad text.
 */
int vs_res_set_quantity(struct vs_res_dims *dims, struct vs_res *r, const char *name,
			size_t name_len, const char *qty, size_t qty_len, struct vs_err *err);

/*
 * "cpu 2, memory 4Gi, nvidia.com/gpu 1" (absent scalars omitted), the
 * scalars named by @dims.
 */
int vs_res_fmt(const struct vs_res_dims *dims, char *buf, size_t len, const struct vs_res *r);

/* ---- arithmetic ---- */

static inline void vs_res_clear(struct vs_res *r)
{
	*r = (struct vs_res){ 0 };
}

/* Volcano's InfiniteResource: cpu and memory unlimited, no scalars. */
void vs_res_set_infinite(struct vs_res *r);

/*
 * a + b, stuck at VS_RES_INF once either side is unlimited, and at
 * +-VS_RES_INF past the range of s64. Only unlimited minus unlimited
 * (-VS_RES_INF, from finite - INF) cancels to 0, as -MaxFloat64 +
 * MaxFloat64 does in Volcano.
 */
static inline s64 vs_res_sat_add(s64 a, s64 b)
{
	s64 s;

	if (unlikely(a == VS_RES_INF || b == VS_RES_INF))
		return a == -VS_RES_INF || b == -VS_RES_INF ? 0 : VS_RES_INF;
	if (unlikely(__builtin_add_overflow(a, b, &s)))
		return a > 0 ? VS_RES_INF : -VS_RES_INF;
	return s;
}

/*
 * a + b, held at the ends of s64 instead of overflowing: for sums of
 * amounts that are never unlimited, where vs_res_sat_add()'s checks of
 * VS_RES_INF would cost on every node scored.
 */
static inline s64 vs_add_clamped(s64 a, s64 b)
{
	s64 s;

	if (unlikely(__builtin_add_overflow(a, b, &s)))
		return a > 0 ? INT64_MAX : INT64_MIN;
	return s;
}

/*
 * Whether some dimension of @r is at +-VS_RES_INF: a total that saturated,
 * which a subtraction cannot take apart (see the top of this file).
 */
static inline bool vs_res_saturated(const struct vs_res *r)
{
	bool sat = false;

	for (unsigned int d = 0; d < VS_RES_MAX; d++)
		sat |= r->v[d] == VS_RES_INF || r->v[d] == -VS_RES_INF;
	return sat;
}

/*
 * The same over the dimensions @by has (cpu, memory, its scalars): the
 * only ones a subtraction of @by changes, so the only ones that decide
 * whether @r can take it exactly. On every task that moves: kept short.
 */
static inline bool vs_res_saturated_by(const struct vs_res *r, const struct vs_res *by)
{
	bool sat = r->v[VS_RES_CPU] == VS_RES_INF || r->v[VS_RES_CPU] == -VS_RES_INF ||
		   r->v[VS_RES_MEMORY] == VS_RES_INF || r->v[VS_RES_MEMORY] == -VS_RES_INF;

	for (u32 m = by->present; m; m &= m - 1) {
		s64 v = r->v[__builtin_ctz(m)];

		sat |= v == VS_RES_INF || v == -VS_RES_INF;
	}
	return sat;
}

static inline s64 vs_res_get(const struct vs_res *r, unsigned int dim)
{
	return r->v[dim];
}

static inline bool vs_res_has(const struct vs_res *r, unsigned int dim)
{
	return dim < 2 || (r->present & VS_RES_BIT(dim));
}

void vs_res_set(struct vs_res *r, unsigned int dim, s64 value);

/* r += rr, saturating at VS_RES_INF; rr's scalars become present in r. */
void vs_res_add(struct vs_res *r, const struct vs_res *rr);

/*
 * r -= rr, as Volcano's sub: cpu and memory always; if r has no scalar at all
 * (Volcano's nil map) its scalars are left alone, otherwise every scalar of rr
 * is taken from r and becomes present in r (at -x if r lacked it).
 * INF - x stays INF, INF - INF is 0. May go negative; callers that must not
 * check with vs_res_less_equal() first, as Volcano's Sub asserts.
 */
void vs_res_sub(struct vs_res *r, const struct vs_res *rr);

/* r = max(r, rr) per dimension (SetMaxResource). */
void vs_res_set_max(struct vs_res *r, const struct vs_res *rr);

/* r = min(r, rr) per dimension, absent taken as @def (MinDimensionResource). */
void vs_res_min_dimension(struct vs_res *r, const struct vs_res *rr,
			  enum vs_dim_default def);

/* r *= ratio, rounded toward zero (Multi); INF stays INF. */
void vs_res_multi(struct vs_res *r, double ratio);

/* ---- comparisons, with Volcano's semantics ---- */

/* IsEmpty: every dimension but pods is zero. */
bool vs_res_is_empty(const struct vs_res *r);

/* IsZero for one dimension (absent counts as zero). */
bool vs_res_is_zero(const struct vs_res *r, unsigned int dim);

/* ResourceNames: the dimensions holding a positive amount. */
vs_resmask_t vs_res_names(const struct vs_res *r);

/* Equal: every dimension of r equals rr's (r's scalars only, absent = 0). */
bool vs_res_equal(const struct vs_res *r, const struct vs_res *rr);

/* Less: every dimension of r strictly less than rr's. */
bool vs_res_less(const struct vs_res *r, const struct vs_res *rr,
		 enum vs_dim_default def);

/* LessEqual: every dimension of r less than or equal to rr's. */
bool vs_res_less_equal(const struct vs_res *r, const struct vs_res *rr,
		       enum vs_dim_default def);

/*
 * LessEqualWithResourcesName: the dimensions where r exceeds rr (0 when r
 * fits), so that callers can say which resources are insufficient.
 */
vs_resmask_t vs_res_exceeding(const struct vs_res *r, const struct vs_res *rr,
			      enum vs_dim_default def);

/*
 * LessEqualWithDimensionAndResourcesName: as vs_res_exceeding, but only over
 * the dimensions @req asks for (pods ignored); absent scalars count as zero.
 */
vs_resmask_t vs_res_exceeding_dim(const struct vs_res *r, const struct vs_res *rr,
				  const struct vs_res *req);

/* LessPartly / LessEqualPartly: some dimension of r is below (or at) rr's. */
bool vs_res_less_partly(const struct vs_res *r, const struct vs_res *rr,
			enum vs_dim_default def);
bool vs_res_less_equal_partly(const struct vs_res *r, const struct vs_res *rr,
			      enum vs_dim_default def);

/*
 * Diff: per dimension, how much r exceeds rr (@inc) and falls short of it
 * (@dec), absent dimensions taken as @def. Every scalar of either side is
 * present in exactly one of the two (a tie goes to @dec, at 0). With
 * VS_DIM_INFINITY an absent scalar yields -1 ("unlimited", as Volcano marks
 * it): in @inc when r lacks it, in @dec when rr does.
 */
void vs_res_diff(const struct vs_res *r, const struct vs_res *rr,
		 enum vs_dim_default def, struct vs_res *inc, struct vs_res *dec);

/* helpers.Share: l / r, with 0/0 = 0 and x/0 = 1. */
double vs_share(s64 l, s64 r);

/*
 * The dominant share of @alloc in @total (DRF): the largest
 * vs_share(alloc[d], total[d]) over the dimensions @total holds.
 */
double vs_res_dominant_share(const struct vs_res *alloc, const struct vs_res *total);

#endif /* VS_CORE_RES_H */
