/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Resting jobs: what a session need not look at.
 *
 * A session's cost should grow with the jobs that have work, not with the
 * jobs the cluster holds (DESIGN.md, "Choosing a node fast, and exactly";
 * Documentation/scheduling.md, "Sessions"). A job that has nothing pending
 * and whose PodGroup phase the session's job updater would leave as it is
 * has nothing for enqueue, allocate or backfill to do: after a session
 * closes it rests, and the next sessions leave it out of their view until
 * something about it changes (a task's status, a task added or deleted,
 * its phase or spec, its queue): then it wakes, before the change is made.
 *
 * What the plugins would have read from a resting job at session open
 * they read from its queue's sums instead: its contribution, counted in
 * when it rests and out when it wakes, computed by one function
 * (vs_job_contrib(), job.h) that the plugins use for the jobs in view too.
 * Each sum counts, per dimension, the contributions that have it, so that
 * a scalar resource is present in the sum exactly when a resting job's
 * contribution has it, as a sum taken afresh would have it.
 */
#ifndef VS_CORE_REST_H
#define VS_CORE_REST_H

#include "core/sum.h"

/*
 * An exact sum (core/sum.h) that knows which contributions have each
 * scalar: a scalar is present while a member has it.
 */
struct vs_rsum {
	struct vs_sum s;
	u32 nr[VS_RES_MAX];
};

void vs_rsum_add(struct vs_rsum *s, const struct vs_res *r);
void vs_rsum_sub(struct vs_rsum *s, const struct vs_res *r);

/*
 * What a job gives the session's queue attributes (Volcano's proportion
 * plugin: allocated, inqueue, elastic; overcommit: inqueue), from its
 * state alone, in exact integers: the plugins take doubles from them (or
 * from their sums) where Volcano computes in float64. A resting job's
 * request equals its allocated (it has nothing pending).
 */
struct vs_job_contrib {
	struct vs_res allocated;	/* its AllocatedStatus tasks' requests */
	bool has_inqueue;
	struct vs_res inqueue;		/* proportion: the minResources it still reserves */
	struct vs_res elastic;		/* what it holds beyond its minResources */
	bool has_oc_inqueue;
	struct vs_res oc_inqueue;	/* overcommit: minResources, or the part still reserved */
};

/*
 * A queue's sums over its resting jobs. Exact: adding a job when it rests
 * and taking it out when it wakes leaves what a sum taken afresh over the
 * jobs still resting gives, whatever the amounts and the order.
 */
struct vs_queue_rest {
	u32 nr_jobs;
	struct vs_rsum allocated;
	struct vs_rsum inqueue;
	struct vs_rsum elastic;
	struct vs_rsum oc_inqueue;
};

void vs_queue_rest_add(struct vs_queue_rest *qr, const struct vs_job_contrib *c);
void vs_queue_rest_sub(struct vs_queue_rest *qr, const struct vs_job_contrib *c);

/* Whether two sums agree (tests and vs_cluster_check()): exactly. */
bool vs_queue_rest_equal(const struct vs_queue_rest *a, const struct vs_queue_rest *b);

#endif /* VS_CORE_REST_H */
