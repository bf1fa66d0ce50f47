/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Transactions of the cluster: every object change made while one is open
 * is applied at once, as always, and journalled by the core function that
 * makes it (vs_node_add(), vs_task_set_status(), vs_job_update()...: the
 * functions every single request goes through), so that vs_txn_abort()
 * can walk the journal back and undo each change in reverse, as a
 * Statement undoes its operations (sched/statement.h), and
 * vs_txn_commit() can forget it.
 *
 * Undone, the cluster is what it was: every object with its spec and
 * status, its creation sequence number and its place in every list it is
 * on, the sums the core keeps, the cluster's counters, the PodGroups that
 * rest (a change wakes one first, journalled before the rest of it). Nothing is freed
 * while a transaction is open: an object deleted in one is taken out of
 * every list and index and kept whole, to be linked back where it was by
 * an abort or freed by the commit. Undoing backwards, the state before an
 * entry is undone is the state right after its change was made, so that a
 * place in a list is kept as the pointer to what came before: it is there
 * again when the entry is undone.
 *
 * The sums (a node's idle, used, releasing and pipelined, a PodGroup's and
 * a queue's totals) are saved whole the first time a transaction touches
 * them: which scalar dimensions a sum holds, at zero, depends on its
 * history, and a saturated sum cannot be taken apart, so arithmetic alone
 * would not put them back exactly.
 *
 * Controllers that write an object's status fields themselves (a queue's
 * state, a VolcanoJob's phase, counts and kept replicas) journal them first
 * with vs_queue_journal_state() and vs_vjob_journal().
 *
 * The journal lives in the transaction's arena: journalling a change is a
 * bump allocation. A change that cannot be journalled (out of memory) is
 * refused by the functions that return an error, before anything changes;
 * the few that cannot refuse mark the transaction broken, and its owner
 * aborts it (vs_txn_broken()).
 */
#ifndef VS_CORE_TXN_H
#define VS_CORE_TXN_H

#include "core/arena.h"
#include "core/res.h"

struct vs_cluster;
struct vs_node;
struct vs_queue;
struct vs_job;
struct vs_vjob;
struct vs_txn_ent;

struct vs_txn {
	struct vs_cluster *cl;
	struct vs_arena arena;
	struct vs_txn_ent *last;	/* the newest entry; each points to the one before */
	u32 gen;			/* stamps the objects whose sums are saved */
	u32 nr;
	bool broken;			/* a change went unjournalled: only abort is safe */
	/* The cluster's own, as they were at vs_txn_begin(). */
	u64 seq;
	u64 created_max;
	struct vs_res total_allocatable;
};

/* Open @txn on @cl, which has none open; its journal is empty. */
void vs_txn_begin(struct vs_txn *txn, struct vs_cluster *cl);

/* Keep every change made since vs_txn_begin(), free what was deleted, close. */
void vs_txn_commit(struct vs_txn *txn);

/*
 * Undo every change made since vs_txn_begin(), newest first, and close.
 * 0, or -EIO when some undo could not be made whole (out of memory
 * interning a string again, a broken transaction): then the cluster is
 * consistent, as vs_cluster_check() sees it, but may differ.
 */
int vs_txn_abort(struct vs_txn *txn);

/* The number of changes journalled. */
static inline u32 vs_txn_len(const struct vs_txn *txn)
{
	return txn->nr;
}

static inline bool vs_txn_broken(const struct vs_txn *txn)
{
	return txn->broken;
}

/* Before a controller writes @queue's state or closed_by_parent: journal them. */
void vs_queue_journal_state(struct vs_cluster *cl, struct vs_queue *queue);

/*
 * Before a controller writes @vjob's status (phase, retry count, counts,
 * kept replicas): journal them, once per transaction.
 */
void vs_vjob_journal(struct vs_cluster *cl, struct vs_vjob *vjob);

/* Link @vjob and the PodGroup @pg it made (NULL: unlink), journalled. */
void vs_vjob_link(struct vs_cluster *cl, struct vs_vjob *vjob, struct vs_job *pg);

#endif /* VS_CORE_TXN_H */
