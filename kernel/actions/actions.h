/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The built-in actions, listed for the framework's registry, and the pieces
 * they share: node selection (allocate, backfill) and victim selection
 * (preempt, reclaim; the order victims are taken in is sched/victims.h, which
 * the capacity plugin uses too).
 */
#ifndef VS_ACTIONS_H
#define VS_ACTIONS_H

#include "sched/framework.h"
#include "sched/pqueue.h"
#include "sched/session.h"
#include "sched/victims.h"

extern const struct vs_action_ops vs_action_enqueue;
extern const struct vs_action_ops vs_action_allocate;
extern const struct vs_action_ops vs_action_backfill;
extern const struct vs_action_ops vs_action_preempt;
extern const struct vs_action_ops vs_action_reclaim;
extern const struct vs_action_ops vs_action_gangpreempt;
extern const struct vs_action_ops vs_action_gangreclaim;

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

/*
 * The predicate of preempt and reclaim (Volcano's PredicateForPreemptAction):
 * resources are not checked, since victims are to free them, and a node is
 * refused only when a predicate fails in a way no eviction can resolve
 * (fe->unresolvable). 0, or -EINVAL with the reason in @fe.
 */
int vs_preempt_predicate(struct vs_session *ssn, const struct vs_task *task,
			 const struct vs_node *node, struct vs_fit_error *fe);

/* Volcano's PreemptableStatus: only a Running or Bound task can be a victim. */
static inline bool vs_task_evictable_status(const struct vs_task *task)
{
	return task->status == VS_TASK_RUNNING || task->status == VS_TASK_BOUND;
}

/*
 * Volcano's ValidateVictims: would @task fit @node's FutureIdle once every
 * one of @victims had given back what it holds?
 */
bool vs_victims_validate(const struct vs_task *task, const struct vs_node *node,
			 struct vs_task *const *victims, u32 nr);

/* Sort tasks by creation order, the order vsched gives candidate victims. */
void vs_tasks_sort_by_creation(struct vs_task **tasks, u32 nr);

/* Compare queues, jobs and tasks for the priority queues: the session's orders. */
int vs_cmp_queue(struct vs_session *ssn, const void *a, const void *b);
int vs_cmp_job(struct vs_session *ssn, const void *a, const void *b);
int vs_cmp_task(struct vs_session *ssn, const void *a, const void *b);

/* Is @action configured in this session's cycle? */
bool vs_session_has_action(const struct vs_session *ssn, const char *action);

#endif /* VS_ACTIONS_H */
