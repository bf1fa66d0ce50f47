// SPDX-License-Identifier: Apache-2.0
/*
 * Statements: operations applied to the live state and logged, committed
 * forward or discarded backward. See statement.h.
 */
#include <string.h>

#include "core/arena.h"
#include "core/log.h"
#include "sched/fiterr.h"
#include "sched/session.h"
#include "sched/statement.h"

struct vs_statement *vs_stmt_new(struct vs_session *ssn)
{
	return vs_stmt_new_in(ssn, ssn->arena);
}

struct vs_statement *vs_stmt_new_in(struct vs_session *ssn, struct vs_arena *arena)
{
	struct vs_statement *stmt = vs_arena_zalloc(arena, sizeof(*stmt));

	if (!stmt)
		return NULL;
	stmt->ssn = ssn;
	stmt->arena = arena;
	stmt->open = true;
	/* Newest first, so that a session closes them in reverse order. */
	list_add(&stmt->node, &ssn->open_stmts);
	return stmt;
}

/* Make room for @extra more operations; the arena never frees, so grow by doubling. */
static int reserve(struct vs_statement *stmt, u32 extra, struct vs_err *err)
{
	struct vs_stmt_op *ops;
	u32 cap = stmt->cap ? stmt->cap : 16;

	if (stmt->nr + extra <= stmt->cap)
		return 0;
	while (cap < stmt->nr + extra)
		cap *= 2;
	ops = vs_arena_alloc(stmt->arena, cap * sizeof(*ops));
	if (!ops)
		return vs_err_set(err, ENOMEM, "out of memory for a statement");
	if (stmt->nr)
		memcpy(ops, stmt->ops, stmt->nr * sizeof(*ops));
	stmt->ops = ops;
	stmt->cap = cap;
	return 0;
}

static void record(struct vs_statement *stmt, enum vs_stmt_op_kind kind,
		   struct vs_task *task, struct vs_node *node, const char *reason,
		   enum vs_task_status prev, bool evicted)
{
	stmt->ops[stmt->nr++] = (struct vs_stmt_op){
		.kind = kind, .task = task, .node = node, .reason = reason, .prev = prev,
		.evicted = evicted,
	};
}

static int place(struct vs_statement *stmt, struct vs_task *task, struct vs_node *node,
		 enum vs_task_status status, enum vs_stmt_op_kind kind, bool evicted,
		 struct vs_err *err)
{
	int ret;

	if (task->status != VS_TASK_PENDING || task->node)
		return vs_err_set(err, EINVAL, "task %s/%s is %s, not Pending", task->ns,
				  task->name, vs_task_status_name(task->status));
	ret = reserve(stmt, 1, err);
	if (ret)
		return ret;
	ret = vs_task_place(stmt->ssn->cl, task, node, status, err);
	if (ret)
		return ret;
	vs_ssn_on_allocate(stmt->ssn, task);
	record(stmt, kind, task, node, NULL, VS_TASK_PENDING, evicted);
	vs_session_note_tx(stmt->ssn, task, evicted);
	if (vs_v_enabled(3)) {
		char idle[256], used[256], releasing[256];

		vs_res_fmt(node->dims, idle, sizeof(idle), &node->idle);
		vs_res_fmt(node->dims, used, sizeof(used), &node->used);
		vs_res_fmt(node->dims, releasing, sizeof(releasing), &node->releasing);
		vs_v(3, "After %s Task <%s/%s> to Node <%s>: idle <%s>, used <%s>, releasing <%s>",
		     kind == VS_OP_ALLOCATE ? "allocated" : "pipelined", task->ns, task->name,
		     node->name, idle, used, releasing);
	}
	return 0;
}

int vs_stmt_allocate(struct vs_statement *stmt, struct vs_task *task,
		     struct vs_node *node, struct vs_err *err)
{
	return place(stmt, task, node, VS_TASK_ALLOCATED, VS_OP_ALLOCATE, false, err);
}

int vs_stmt_pipeline(struct vs_statement *stmt, struct vs_task *task,
		     struct vs_node *node, bool evicted, struct vs_err *err)
{
	return place(stmt, task, node, VS_TASK_PIPELINED, VS_OP_PIPELINE, evicted, err);
}

int vs_stmt_evict(struct vs_statement *stmt, struct vs_task *task, const char *reason,
		  struct vs_err *err)
{
	enum vs_task_status prev = task->status;
	int ret;

	if (!task->node || !vs_task_status_allocated(prev))
		return vs_err_set(err, EINVAL, "task %s/%s is %s: only a task holding a node can be evicted",
				  task->ns, task->name, vs_task_status_name(prev));
	ret = reserve(stmt, 1, err);
	if (ret)
		return ret;
	ret = vs_task_set_status(stmt->ssn->cl, task, VS_TASK_RELEASING, err);
	if (ret)
		return ret;
	vs_ssn_on_deallocate(stmt->ssn, task, task->node);
	record(stmt, VS_OP_EVICT, task, task->node, reason, prev, false);
	return 0;
}

static void close_stmt(struct vs_statement *stmt)
{
	stmt->nr = 0;
	if (stmt->open) {
		list_del_init(&stmt->node);
		stmt->open = false;
	}
}

