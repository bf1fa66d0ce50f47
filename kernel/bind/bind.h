/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bind pipeline: what becomes of a task between the scheduler's
 * decision and the cluster's answer, for every program that runs the core
 * (vschedd, "vsctl scenario run" in-process, vsbench's in-process runs).
 *
 * A committed allocation leaves its task Binding, assumed onto its node and
 * counted there (vs_ssn_dispatch() in sched/, which hands it to the
 * decision sink). Whoever binds answers: a bind that succeeded makes the
 * task Bound; one that failed, or that had no answer within the timeout,
 * forgets the assumption and backs the task off, as kube-scheduler's
 * Forget and pod backoff do. The standalone binder answers for a cluster
 * that has none: bound, then running, as a binder and a kubelet would.
 *
 * Time is the caller's clock, in ns, given to each call that reads it:
 * vschedd passes CLOCK_MONOTONIC (vs_nl_now_ns()), a simulation or a test
 * its own. The scheduler waits out the backoffs on the clock it is given
 * (vs_sched.now_ns), which must be the same one.
 */
#ifndef VS_BIND_BIND_H
#define VS_BIND_BIND_H

#include <stddef.h>

#include "core/compiler.h"
#include "core/task.h"

struct vs_cluster;
struct vs_err;

/* ---- outcomes (outcome.c) ---- */

/* The backoff after @failures failed binds in a row: 1 s, doubling, at most 10 s. */
#define VS_BIND_BACKOFF_INITIAL_NS	1000000000ULL
#define VS_BIND_BACKOFF_MAX_NS		10000000000ULL
u64 vs_bind_backoff_ns(u32 failures);

/*
 * The outcome of a Binding task's bind (-EINVAL, changing nothing, for a
 * task that is not Binding). Succeeded: it is Bound and its failures are
 * cleared. Failed (@error: the binder's negative errno, @msg its message
 * or NULL): the task leaves its node, is Pending again, counts one more
 * failure, keeps "binding to node N failed: MSG (error E)" for
 * explanations, and is not scheduled again before @now_ns plus
 * vs_bind_backoff_ns(failures). A failure is logged as a warning.
 */
int vs_bind_succeeded(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err);
int vs_bind_failed(struct vs_cluster *cl, struct vs_task *task, u64 now_ns, s32 error,
		   const char *msg, struct vs_err *err);

/*
 * The standalone binder's answer for a Binding task: its bind succeeded
 * and its pod runs (Bound, then Running), as a binder and then the
 * kubelet would report.
 */
int vs_bind_confirm(struct vs_cluster *cl, struct vs_task *task, struct vs_err *err);

/*
 * vs_bind_confirm() for each of @tasks still Binding (a task evicted since
 * its bind is Releasing: only its eviction applies to it). The tasks must
 * all still exist: an in-process run confirms a cycle's binds right after
 * it. Returns how many were confirmed.
 */
size_t vs_bind_confirm_all(struct vs_cluster *cl, struct vs_task *const *tasks, size_t nr);

/* ---- binds waiting for their result (waits.c) ---- */

/*
 * A bind handed to an outside binder, and when it stops waiting. The
 * task's failures in a row when it was dispatched tell this bind from a
 * later one of the same task: a failed bind counts one more, and only a
 * failure (not a success) brings a task back to Binding.
 */
struct vs_bind_wait {
	struct vs_task_ref task;
	u64 deadline_ns;		/* on the caller's clock */
	u16 failures;			/* vs_task_bind_failures() at dispatch */
};

/*
 * The binds waiting for their result, oldest first: a ring in dispatch
 * order, which is deadline order since the timeout is one. An entry whose
 * bind is over (its result came, its task was deleted or bound again
 * after a failure) is dropped when its deadline comes.
 */
struct vs_binds {
	struct vs_cluster *cl;
	u64 timeout_ns;			/* 0: a bind waits for its result however long */
	struct vs_bind_wait *waits;
	size_t head, nr, cap;
};

void vs_binds_init(struct vs_binds *b, struct vs_cluster *cl, u64 timeout_ns);
/* Forget every bind waiting (the objects were reset), keeping the ring. */
void vs_binds_forget(struct vs_binds *b);
void vs_binds_destroy(struct vs_binds *b);

/*
 * @task, just dispatched at @now_ns, waits for its result until now plus
 * the timeout (nothing to do without a timeout). -ENOMEM: it has no
 * timeout, and stays Binding until its result comes.
 */
int vs_binds_wait(struct vs_binds *b, const struct vs_task *task, u64 now_ns);

/*
 * The next bind past its deadline at @now_ns whose task is still Binding,
 * taken off the ring, or NULL when none is: for a caller that fails it
 * its own way (vschedd, through its dispatcher). vs_binds_expire() fails
 * each in the core.
 */
struct vs_task *vs_binds_next_expired(struct vs_binds *b, u64 now_ns);

/*
 * Fail every bind past its deadline at @now_ns, as a binder reporting
 * -ETIMEDOUT would (vs_bind_failed()). 0, or the first error (its task
 * stays Binding, without a timeout).
 */
int vs_binds_expire(struct vs_binds *b, u64 now_ns, struct vs_err *err);

/* Milliseconds from @now_ns to the next deadline (rounded up), -1 when no bind waits. */
int vs_binds_next_ms(const struct vs_binds *b, u64 now_ns);

/* A timed-out bind's message: "no bind result within N ms". */
void vs_binds_timeout_msg(const struct vs_binds *b, char *buf, size_t size);

#endif /* VS_BIND_BIND_H */
