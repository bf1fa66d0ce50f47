/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statements: the undo log of a scheduling decision (seed 000).
 *
 * Each operation changes the live state at once and is recorded:
 *   Allocate:	Pending -> Allocated on a node (idle -= req)
 *   Pipeline:	Pending -> Pipelined on a node (pipelined += req)
 *   Evict:	Running -> Releasing (releasing += req)
 * and the session's allocate or deallocate event handlers run, so that
 * plugin state such as queue and DRF shares follows every step.
 *
 * vs_stmt_commit() walks the log forward: allocations become Binding and go
 * to the decision sink as binds, evictions go to it as evicts, pipelines stay
 * as they are. vs_stmt_discard() walks it backward and undoes each step
 * (unallocate, unpipeline, unevict) whose task is still as that step left it.
 * Either ends the statement; one left open is discarded when its session
 * closes.
 *
 * vs_stmt_save() copies a log so that vs_stmt_recover() can replay it on a
 * fresh statement after a discard: how a dry run over several candidate
 * placements keeps the best one.
 */
#ifndef VS_SCHED_STATEMENT_H
#define VS_SCHED_STATEMENT_H

#include "core/cluster.h"

struct vs_session;

enum vs_stmt_op_kind {
	VS_OP_ALLOCATE,
	VS_OP_PIPELINE,
	VS_OP_EVICT,
};

struct vs_stmt_op {
	enum vs_stmt_op_kind kind;
	struct vs_task *task;
	struct vs_node *node;		/* where it was allocated or pipelined */
	const char *reason;		/* evictions: why (static or arena string) */
	enum vs_task_status prev;	/* evictions: the status to restore */
	bool evicted;			/* pipelines: EvictionOccurred, room made by evictions */
};

struct vs_statement {
	struct vs_session *ssn;
	struct vs_arena *arena;		/* its memory: the session arena, or vs_stmt_new_in()'s */
	struct vs_stmt_op *ops;
	u32 nr, cap;
	bool open;			/* on ssn->open_stmts */
	struct list_head node;
};

/* A saved log, independent of the statement it came from. */
struct vs_stmt_log {
	struct vs_stmt_op *ops;
	u32 nr;
};

/* A new, open statement of @ssn (from its arena); NULL when out of memory. */
struct vs_statement *vs_stmt_new(struct vs_session *ssn);
/*
 * The same from @arena: for a statement that is discarded before @arena
 * is reset (a dry run), so that what it did costs the session nothing.
 */
struct vs_statement *vs_stmt_new_in(struct vs_session *ssn, struct vs_arena *arena);

/*
 * Allocate @task (Pending) on @node. On failure (the task is not Pending,
 * memory) nothing changes and the reason is in @err.
 */
int vs_stmt_allocate(struct vs_statement *stmt, struct vs_task *task,
		     struct vs_node *node, struct vs_err *err);

/*
 * Pipeline @task (Pending) onto @node, to wait for its releasing resources;
 * @evicted: evictions made that room for it (Volcano's EvictionOccurred),
 * so that the node is written as its nominated one if it stays pipelined.
 */
int vs_stmt_pipeline(struct vs_statement *stmt, struct vs_task *task,
		     struct vs_node *node, bool evicted, struct vs_err *err);

/* Evict @task (Running, Bound or Binding, on a node). */
int vs_stmt_evict(struct vs_statement *stmt, struct vs_task *task, const char *reason,
		  struct vs_err *err);

void vs_stmt_commit(struct vs_statement *stmt);

/*
 * Hand an Allocated task to the binder: it becomes Binding, stays counted
 * on its node, and goes to the decision sink (Volcano's dispatch).
 */
int vs_ssn_dispatch(struct vs_session *ssn, struct vs_task *task);
void vs_stmt_discard(struct vs_statement *stmt);

/*
 * Append @src's operations to @dst and end @src (Volcano's Merge); -ENOMEM
 * leaves both as they were.
 */
int vs_stmt_merge(struct vs_statement *dst, struct vs_statement *src);

/* Copy the operations of @stmt (before it is discarded) into @log. */
int vs_stmt_save(const struct vs_statement *stmt, struct vs_stmt_log *log);

/* Replay @log on @stmt, stopping at the first operation that fails. */
int vs_stmt_recover(struct vs_statement *stmt, const struct vs_stmt_log *log,
		    struct vs_err *err);

static inline bool vs_stmt_has_evictions(const struct vs_statement *stmt)
{
	for (u32 i = 0; i < stmt->nr; i++)
		if (stmt->ops[i].kind == VS_OP_EVICT)
			return true;
	return false;
}

#endif /* VS_SCHED_STATEMENT_H */
