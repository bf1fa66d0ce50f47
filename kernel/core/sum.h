/* SPDX-License-Identifier: Apache-2.0 */
/*
 * struct vs_sum: a sum of resource vectors kept exactly, for totals that
 * are added to and taken from again (a queue's resting jobs, a session
 * queue's allocated).
 *
 * Why 128 bits: one amount may be as large as INT64_MAX - 1 (a quantity of
 * nearly 8 EiB parses; VS_RES_INF is INT64_MAX), so two of them already
 * pass the range of s64. A sum that saturated (vs_res_add()) or rounded
 * (a double: above 2^53 it keeps 53 bits, so 4 EiB + 1000003 bytes loses
 * the 1000003) is no longer the sum of what it holds, and taking a member
 * out leaves it wrong for good. A signed 128-bit integer holds the exact
 * sum of up to 2^64 amounts of either sign, more members than there are
 * objects, so adding and subtracting in any order gives what a sum taken
 * afresh gives: there is no overflow to define.
 *
 * VS_RES_INF is not an amount but "unlimited": it is counted apart
 * (@nr_inf), so that an unlimited member makes the dimension unlimited
 * while it is in the sum and leaves the exact amount of the others when
 * it goes. -VS_RES_INF (only finite - INF makes it) is taken as the
 * finite amount it is.
 *
 * The sum is read through vs_sum_to_res() (amounts past the range of s64
 * read as +-VS_RES_INF, as vs_res_add() would have saturated) or
 * vs_sum_to_fres(): the double nearest the exact sum, so that a share or
 * deserved amount that Volcano computes in float64 comes from the exact
 * total, and equals Volcano's wherever its float64 sums are exact (every
 * amount and sum below 2^53).
 *
 * @present follows vs_res_add()/vs_res_sub() (Volcano's Add and Sub on
 * a scalar map), so that a float vector read from the sum has the
 * scalars the same operations on vs_fres would have given it.
 */
#ifndef VS_CORE_SUM_H
#define VS_CORE_SUM_H

#include "core/fres.h"
#include "core/res.h"

/*
 * 8-byte aligned, as everything the pools and arenas hand out is: a
 * __int128 wants 16, which an object embedding a sum (a queue) would not
 * get. GCC and Clang then access it without assuming 16.
 */
typedef __int128 s128 __attribute__((aligned(8)));

struct vs_sum {
	s128 v[VS_RES_MAX];		/* the finite amounts, exactly */
	u32 nr_inf[VS_RES_MAX];		/* members at VS_RES_INF in the dimension */
	u32 present;			/* bit d set: scalar dimension d is present */
};

static inline void vs_sum_clear(struct vs_sum *s)
{
	*s = (struct vs_sum){ .present = 0 };
}

/* s += r, as vs_res_add(): r's scalars become present in s. */
void vs_sum_add(struct vs_sum *s, const struct vs_res *r);

/* s += o: o's amounts, unlimited members and scalars join s. */
void vs_sum_add_sum(struct vs_sum *s, const struct vs_sum *o);

/*
 * s -= r, as vs_res_sub(): cpu and memory always; scalars only when s has
 * any, and then every scalar of r becomes present in s. r should be a
 * member, or s may count -1 unlimited members of a dimension, which reads
 * as finite.
 */
void vs_sum_sub(struct vs_sum *s, const struct vs_res *r);

/* One dimension as s64: VS_RES_INF when unlimited or past INT64_MAX - 1, -VS_RES_INF below its negative. */
s64 vs_sum_get(const struct vs_sum *s, unsigned int dim);

/* The sum as a vs_res, each dimension as vs_sum_get() reads it. */
void vs_sum_to_res(struct vs_res *r, const struct vs_sum *s);

/* The sum in double precision, the nearest double to each exact amount; unlimited is VS_FRES_INF. */
void vs_sum_to_fres(struct vs_fres *f, const struct vs_sum *s);

/*
 * The dominant share of @alloc in @total, as vs_res_dominant_share() has it
 * (DRF), from the exact amounts: the largest vs_share() over the dimensions
 * @total holds, an unlimited amount taken as VS_RES_INF.
 */
double vs_sum_dominant_share(const struct vs_sum *alloc, const struct vs_res *total);

/* The same amounts, the same unlimited members and the same scalars present. */
bool vs_sum_equal(const struct vs_sum *a, const struct vs_sum *b);

#endif /* VS_CORE_SUM_H */
