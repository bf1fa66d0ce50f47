/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in actions, listed for the framework's registry, and the pieces
 * of node selection that allocate and backfill share.
 */
#ifndef VS_ACTIONS_H
#define VS_ACTIONS_H

#include "sched/framework.h"
#include "sched/session.h"

extern const struct vs_action_ops vs_action_enqueue;
extern const struct vs_action_ops vs_action_allocate;
extern const struct vs_action_ops vs_action_backfill;

/* NULL-terminated. */
extern const struct vs_action_ops *const vs_builtin_actions[];

/*
 * Score @nodes for @task with the session's NodeOrder plugins and pick one:
 * BestNode plugins first, else the highest score, ties going to the node
 * listed first (Volcano picks at random among them; vsched is deterministic,
 * and its nodes are listed in creation order). NULL when @nr is 0.
 */
struct vs_node *vs_select_best_node(struct vs_session *ssn, const struct vs_task *task,
				    struct vs_node **nodes, u32 nr, double *score);

/*
 * The predicate of allocate and backfill: the task's request must fit the
 * node's FutureIdle ("Insufficient cpu" otherwise), then every Predicate
 * plugin must pass. 0, or -EINVAL with the reason in @fe.
 */
int vs_allocate_predicate(struct vs_session *ssn, const struct vs_task *task,
			  const struct vs_node *node, struct vs_fit_error *fe);

/* Compare queues, jobs and tasks for the priority queues: the session's orders. */
int vs_cmp_queue(struct vs_session *ssn, const void *a, const void *b);
int vs_cmp_job(struct vs_session *ssn, const void *a, const void *b);
int vs_cmp_task(struct vs_session *ssn, const void *a, const void *b);

/* Is @action configured in this session's cycle? */
bool vs_session_has_action(const struct vs_session *ssn, const char *action);

#endif /* VS_ACTIONS_H */