int vs_ssn_dispatch(struct vs_session *ssn, struct vs_task *task)
{
	struct vs_sched *sched = ssn->sched;
	int ret;

	/*
	 * The task is assumed onto its node and handed to the binder; it
	 * stays counted there while Binding.
	 */
	ret = vs_task_set_status(ssn->cl, task, VS_TASK_BINDING, NULL);
	if (ret)
		return ret;
	sched->stats.binds++;
	if (sched->sink.bind)
		sched->sink.bind(sched->sink.ctx, task, task->node);
	return 0;
}

void vs_stmt_commit(struct vs_statement *stmt)
{
	struct vs_sched *sched = stmt->ssn->sched;

	vs_v(3, "Committing operations ...");
	for (u32 i = 0; i < stmt->nr; i++) {
		struct vs_stmt_op *op = &stmt->ops[i];

		vs_session_note_commit(op->task);
		switch (op->kind) {
		case VS_OP_ALLOCATE:
			if (op->task->status == VS_TASK_ALLOCATED)
				vs_ssn_dispatch(stmt->ssn, op->task);
			break;
		case VS_OP_EVICT:
			sched->stats.evicts++;
			if (sched->sink.evict)
				sched->sink.evict(sched->sink.ctx, op->task, op->reason);
			break;
		case VS_OP_PIPELINE:
			/*
			 * Volcano's commit of a pipeline tells its cache
			 * nothing: the next snapshot has the task Pending
			 * again. The session undoes it when it closes.
			 */
			vs_session_note_pipeline(stmt->ssn, op->task, op->node);
			break;
		}
	}
	close_stmt(stmt);
}

static bool op_still_holds(const struct vs_stmt_op *op)
{
	switch (op->kind) {
	case VS_OP_ALLOCATE:
		return op->task->status == VS_TASK_ALLOCATED && op->task->node == op->node;
	case VS_OP_PIPELINE:
		return op->task->status == VS_TASK_PIPELINED && op->task->node == op->node;
	case VS_OP_EVICT:
		return op->task->status == VS_TASK_RELEASING;
	}
	return false;
}

void vs_stmt_discard(struct vs_statement *stmt)
{
	struct vs_session *ssn = stmt->ssn;

	vs_v(3, "Discarding operations ...");
	for (u32 i = stmt->nr; i-- > 0;) {
		struct vs_stmt_op *op = &stmt->ops[i];

		/*
		 * Undo only what is still as the operation left it: a task
		 * that was dispatched since (the session's own Allocate binds
		 * every allocated task of a job that became ready) has left
		 * this statement's hands, as it has left Volcano's snapshot.
		 */
		if (!op_still_holds(op))
			continue;
		vs_session_note_discard(ssn, op->task);
		switch (op->kind) {
		case VS_OP_ALLOCATE:
		case VS_OP_PIPELINE:
			vs_task_unplace(ssn->cl, op->task, VS_TASK_PENDING, NULL);
			vs_ssn_on_deallocate(ssn, op->task, op->node);
			break;
		case VS_OP_EVICT:
			/*
			 * Volcano's unevict makes the task Running; restoring
			 * the status it had is the same for the Running victims
			 * the actions choose, and right for any other.
			 */
			vs_task_set_status(ssn->cl, op->task, op->prev, NULL);
			vs_ssn_on_allocate(ssn, op->task);
			break;
		}
		ssn->sched->stats.discarded_ops++;
	}
	close_stmt(stmt);
}

int vs_stmt_merge(struct vs_statement *dst, struct vs_statement *src)
{
	int ret = reserve(dst, src->nr, NULL);

	if (ret)
		return ret;	/* both keep their operations, still undoable */
	if (src->nr)
		memcpy(dst->ops + dst->nr, src->ops, src->nr * sizeof(*src->ops));
	dst->nr += src->nr;
	close_stmt(src);
	return 0;
}

int vs_stmt_save(const struct vs_statement *stmt, struct vs_stmt_log *log)
{
	log->nr = 0;
	log->ops = NULL;
	if (!stmt->nr)
		return 0;
	log->ops = vs_arena_alloc(stmt->ssn->arena, stmt->nr * sizeof(*log->ops));
	if (!log->ops)
		return -ENOMEM;
	memcpy(log->ops, stmt->ops, stmt->nr * sizeof(*log->ops));
	log->nr = stmt->nr;
	return 0;
}

int vs_stmt_recover(struct vs_statement *stmt, const struct vs_stmt_log *log,
		    struct vs_err *err)
{
	int ret = 0;

	for (u32 i = 0; i < log->nr && !ret; i++) {
		const struct vs_stmt_op *op = &log->ops[i];

		switch (op->kind) {
		case VS_OP_ALLOCATE:
			ret = vs_stmt_allocate(stmt, op->task, op->node, err);
			break;
		case VS_OP_PIPELINE:
			ret = vs_stmt_pipeline(stmt, op->task, op->node, op->evicted, err);
			break;
		case VS_OP_EVICT:
			ret = vs_stmt_evict(stmt, op->task, op->reason, err);
			break;
		}
	}
	return ret;
}
