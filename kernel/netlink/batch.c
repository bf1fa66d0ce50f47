// SPDX-License-Identifier: Apache-2.0
/*
 * Batches: see batch.h.
 *
 * END applies the held messages through their handlers, as single requests
 * are applied, and before each one writes down in a journal how to undo
 * it: a NEW that creates is undone by deleting, a SET or a replacing NEW by
 * putting the old spec back in place (a snapshot by the _spec fills of
 * fill.h, applied by the NEW path of objects.c), a DEL by making the object
 * again from such a snapshot, a task's status report or bind result by
 * putting its status and node back. When a message fails, the journal is
 * walked backwards.
 *
 * Undone, the cluster is what it was: every object with its spec and
 * status, its creation sequence number (the core's tie-breaker, and the
 * order of dumps) and its place in every list it is on, the sums the core
 * keeps (struct commit says why they are saved), the cluster's next
 * sequence number too. Objects are found again by key, never by pointer: an
 * object deleted and made again by the undo is a new allocation. Places in
 * lists kept in creation order are found by sequence number; in the other
 * lists (a job's tasks of one status, a node's tasks, a queue's PodGroups)
 * by the key of the object that came before, which, undoing backwards, is
 * back where it was when its follower is put back.
 *
 * The messages are applied through the controllers, as single requests
 * are; their side effects are undone with the message that caused them:
 *
 *   - a VolcanoJob's NEW made its PodGroup (no task: none is made before a
 *     cycle admits the PodGroup): vs_jobctl_delete() of the job undoes it;
 *   - a task NEW without a PodGroup made one, which goes after the task;
 *   - the deletion of a bare task took its PodGroup along, which is made
 *     again before the task;
 *   - the queue controller may move a queue's state (a new queue follows
 *     its parent, a Closing queue closes as its last PodGroup goes): every
 *     queue's state from before the batch is put back at the end.
 *
 * What the job controller does when a task of a VolcanoJob changes or goes
 * (a restart kills every task and the PodGroup, a sync makes tasks) reaches
 * the whole job, and is not undone: such a message fails the batch with
 * "cannot be undone", as does a VolcanoJob NEW that would take over an
 * existing PodGroup. Send those alone.
 */
#include <libmnl/libmnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "controllers/jobctl.h"
#include "controllers/pgctl.h"
#include "core/hash.h"
#include "core/log.h"
#include "netlink/batch.h"
#include "netlink/handlers.h"
#include "netlink/objects.h"
#include "netlink/parse.h"
#include "vsched/vsched.h"

/* A snapshot is a message holding one object nest: at most what a nest's nla_len counts. */
#define SNAP_MAX	(NLMSG_HDRLEN + GENL_HDRLEN + 0xffff)

static bool is_dump(const struct nlmsghdr *nlh)
{
	return (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
}

/* ---- checking and holding ---- */

/*
 * The dispatcher's checks before a handler (family.c), in its order and
 * words: the message, the command, the permission, do or dump, the policy.
 * The op, with @tb filled, or NULL with @ext saying why.
 */
static const struct vs_genl_op *check(const struct vs_genl_ctx *ctx, const struct nlmsghdr *nlh,
				      const struct nlattr **tb, struct vs_extack *ext)
{
	const struct vs_genl_family *fam = &vs_genl_vsched;
	const struct vs_genl_op *op;
	const struct genlmsghdr *g;

	if (vs_nl_msg_check(nlh, ext))
		return NULL;
	if (nlh->nlmsg_type != fam->id) {
		vs_extack_fail(ext, EINVAL, "a message of family 0x%x cannot be in a batch",
			       nlh->nlmsg_type);
		return NULL;
	}
	g = mnl_nlmsg_get_payload(nlh);
	op = vs_genl_op_find(fam, g->cmd);
	if (!op) {
		vs_extack_fail(ext, EOPNOTSUPP, "unknown command %u of family %s", g->cmd,
			       fam->name);
		return NULL;
	}
	if (op->flags & VS_OP_NOTIFY) {
		vs_extack_fail(ext, EOPNOTSUPP, "%s is a notification, not a request", op->name);
		return NULL;
	}
	if ((op->flags & VS_OP_ADMIN) && !ctx->admin) {
		vs_extack_fail(ext, EPERM, "%s needs the admin permission (root or the admin "
			       "group)", op->name);
		return NULL;
	}
	if (is_dump(nlh)) {
		vs_extack_fail(ext, EINVAL, "%s: a dump (NLM_F_DUMP) cannot be in a batch",
			       op->name);
		return NULL;
	}
	if (!(op->flags & VS_OP_DO)) {
		vs_extack_fail(ext, EOPNOTSUPP, "%s needs NLM_F_DUMP", op->name);
		return NULL;
	}
	if (vs_nla_validate(nlh, GENL_HDRLEN, op->policy, op->maxattr, tb, 0, ext))
		return NULL;
	if (vs_genl_mem_check(ctx, op, ext))
		return NULL;
	return op;
}

/* What may be in a batch, or NULL; else why not. */
static const char *not_batchable(u8 cmd)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype_cmd(cmd);

	if (cmd == VS_CMD_TASK_STATUS || cmd == VS_CMD_BIND_RESULT)
		return NULL;
	if (!ot || vs_nl_obj_verb(ot, cmd) == VS_NL_GET)
		return "only NEW, SET and DEL of objects, VS_CMD_TASK_STATUS and "
		       "VS_CMD_BIND_RESULT may be";
	/* Its controller's state would not come back if the batch failed. */
	if (cmd == VS_CMD_VJOB_DEL)
		return "a VolcanoJob deleted in a batch could not be restored";
	return NULL;
}

/* Give up on the batch after @nlh was refused: END will say so and apply nothing. */
static void doom(struct vs_nl_batch *b, const struct nlmsghdr *nlh, const struct vs_extack *ext)
{
	if (b->error)
		return;
	b->error = ext->error ? ext->error : -EINVAL;
	b->error_seq = nlh->nlmsg_seq;
	snprintf(b->error_msg, sizeof(b->error_msg), "%s", ext->err.msg);
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
	b->nr = 0;
}

/* Copy @nlh after the messages held. */
static int hold(struct vs_nl_batch *b, const struct nlmsghdr *nlh, struct vs_extack *ext)
{
	size_t need = NLMSG_ALIGN(nlh->nlmsg_len);

	if (need > VS_NL_BATCH_MAX - b->len)
		return vs_extack_fail(ext, ENOSPC, "the batch would hold more than %u MiB of "
				      "messages", VS_NL_BATCH_MAX >> 20);
	if (need > b->cap - b->len) {
		size_t cap = b->cap ? b->cap : 64 << 10;
		char *buf;

		while (cap - b->len < need)
			cap *= 2;
		cap = min_t(size_t, cap, VS_NL_BATCH_MAX);
		buf = realloc(b->buf, cap);
		if (!buf)
			return vs_extack_fail(ext, ENOMEM, "out of memory holding the batch");
		b->buf = buf;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, nlh, nlh->nlmsg_len);
	memset(b->buf + b->len + nlh->nlmsg_len, 0, need - nlh->nlmsg_len);
	b->len += need;
	b->nr++;
	return 0;
}

void vs_nl_batch_release(struct vs_nl_batch *batch)
{
	free(batch->buf);
	memset(batch, 0, sizeof(*batch));
}

void vs_nl_batch_doom(struct vs_nl_batch *batch, const struct nlmsghdr *nlh,
		      const struct vs_extack *ext)
{
	if (batch->open)
		doom(batch, nlh, ext);
}

int vs_nl_batch_doit(struct vs_genl_info *info)
{
	return vs_extack_fail(info->extack, EOPNOTSUPP, "%s: batches are not available here",
			      info->op->name);
}

/* ---- the undo journal ---- */

/*
 * What END keeps while it applies a batch, all of it in @arena and gone
 * with it: the journal, and the accounting (the sums the core derives:
 * idle, used, allocated...) of every node, PodGroup and queue the batch
 * touched, as it was before the batch touched it. The sums are restored
 * whole at the end of an undo: the values come back by themselves, but
 * which scalar dimensions a sum holds (at zero) depends on its history, as
 * in Volcano's Resource, and an exact undo puts that back too.
 */
struct commit {
	struct vs_nl_core *core;
	struct vs_arena arena;
	struct vs_htable touched;	/* struct touched, by key */
	char *scratch;			/* SNAP_MAX bytes for snapshots, made on first use */
	u64 seq;			/* the cluster's next sequence number, before */
	struct vs_res total;		/* the cluster's total allocatable, before */
	struct queue_state *queues;	/* every queue's state, before */
	u32 nr_queues;
};

/* A queue's state, which the queue controller may move behind any message. */
struct queue_state {
	const char *name;
	enum vs_queue_state state;
	bool closed_by_parent;
};

/* An object's key, copied: what it names may be freed and made again meanwhile. */
struct key {
	const char *ns;			/* NULL for objects without a namespace */
	const char *name;		/* NULL: no object (before the first of a list) */
};

/* The accounting of a node (4 sums), a PodGroup or a queue (2), before the batch. */
struct touched {
	struct hlist_node hnode;
	u32 hash;
	u16 attr;
	bool existed;			/* else the batch made it: nothing to put back */
	struct key key;
	struct vs_res sums[4];
};

/* A PodGroup the queue of a NEW adopted, and the orphan it followed. */
struct adopted {
	struct key job;
	struct key prev;
};

enum undo_kind {
	UNDO_NONE,			/* the message will fail, or changes nothing */
	UNDO_DEL,			/* delete what a NEW made */
	UNDO_REPLACE,			/* put the old spec back in place */
	UNDO_RECREATE,			/* make a deleted object again, where it was */
	UNDO_TASK,			/* put a task's status and node back */
	UNDO_VJOB,			/* delete a VolcanoJob a NEW made, and its PodGroup */
};

struct undo {
	enum undo_kind kind;
	const struct vs_nl_objtype *ot;
	const struct nlattr *nest;	/* UNDO_DEL: the object's key, in the held NEW */
	const struct nlmsghdr *snap;	/* UNDO_REPLACE, UNDO_RECREATE: the old spec */
	struct key self;		/* the object (a queue NEW's name for UNDO_DEL) */
	u64 seq;			/* UNDO_RECREATE: its creation sequence number */
	/* What came before it in the lists that are not in creation order. */
	struct key prev_status;		/* a task: its job's tasks of its status */
	struct key prev_node;		/* a task: its node's tasks */
	struct key prev_queue;		/* a PodGroup: in its queue, or among the orphans */
	struct key owner;		/* a PodGroup: the VolcanoJob that made it */
	enum vs_task_status status;	/* UNDO_TASK */
	const char *node;		/* UNDO_TASK: the task's node, or NULL */
	/* UNDO_TASK: what the bind pipeline kept on the task (a bind result changes it). */
	u32 bind_failures;
	u64 retry_after_ns;
	const char *bind_error;
	/* UNDO_REPLACE and UNDO_RECREATE of a PodGroup: its conditions (texts in the arena) */
	struct vs_pg_condition cond[VS_PG_COND_NR];
	struct adopted *adopted;	/* UNDO_DEL of a queue */
	u32 nr_adopted;
	struct key made;		/* UNDO_DEL of a bare task: the PodGroup made for it */
	struct undo *pg;		/* UNDO_RECREATE of a bare task: its PodGroup, first */
};

static const char *copy_str(struct commit *c, const char *s)
{
	return s ? vs_arena_strdup(&c->arena, s) : NULL;
}

static int key_set(struct commit *c, struct key *k, const char *ns, const char *name)
{
	k->ns = copy_str(c, ns);
	k->name = copy_str(c, name);
	return (ns && !k->ns) || (name && !k->name) ? -ENOMEM : 0;
}

/* The key of @obj of type @attr (VS_A_NODE...). */
static int obj_key(struct commit *c, u16 attr, const void *obj, struct key *k)
{
	switch (attr) {
	case VS_A_NODE:
		return key_set(c, k, NULL, ((const struct vs_node *)obj)->name);
	case VS_A_QUEUE:
		return key_set(c, k, NULL, ((const struct vs_queue *)obj)->name);
	case VS_A_PODGROUP:
		return key_set(c, k, ((const struct vs_job *)obj)->ns,
			       ((const struct vs_job *)obj)->name);
	case VS_A_TASK:
		return key_set(c, k, ((const struct vs_task *)obj)->ns,
			       ((const struct vs_task *)obj)->name);
	case VS_A_VJOB:
		return key_set(c, k, ((const struct vs_vjob *)obj)->ns,
			       ((const struct vs_vjob *)obj)->name);
	case VS_A_PRIOCLASS:
		return key_set(c, k, NULL, ((const struct vs_prioclass *)obj)->name);
	}
	return -EINVAL;
}

/* The object of type @attr a key names, or NULL. */
static void *key_find(const struct vs_cluster *cl, u16 attr, const char *ns, const char *name)
{
	if (!name)
		return NULL;
	switch (attr) {
	case VS_A_NODE:
		return vs_node_find(cl, name);
	case VS_A_QUEUE:
		return vs_queue_find(cl, name);
	case VS_A_PODGROUP:
		return ns ? vs_job_find(cl, ns, name) : NULL;
	case VS_A_TASK:
		return ns ? vs_task_find(cl, ns, name) : NULL;
	case VS_A_VJOB:
		return ns ? vs_vjob_find(cl, ns, name) : NULL;
	case VS_A_PRIOCLASS:
		return vs_prioclass_find(cl, name);
	}
	return NULL;
}

static void *find(const struct vs_cluster *cl, u16 attr, const struct key *k)
{
	return key_find(cl, attr, k->ns, k->name);
}

/* ---- the accounting the batch touched ---- */

static u32 touched_hash(u16 attr, const char *ns, const char *name)
{
	u32 h = vs_hash_bytes(name, strlen(name), attr);

	return ns ? vs_hash_combine(h, vs_hash_bytes(ns, strlen(ns), 0)) : h;
}

static u32 touched_hashfn(const struct hlist_node *node)
{
	return hlist_entry(node, struct touched, hnode)->hash;
}

/* The sums of @obj of type @attr: 4 of a node, 2 of a PodGroup or a queue. */
static unsigned int sums_of(u16 attr, void *obj, struct vs_res **sums)
{
	struct vs_node *node = obj;
	struct vs_job *job = obj;
	struct vs_queue *queue = obj;

	switch (attr) {
	case VS_A_NODE:
		sums[0] = &node->idle;
		sums[1] = &node->used;
		sums[2] = &node->releasing;
		sums[3] = &node->pipelined;
		return 4;
	case VS_A_PODGROUP:
		sums[0] = &job->total_request;
		sums[1] = &job->allocated;
		return 2;
	case VS_A_QUEUE:
		sums[0] = &queue->allocated;
		sums[1] = &queue->request;
		return 2;
	}
	return 0;
}

/*
 * Before a message may change the sums of the object @attr ns/@name: keep
 * them, the first time the batch touches it. @known is that object when
 * the caller holds it (NULL: it is looked up by its key, and may not
 * exist), which saves a lookup by name for each bind a batch confirms.
 */
static int touch_known(struct commit *c, u16 attr, const char *ns, const char *name,
		       const void *known)
{
	u32 hash;
	struct touched *t;
	struct vs_res *sums[4];
	void *obj;
	unsigned int n;

	if (!name)
		return 0;
	hash = touched_hash(attr, ns, name);
	hlist_for_each_entry(t, vs_htable_bucket(&c->touched, hash), hnode)
		if (t->hash == hash && t->attr == attr && !strcmp(t->key.name, name) &&
		    (!ns || !strcmp(t->key.ns, ns)))
			return 0;
	t = vs_arena_zalloc(&c->arena, sizeof(*t));
	if (!t || key_set(c, &t->key, ns, name))
		return -ENOMEM;
	t->hash = hash;
	t->attr = attr;
	/* only read here: untouch() finds the object again to write its sums */
	obj = known ? (void *)known : key_find(c->core->cl, attr, ns, name);
	t->existed = obj;
	n = obj ? sums_of(attr, obj, sums) : 0;
	for (unsigned int i = 0; i < n; i++)
		t->sums[i] = *sums[i];
	vs_htable_add(&c->touched, &t->hnode, hash);
	return 0;
}

static int touch(struct commit *c, u16 attr, const char *ns, const char *name)
{
	return touch_known(c, attr, ns, name, NULL);
}

/* A PodGroup's sums and its queue's (none while it is an orphan: the queue does not exist). */
static int touch_job(struct commit *c, const struct vs_job *job)
{
	int ret = touch_known(c, VS_A_PODGROUP, job->ns, job->name, job);

	return ret ? ret : touch_known(c, VS_A_QUEUE, NULL, job->queue_name, job->queue);
}

/* A task's node, PodGroup and queue. */
static int touch_task(struct commit *c, const struct vs_task *t)
{
	int ret = touch_job(c, t->job);

	return !ret && t->node ? touch_known(c, VS_A_NODE, NULL, t->node->name, t->node) : ret;
}

/* Put back every sum the batch touched, as it was before the batch. */
static void untouch(struct commit *c)
{
	struct vs_res *sums[4];
	struct touched *t;
	unsigned int bkt, n;
	void *obj;

	vs_htable_for_each_entry(t, &c->touched, bkt, hnode) {
		obj = t->existed ? find(c->core->cl, t->attr, &t->key) : NULL;
		n = obj ? sums_of(t->attr, obj, sums) : 0;
		for (unsigned int i = 0; i < n; i++)
			*sums[i] = t->sums[i];
	}
}

/* ---- places in lists ---- */

/* The key of what comes before @entry on the list @head of objects of type @attr. */
static int prev_key(struct commit *c, u16 attr, const struct list_head *entry,
		    const struct list_head *head, size_t off, struct key *k)
{
	if (entry->prev == head)
		return 0;
	return obj_key(c, attr, (const char *)entry->prev - off, k);
}

/*
 * Put @entry after @prev on the list @head, or at its head when the key
 * @prev was found by names no object (@none), if @prev is on the same list
 * (@on_list). Otherwise the journal and the cluster disagree; leave it.
 */
static void put_after(struct list_head *entry, struct list_head *head, struct list_head *prev,
		      bool on_list, bool none)
{
	if (none)
		list_move(entry, head);
	else if (prev && on_list)
		list_move(entry, prev);
}

/* Put @obj back where its sequence number puts it on a list in creation order. */
#define move_by_seq(obj, head, member)						\
	do {									\
		typeof(obj) __pos;						\
										\
		list_del(&(obj)->member);					\
		list_for_each_entry_reverse(__pos, head, member)		\
			if (__pos->seq < (obj)->seq)				\
				break;						\
		list_add(&(obj)->member, &__pos->member);			\
	} while (0)

static int save_task_place(struct commit *c, struct undo *u, const struct vs_task *t)
{
	int ret = prev_key(c, VS_A_TASK, &t->status_node, &t->job->by_status[t->status],
			   offsetof(struct vs_task, status_node), &u->prev_status);

	if (!ret && t->node)
		ret = prev_key(c, VS_A_TASK, &t->node_node, &t->node->tasks,
			       offsetof(struct vs_task, node_node), &u->prev_node);
	return ret;
}

static void restore_task_place(struct vs_cluster *cl, const struct undo *u, struct vs_task *t)
{
	struct vs_task *prev = find(cl, VS_A_TASK, &u->prev_status);

	put_after(&t->status_node, &t->job->by_status[t->status], prev ? &prev->status_node : NULL,
		  prev && prev->job == t->job && prev->status == t->status, !u->prev_status.name);
	if (!t->node)
		return;
	prev = find(cl, VS_A_TASK, &u->prev_node);
	put_after(&t->node_node, &t->node->tasks, prev ? &prev->node_node : NULL,
		  prev && prev->node == t->node, !u->prev_node.name);
}

static struct list_head *queue_list(struct vs_cluster *cl, const struct vs_job *job)
{
	return job->queue ? &job->queue->jobs : &cl->orphan_jobs;
}

static int save_job_place(struct commit *c, struct key *k, const struct vs_job *job)
{
	return prev_key(c, VS_A_PODGROUP, &job->queue_node, queue_list(c->core->cl, job),
			offsetof(struct vs_job, queue_node), k);
}

static void restore_job_place(struct vs_cluster *cl, const struct key *k, struct vs_job *job)
{
	struct vs_job *prev = find(cl, VS_A_PODGROUP, k);

	put_after(&job->queue_node, queue_list(cl, job), prev ? &prev->queue_node : NULL,
		  prev && prev->queue == job->queue, !k->name);
}

/* ---- writing the journal ---- */

static int nomem(struct vs_err *err)
{
	return vs_err_set(err, ENOMEM, "out of memory saving the batch's undo journal");
}

/* The spec of @obj as the NEW request that makes it again, in a message of its own. */
static int snapshot(struct commit *c, struct undo *u, const void *obj, struct vs_err *err)
{
	struct nlmsghdr *nlh;
	void *copy;

	if (!c->scratch && !(c->scratch = malloc(SNAP_MAX)))
		return nomem(err);
	nlh = mnl_nlmsg_put_header(c->scratch);
	mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN);
	if (!vs_nl_obj_put_spec(u->ot, nlh, SNAP_MAX, obj))
		return vs_err_set(err, EMSGSIZE, "the object is too large to be saved for undo");
	copy = vs_arena_alloc(&c->arena, nlh->nlmsg_len);
	if (!copy)
		return nomem(err);
	memcpy(copy, nlh, nlh->nlmsg_len);
	u->snap = copy;
	return 0;
}

static const struct nlattr *snap_nest(const struct undo *u)
{
	return mnl_nlmsg_get_payload_offset(u->snap, GENL_HDRLEN);
}

/* A PodGroup's conditions as they are, to put back exactly (a given one taken, a cycle's kept). */
static int save_conditions(struct commit *c, struct undo *u, const struct vs_job *job)
{
	for (u32 i = 0; i < VS_PG_COND_NR; i++) {
		size_t n = vs_pg_cond_text_size(&job->cond[i]);

		u->cond[i] = job->cond[i];
		u->cond[i].text = n ? vs_arena_alloc(&c->arena, n) : NULL;
		if (n && !u->cond[i].text)
			return -ENOMEM;
		if (!n)
			continue;
		memcpy(u->cond[i].text, job->cond[i].text, n);
		if (job->cond[i].given)		/* its reason is in its text */
			u->cond[i].reason = u->cond[i].text + (job->cond[i].reason - job->cond[i].text);
	}
	return 0;
}

static int restore_conditions(const struct undo *u, struct vs_job *job, struct vs_err *err)
{
	for (u32 i = 0; i < VS_PG_COND_NR; i++)
		if (vs_job_copy_condition(job, (enum vs_pg_cond_type)i, &u->cond[i]))
			return vs_err_set(err, ENOMEM, "out of memory restoring the conditions");
	return 0;
}

/* A SET or a replacing NEW of @obj: its spec now, to put back. */
static int journal_replace(struct commit *c, struct undo *u, const void *obj, struct vs_err *err)
{
	u16 attr = vs_nl_objtype_attr(u->ot);
	int ret;

	u->kind = UNDO_REPLACE;
	ret = obj_key(c, attr, obj, &u->self);
	if (!ret && attr == VS_A_PODGROUP)
		ret = save_job_place(c, &u->prev_queue, obj) ?:	/* a new queue moves it */
		      save_conditions(c, u, obj);
	return ret ? nomem(err) : snapshot(c, u, obj, err);
}

/* A DEL of @obj: everything to make it again as it was. */
static int journal_recreate(struct commit *c, struct undo *u, const void *obj,
			    struct vs_err *err)
{
	u16 attr = vs_nl_objtype_attr(u->ot);
	const struct vs_job *job = obj;
	u64 pos[2] = { 0, 0 };
	int ret;

	u->kind = UNDO_RECREATE;
	vs_nl_obj_pos(u->ot, obj, pos);
	u->seq = attr == VS_A_TASK ? pos[1] : pos[0];
	ret = obj_key(c, attr, obj, &u->self);
	if (!ret && attr == VS_A_TASK)
		ret = save_task_place(c, u, obj);
	if (!ret && attr == VS_A_PODGROUP) {
		ret = save_job_place(c, &u->prev_queue, job);
		if (!ret && job->vjob)
			ret = obj_key(c, VS_A_VJOB, job->vjob, &u->owner);
		if (!ret)
			ret = save_conditions(c, u, job);
	}
	return ret ? nomem(err) : snapshot(c, u, obj, err);
}

/* A status report or a bind result for @t: its status, node and places now. */
static int journal_task(struct commit *c, struct undo *u, const struct vs_task *t,
			struct vs_err *err)
{
	int ret;

	u->kind = UNDO_TASK;
	u->status = t->status;
	u->bind_failures = t->bind_failures;
	u->retry_after_ns = t->retry_after_ns;
	ret = obj_key(c, VS_A_TASK, t, &u->self);
	if (!ret && t->node && !(u->node = copy_str(c, t->node->name)))
		ret = -ENOMEM;
	if (!ret && t->bind_error && !(u->bind_error = copy_str(c, t->bind_error)))
		ret = -ENOMEM;
	if (!ret)
		ret = save_task_place(c, u, t);
	return ret ? nomem(err) : 0;
}

/* The orphan PodGroups a NEW queue @name will adopt, where they are among the orphans. */
static int journal_adoptions(struct commit *c, struct undo *u, const char *name,
			     struct vs_err *err)
{
	const struct vs_job *job;
	u32 n = 0;

	list_for_each_entry(job, &c->core->cl->orphan_jobs, queue_node)
		n += !strcmp(job->queue_name, name);
	if (!n)
		return 0;
	u->adopted = vs_arena_calloc(&c->arena, n, sizeof(*u->adopted));
	if (!u->adopted || key_set(c, &u->self, NULL, name))
		return nomem(err);
	list_for_each_entry(job, &c->core->cl->orphan_jobs, queue_node) {
		struct adopted *a = &u->adopted[u->nr_adopted];

		if (strcmp(job->queue_name, name))
			continue;
		u->nr_adopted++;
		if (obj_key(c, VS_A_PODGROUP, job, &a->job) || save_job_place(c, &a->prev, job))
			return nomem(err);
	}
	return 0;
}

/* The string attribute @type of @nest, or NULL. */
static const char *nest_str(const struct nlattr *nest, u16 type)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			return mnl_attr_get_str(a);
	return NULL;
}

static bool task_deleted(const struct nlattr *nest)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == VS_TASK_A_EVENT)
			return mnl_attr_get_u32(a) == VS_TASK_EVENT_DELETED;
	return false;
}

static const char *tb_str(const struct nlattr **tb, u16 type)
{
	return tb[type] ? mnl_attr_get_str(tb[type]) : NULL;
}

/* The PodGroup a task NEW names; NULL for none ("" too): the podgroup controller makes one. */
static const char *task_podgroup(const struct nlattr *nest)
{
	const char *pg = nest_str(nest, VS_TASK_A_PODGROUP);

	return pg && *pg ? pg : NULL;
}

/* The queue a request names in attribute @type of @nest, "default" for none. */
static const char *queue_or_default(const struct nlattr **tb, u16 type)
{
	const char *queue = tb_str(tb, type);

	return queue && *queue ? queue : "default";
}

/*
 * The sums an object message may change: the object's own, and for a
 * PodGroup those of the queues it leaves and joins (a NEW replaces the
 * whole spec: no queue is "default"), for a task those of its node,
 * PodGroup and queue (a bare task's PodGroup, made for it, and the queue
 * it names), for a VolcanoJob those of the PodGroup it makes and its
 * queue. Every object a message names is touched, even where it changes no
 * sum: one deleted and made again later in the batch is then known by its
 * sums from before.
 */
static int touch_obj(struct commit *c, u16 attr, const struct nlattr *nest, const void *obj,
		     bool whole_spec)
{
	/* One walk of the nest for every key it names: the sets' largest is the task's. */
	const struct nlattr *tb[VS_TASK_A_MAX + 1];
	char bare[VS_PGCTL_NAME_BUF];
	const char *ns, *name, *pg, *queue;
	struct vs_job *job;
	int ret = 0;

	BUILD_BUG_ON(VS_TASK_A_MAX < VS_NODE_A_MAX || VS_TASK_A_MAX < VS_QUEUE_A_MAX ||
		     VS_TASK_A_MAX < VS_PG_A_MAX || VS_TASK_A_MAX < VS_VJOB_A_MAX);
	vs_nl_nest_tb(nest, tb, VS_TASK_A_MAX);
	switch (attr) {
	case VS_A_NODE:
		return touch(c, VS_A_NODE, NULL, tb_str(tb, VS_NODE_A_NAME));
	case VS_A_QUEUE:
		return touch(c, VS_A_QUEUE, NULL, tb_str(tb, VS_QUEUE_A_NAME));
	case VS_A_PODGROUP:
		ret = obj ? touch_job(c, obj) : touch(c, VS_A_PODGROUP,
						      tb_str(tb, VS_PG_A_NAMESPACE),
						      tb_str(tb, VS_PG_A_NAME));
		queue = tb_str(tb, VS_PG_A_QUEUE);
		if (!ret && (queue || whole_spec))
			ret = touch(c, VS_A_QUEUE, NULL, queue && *queue ? queue : "default");
		return ret;
	case VS_A_TASK:
		if (obj)
			return touch_task(c, obj);
		ns = tb_str(tb, VS_TASK_A_NAMESPACE);
		name = tb_str(tb, VS_TASK_A_NAME);
		pg = tb_str(tb, VS_TASK_A_PODGROUP);
		if (pg && !*pg)
			pg = NULL;	/* none: the podgroup controller makes one */
		if (!pg && name) {
			vs_pgctl_name(name, bare);
			pg = bare;
			ret = touch(c, VS_A_PODGROUP, ns, pg);
			if (!ret)
				ret = touch(c, VS_A_QUEUE, NULL,
					    queue_or_default(tb, VS_TASK_A_QUEUE));
		}
		job = !ret && pg ? vs_job_find(c->core->cl, ns, pg) : NULL;
		if (job)
			ret = touch_job(c, job);
		return ret ? ret : touch(c, VS_A_NODE, NULL, tb_str(tb, VS_TASK_A_NODE));
	case VS_A_VJOB:
		ret = touch(c, VS_A_PODGROUP, tb_str(tb, VS_VJOB_A_NAMESPACE),
			    tb_str(tb, VS_VJOB_A_NAME));
		return ret ? ret : touch(c, VS_A_QUEUE, NULL,
					 queue_or_default(tb, VS_VJOB_A_QUEUE));
	}
	return 0;
}

/*
 * What the job controller does when a task of a VolcanoJob changes or goes
 * (a kill of the whole job, tasks made again) reaches the whole job, and
 * could not be put back: such a message cannot be undone.
 */
static int job_controlled(const struct vs_task *t, struct vs_err *err)
{
	const struct vs_vjob *vjob = t->job->vjob;

	if (!vjob)
		return 0;
	return vs_err_set(err, EINVAL, "task %s/%s belongs to job %s/%s: what the job "
			  "controller does then cannot be undone, so it cannot be in a batch",
			  t->ns, t->name, vjob->ns, vjob->name);
}

/*
 * A deletion of the task @t (DEL, or a report that it is gone). The job
 * controller's reactions cannot be undone; the PodGroup the podgroup
 * controller made for a bare task goes with its last task
 * (vs_pgctl_task_gone()), so it is written down to be made again first.
 */
static int journal_task_del(struct commit *c, struct undo *u, const struct vs_task *t,
			    struct vs_err *err)
{
	char bare[VS_PGCTL_NAME_BUF];
	const struct vs_job *job = t->job;
	int ret = job_controlled(t, err);

	if (ret)
		return ret;
	vs_pgctl_name(t->name, bare);
	if (job->nr_tasks == 1 && !strcmp(job->name, bare)) {
		u->pg = vs_arena_zalloc(&c->arena, sizeof(*u->pg));
		if (!u->pg)
			return nomem(err);
		u->pg->ot = vs_nl_objtype(VS_A_PODGROUP);
		ret = journal_recreate(c, u->pg, job, err);
		if (ret)
			return ret;
	}
	return journal_recreate(c, u, t, err);
}

/*
 * A VolcanoJob NEW: its undo deletes what it made. One that would take
 * over an existing PodGroup of its name (and remove the tasks in it that
 * are no replica of the job) could not be put back.
 */
static int journal_vjob_new(struct commit *c, struct undo *u, const struct nlattr *nest,
			    struct vs_err *err)
{
	const char *ns = nest_str(nest, VS_VJOB_A_NAMESPACE), *name = nest_str(nest, VS_VJOB_A_NAME);

	if (ns && name && vs_job_find(c->core->cl, ns, name))
		return vs_err_set(err, EINVAL, "job %s/%s would take the existing podgroup %s/%s, "
				  "which cannot be undone, so it cannot be in a batch", ns, name,
				  ns, name);
	u->kind = UNDO_VJOB;
	return key_set(c, &u->self, ns, name) ? nomem(err) : 0;
}

/* A task NEW without a PodGroup: the one the podgroup controller makes, if none is there. */
static int journal_bare_task(struct commit *c, struct undo *u, const struct nlattr *nest,
			     struct vs_err *err)
{
	const char *ns, *name;
	char bare[VS_PGCTL_NAME_BUF];

	/* Most tasks name their PodGroup: one walk of the nest is all they cost here. */
	if (task_podgroup(nest))
		return 0;
	ns = nest_str(nest, VS_TASK_A_NAMESPACE);
	name = nest_str(nest, VS_TASK_A_NAME);
	if (!ns || !name)
		return 0;
	vs_pgctl_name(name, bare);
	if (vs_job_find(c->core->cl, ns, bare))
		return 0;
	return key_set(c, &u->made, ns, bare) ? nomem(err) : 0;
}

/* Write down how to undo the held message @nlh (@op, @tb) before it is applied. */
static int journal(struct commit *c, const struct vs_genl_op *op, const struct nlmsghdr *nlh,
		   const struct nlattr *const *tb, struct undo *u, struct vs_err *err)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype_cmd(op->cmd);
	struct vs_cluster *cl = c->core->cl;
	const struct nlattr *nest;
	struct vs_task *task;
	void *obj;
	int ret;

	memset(u, 0, sizeof(*u));
	if (!ot) {
		u->ot = vs_nl_objtype(VS_A_TASK);
		if (op->cmd == VS_CMD_TASK_STATUS) {
			nest = tb[VS_A_TASK];
			task = vs_task_find(cl, nest_str(nest, VS_TASK_A_NAMESPACE),
					    nest_str(nest, VS_TASK_A_NAME));
		} else {
			nest = tb[VS_A_BIND_RESULT];
			task = vs_task_find(cl, nest_str(nest, VS_BIND_A_NAMESPACE),
					    nest_str(nest, VS_BIND_A_NAME));
		}
		if (!task)
			return 0;	/* it will be refused */
		if (touch_task(c, task))
			return nomem(err);
		if (op->cmd == VS_CMD_TASK_STATUS && task_deleted(nest))
			return journal_task_del(c, u, task, err);
		if (op->cmd == VS_CMD_TASK_STATUS && (ret = job_controlled(task, err)))
			return ret;
		return journal_task(c, u, task, err);
	}

	u->ot = ot;
	nest = tb[vs_nl_objtype_attr(ot)];
	obj = vs_nl_obj_find(ot, cl, nest, NULL, &ret);
	if (touch_obj(c, vs_nl_objtype_attr(ot), nest, obj,
		      vs_nl_obj_verb(ot, op->cmd) == VS_NL_NEW))
		return nomem(err);
	switch (vs_nl_obj_verb(ot, op->cmd)) {
	case VS_NL_NEW:
		if (obj && (nlh->nlmsg_flags & NLM_F_REPLACE))
			return journal_replace(c, u, obj, err);
		if (obj)
			return 0;	/* EEXIST */
		if (vs_nl_objtype_attr(ot) == VS_A_VJOB)
			return journal_vjob_new(c, u, nest, err);
		u->kind = UNDO_DEL;
		u->nest = nest;
		if (vs_nl_objtype_attr(ot) == VS_A_QUEUE)
			return journal_adoptions(c, u, nest_str(nest, VS_QUEUE_A_NAME), err);
		if (vs_nl_objtype_attr(ot) == VS_A_TASK)
			return journal_bare_task(c, u, nest, err);
		return 0;
	case VS_NL_SET:
		return obj ? journal_replace(c, u, obj, err) : 0;
	case VS_NL_DEL:
		if (obj && vs_nl_objtype_attr(ot) == VS_A_TASK)
			return journal_task_del(c, u, obj, err);
		return obj ? journal_recreate(c, u, obj, err) : 0;
	case VS_NL_GET:
	case VS_NL_NR_VERBS:	/* not one of ot's: vs_nl_objtype_cmd() found it */
		break;
	}
	return 0;
}

/* ---- undoing ---- */

/*
 * Send the PodGroups a queue adopted back to the orphans, before the queue
 * goes (@back false), and give them their queue's name again once it is
 * gone (@back true): the core has no other way out of a queue than joining
 * another, so they join for a moment a queue name nobody has.
 */
static int unadopt(struct vs_nl_core *core, const struct undo *u, bool back, struct vs_err *err)
{
	struct vs_cluster *cl = core->cl;
	char away[64];
	int ret = 0;

	for (u32 n = 0;; n++) {
		snprintf(away, sizeof(away), "vsched-batch-undo-%u", n);
		if (!vs_queue_find(cl, away))
			break;
	}
	for (u32 i = 0; !ret && i < u->nr_adopted; i++) {
		struct vs_job *job = find(cl, VS_A_PODGROUP, &u->adopted[i].job);
		struct vs_job_spec spec;

		if (!job)
			continue;
		if (vs_nl_podgroup_spec_of(job, core->arena, &spec)) {
			ret = vs_err_set(err, ENOMEM, "out of memory");
			break;
		}
		spec.queue = back ? u->self.name : away;
		ret = vs_job_update(cl, job, &spec, err);
		if (!ret && back)
			restore_job_place(cl, &u->adopted[i].prev, job);
		vs_arena_reset(core->arena);
	}
	return ret;
}

static int undo_del(struct vs_nl_core *core, struct undo *u, struct vs_err *err)
{
	int ret = u->nr_adopted ? unadopt(core, u, false, err) : 0;
	struct vs_job *made;

	if (!ret)
		ret = vs_nl_obj_del(u->ot, core->cl, NULL, u->nest, err);
	if (!ret && u->nr_adopted)
		ret = unadopt(core, u, true, err);
	/* the PodGroup the podgroup controller made for a bare task */
	made = ret ? NULL : find(core->cl, VS_A_PODGROUP, &u->made);
	if (made)
		ret = vs_job_del(core->cl, made, err);
	return ret;
}

/* What a VolcanoJob NEW made goes: its PodGroup, then the job, as its deletion does. */
static int undo_vjob(struct vs_nl_core *core, struct undo *u, struct vs_err *err)
{
	struct vs_vjob *vjob = find(core->cl, VS_A_VJOB, &u->self);
	struct vs_ctl ctl;

	if (!vjob)
		return vs_err_set(err, EIO, "job %s/%s is gone", u->self.ns, u->self.name);
	vs_ctl_init(&ctl, core->cl, NULL, NULL);	/* nobody hears of an undo */
	vs_jobctl_delete(&ctl, vjob);
	return 0;
}

static int undo_replace(struct vs_nl_core *core, struct undo *u, struct vs_err *err)
{
	int ret = vs_nl_obj_new(u->ot, core->cl, NULL, snap_nest(u), true, core->arena, err);
	struct vs_job *job;

	vs_arena_reset(core->arena);
	if (!ret && vs_nl_objtype_attr(u->ot) == VS_A_PODGROUP) {
		job = find(core->cl, VS_A_PODGROUP, &u->self);
		if (job) {
			restore_job_place(core->cl, &u->prev_queue, job);
			ret = restore_conditions(u, job, err);
		}
	}
	return ret;
}

static int undo_recreate(struct vs_nl_core *core, struct undo *u, struct vs_err *err)
{
	u16 attr = vs_nl_objtype_attr(u->ot);
	struct vs_cluster *cl = core->cl;
	struct vs_prioclass *pc;
	struct vs_queue *queue;
	struct vs_node *node;
	struct vs_vjob *vjob;
	struct vs_task *task;
	struct vs_job *job;
	void *obj;
	int ret;

	/* a bare task's PodGroup went with it: it comes back first */
	if (u->pg && !find(cl, VS_A_PODGROUP, &u->pg->self) &&
	    (ret = undo_recreate(core, u->pg, err)))
		return ret;
	ret = vs_nl_obj_new(u->ot, cl, NULL, snap_nest(u), false, core->arena, err);
	vs_arena_reset(core->arena);
	if (ret)
		return ret;
	obj = find(cl, attr, &u->self);
	if (!obj)
		return vs_err_set(err, EIO, "the object made again is not found");
	switch (attr) {
	case VS_A_NODE:
		node = obj;
		node->seq = u->seq;
		move_by_seq(node, &cl->nodes, list);
		vs_cluster_renumber_nodes(cl);	/* its slot follows creation order */
		break;
	case VS_A_QUEUE:
		queue = obj;
		queue->seq = u->seq;
		move_by_seq(queue, &cl->queues, list);
		break;
	case VS_A_PODGROUP:
		job = obj;
		job->seq = u->seq;
		move_by_seq(job, &cl->jobs, list);
		restore_job_place(cl, &u->prev_queue, job);
		vjob = find(cl, VS_A_VJOB, &u->owner);
		if (vjob && !vjob->podgroup) {
			job->vjob = vjob;
			vjob->podgroup = job;
		}
		ret = restore_conditions(u, job, err);
		if (ret)
			return ret;
		break;
	case VS_A_TASK:
		task = obj;
		task->seq = u->seq;
		move_by_seq(task, &task->job->tasks, job_node);
		restore_task_place(cl, u, task);
		break;
	case VS_A_VJOB:
		vjob = obj;
		vjob->seq = u->seq;
		move_by_seq(vjob, &cl->vjobs, list);
		break;
	case VS_A_PRIOCLASS:
		pc = obj;
		pc->seq = u->seq;
		move_by_seq(pc, &cl->prioclasses, list);
		break;
	}
	return 0;
}

static int undo_bind_state(struct vs_cluster *cl, const struct undo *u, struct vs_task *task,
			   struct vs_err *err)
{
	const char *error = NULL;

	if (u->bind_error && !(error = vs_str_get_cstr(&cl->strs, u->bind_error)))
		return nomem(err);
	vs_str_put(&cl->strs, task->bind_error);
	task->bind_error = error;
	task->bind_failures = u->bind_failures;
	task->retry_after_ns = u->retry_after_ns;
	return 0;
}

static int undo_task(struct vs_cluster *cl, const struct undo *u, struct vs_err *err)
{
	struct vs_task *task = find(cl, VS_A_TASK, &u->self);
	struct vs_node *node = u->node ? vs_node_find(cl, u->node) : NULL;
	int ret = 0;

	if (!task || (u->node && !node))
		return vs_err_set(err, EIO, "task %s/%s or its node %s is gone", u->self.ns,
				  u->self.name, u->node ? u->node : "-");
	if (task->node && task->node != node)
		ret = vs_task_unplace(cl, task, node ? VS_TASK_PENDING : u->status, err);
	if (!ret && node && task->node != node)
		ret = vs_task_place(cl, task, node, u->status, err);
	else if (!ret && task->status != u->status)
		ret = vs_task_set_status(cl, task, u->status, err);
	if (!ret)
		restore_task_place(cl, u, task);
	return ret ? ret : undo_bind_state(cl, u, task, err);
}

static int undo_one(struct vs_nl_core *core, struct undo *u, struct vs_err *err)
{
	switch (u->kind) {
	case UNDO_NONE:
		return 0;
	case UNDO_DEL:
		return undo_del(core, u, err);
	case UNDO_REPLACE:
		return undo_replace(core, u, err);
	case UNDO_RECREATE:
		return undo_recreate(core, u, err);
	case UNDO_TASK:
		return undo_task(core->cl, u, err);
	case UNDO_VJOB:
		return undo_vjob(core, u, err);
	}
	return 0;
}

/* Every queue's state before the batch, which the queue controller may move. */
static int save_queues(struct commit *c)
{
	const struct vs_cluster *cl = c->core->cl;
	const struct vs_queue *queue;

	if (!cl->nr_queues)
		return 0;
	c->queues = vs_arena_calloc(&c->arena, cl->nr_queues, sizeof(*c->queues));
	if (!c->queues)
		return -ENOMEM;
	list_for_each_entry(queue, &cl->queues, list) {
		struct queue_state *q = &c->queues[c->nr_queues++];

		q->name = copy_str(c, queue->name);
		if (!q->name)
			return -ENOMEM;
		q->state = queue->state;
		q->closed_by_parent = queue->closed_by_parent;
	}
	return 0;
}

static void restore_queues(struct commit *c)
{
	for (u32 i = 0; i < c->nr_queues; i++) {
		struct vs_queue *queue = vs_queue_find(c->core->cl, c->queues[i].name);

		if (!queue)
			continue;
		queue->state = c->queues[i].state;
		queue->closed_by_parent = c->queues[i].closed_by_parent;
	}
}

/* Walk the journal back from its @n-th entry; false when some undo failed. */
static bool rollback(struct commit *c, struct undo *journal, u32 n)
{
	bool whole = true;

	while (n--) {
		struct vs_err e = { { 0 } };

		if (undo_one(c->core, &journal[n], &e)) {
			vs_error("batch: undoing a message failed, the state may differ: %s",
				 e.msg);
			whole = false;
		}
	}
	untouch(c);
	restore_queues(c);
	c->core->cl->total_allocatable = c->total;
	c->core->cl->seq = c->seq;
	return whole;
}

/* ---- applying ---- */

/* The held message @nlh through its handler, with @ext for its error. */
static int apply(struct vs_genl_ctx *ctx, const struct vs_genl_op *op, const struct nlmsghdr *nlh,
		 const struct nlattr **tb, struct vs_extack *ext)
{
	u32 none[NLMSG_HDRLEN / 4];
	struct vs_nl_reply reply;
	struct vs_genl_info info = {
		.ctx = ctx,
		.family = &vs_genl_vsched,
		.op = op,
		.nlh = nlh,
		.genlhdr = mnl_nlmsg_get_payload(nlh),
		.attrs = tb,
		.extack = ext,
		.reply = &reply,
	};
	int ret;

	/* What may be in a batch answers nothing but its errors. */
	vs_nl_reply_init(&reply, none, 0, ctx->portid);
	ret = op->doit(&info);
	if (ret < 0)
		vs_extack_fail(ext, ret, "%s failed", op->name);
	return ret < 0 ? ret : 0;
}

/* "task ns/p1": the object the held message is about, for END's error. */
static void describe(const struct vs_genl_op *op, const struct nlattr *const *tb, char *buf,
		     size_t len)
{
	const struct vs_nl_objtype *ot = vs_nl_objtype_cmd(op->cmd);
	const struct nlattr *nest;

	if (ot) {
		vs_nl_obj_describe(ot, tb[vs_nl_objtype_attr(ot)], buf, len);
	} else if (op->cmd == VS_CMD_TASK_STATUS) {
		vs_nl_obj_describe(vs_nl_objtype(VS_A_TASK), tb[VS_A_TASK], buf, len);
	} else {
		nest = tb[VS_A_BIND_RESULT];
		snprintf(buf, len, "task %s/%s", nest_str(nest, VS_BIND_A_NAMESPACE),
			 nest_str(nest, VS_BIND_A_NAME));
	}
}

/* END's error for the held message @nlh that failed with @mext, after the rollback. */
static int failed(struct vs_extack *ext, const struct nlmsghdr *nlh, const struct vs_genl_op *op,
		  const struct nlattr *const *tb, const struct vs_extack *mext, bool whole)
{
	char what[160] = "";
	const char *inner = mext->err.msg;
	size_t wl;

	if (tb)
		describe(op, tb, what, sizeof(what));
	/* Handlers name the object first; say it once. */
	wl = strlen(what);
	if (wl && !strncmp(inner, what, wl) && !strncmp(inner + wl, ": ", 2))
		inner += wl + 2;
	return vs_extack_fail(ext, mext->error, "batch not applied: message seq %u (%s%s%s) "
			      "failed: %s%s", nlh->nlmsg_seq, op->name, wl ? " " : "", what, inner,
			      whole ? "" : " (and undoing failed, see the log)");
}

/* Apply the held messages in order, or none. */
static int commit(struct vs_genl_ctx *ctx, struct vs_nl_batch *b, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];
	struct commit c = { .core = ctx->priv };
	const struct nlmsghdr *nlh;
	struct undo *undo;
	size_t off;
	u32 done = 0;
	size_t mark;
	int ret = 0;

	if (!b->nr)
		return 0;
	mark = vs_nl_events_mark(&c.core->events);
	c.seq = c.core->cl->seq;
	c.total = c.core->cl->total_allocatable;
	vs_arena_init(&c.arena, 0);
	undo = vs_arena_calloc(&c.arena, b->nr, sizeof(*undo));
	if (!undo || save_queues(&c) || vs_htable_init(&c.touched, 0, touched_hashfn)) {
		vs_arena_destroy(&c.arena);
		return vs_extack_fail(ext, ENOMEM, "batch not applied: out of memory for its "
				      "undo journal");
	}
	/*
	 * The held messages, each checked and NLMSG_ALIGNed when it was held:
	 * not a datagram, so not bound by VS_MSG_MAX as vs_nl_iter_next() is
	 * (a batch of several megabytes held whole).
	 */
	for (off = 0; !ret && off < b->len; off += NLMSG_ALIGN(nlh->nlmsg_len)) {
		const struct genlmsghdr *g;
		const struct vs_genl_op *op;
		struct vs_extack mext = { 0 };

		nlh = (const struct nlmsghdr *)(b->buf + off);
		g = mnl_nlmsg_get_payload(nlh);
		op = vs_genl_op_find(&vs_genl_vsched, g->cmd);

		/*
		 * Checked against its policy when held, and the copy held is
		 * the batch's own: finding its attributes is enough. Walking
		 * the policy again cost a twentieth of a load's time.
		 */
		vs_nla_tb(nlh, GENL_HDRLEN, op->maxattr, tb);
		ret = vs_genl_mem_check(ctx, op, &mext);
		if (!ret) {
			ret = journal(&c, op, nlh, tb, &undo[done], &mext.err);
			if (ret)
				vs_extack_fail(&mext, ret, "cannot be undone");
			else
				ret = apply(ctx, op, nlh, tb, &mext);
		}
		if (ret)
			ret = failed(ext, nlh, op, tb, &mext, rollback(&c, undo, done));
		else
			done++;
	}
	/* Undone, it did not happen: nobody is told. */
	if (ret)
		vs_nl_events_rewind(&c.core->events, mark);
	free(c.scratch);
	vs_htable_destroy(&c.touched);
	vs_arena_destroy(&c.arena);
	vs_arena_reset(c.core->arena);
	return ret;
}

/* ---- the client's messages ---- */

/* VS_CMD_BATCH_BEGIN or VS_CMD_BATCH_END of vsched's family, else 0; nothing checked yet. */
static u8 batch_cmd(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	if (nlh->nlmsg_type != VSCHED_GENL_ID || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return 0;
	return g->cmd == VS_CMD_BATCH_BEGIN || g->cmd == VS_CMD_BATCH_END ? g->cmd : 0;
}

static int answer(struct vs_nl_reply *reply, const struct nlmsghdr *nlh, int ret,
		  struct vs_extack *ext)
{
	if (ret)
		vs_nl_reply_error(reply, nlh, ret, ext);
	else if (nlh->nlmsg_flags & NLM_F_ACK)
		vs_nl_reply_ack(reply, nlh);
	return ret;
}

static int begin(struct vs_genl_ctx *ctx, struct vs_nl_batch *b, const struct nlmsghdr *nlh,
		 struct vs_nl_reply *reply, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];

	if (!check(ctx, nlh, tb, ext))
		return answer(reply, nlh, ext->error, ext);
	vs_nl_batch_release(b);
	b->open = true;
	b->begin_seq = nlh->nlmsg_seq;
	return answer(reply, nlh, 0, ext);
}

static int end(struct vs_genl_ctx *ctx, struct vs_nl_batch *b, const struct nlmsghdr *nlh,
	       struct vs_nl_reply *reply, struct vs_extack *ext)
{
	int ret;

	unsigned int dims = vs_res_ndims();

	if (b->error)
		ret = vs_extack_fail(ext, b->error, "batch not applied: message seq %u was "
				     "refused: %s", b->error_seq, b->error_msg);
	else
		ret = commit(ctx, b, ext);
	/* Undone, the batch holds no object: the resource names it brought go too. */
	if (ret)
		vs_res_dims_rewind(dims);
	vs_nl_batch_release(b);
	return answer(reply, nlh, ret, ext);
}

int vs_nl_rcv(struct vs_genl_ctx *ctx, struct vs_nl_batch *batch, const struct nlmsghdr *nlh,
	      struct vs_nl_reply *reply, struct vs_genl_dump *dump, struct vs_extack *ext)
{
	const struct nlattr *tb[VS_NLA_SET_MAX + 1];
	const struct vs_genl_op *op;
	const char *why;
	int ret;

	if (!batch->open) {
		switch (batch_cmd(nlh)) {
		case VS_CMD_BATCH_BEGIN:
			return begin(ctx, batch, nlh, reply, ext);
		case VS_CMD_BATCH_END:
			if (!check(ctx, nlh, tb, ext))
				return answer(reply, nlh, ext->error, ext);
			return answer(reply, nlh, vs_extack_fail(ext, EINVAL, "VS_CMD_BATCH_END "
				      "without VS_CMD_BATCH_BEGIN: no batch is open"), ext);
		}
		return vs_genl_rcv_msg(ctx, nlh, reply, dump, ext);
	}

	op = check(ctx, nlh, tb, ext);
	if (op && op->cmd == VS_CMD_BATCH_END)
		return end(ctx, batch, nlh, reply, ext);
	if (op && op->cmd == VS_CMD_BATCH_BEGIN)
		vs_extack_fail(ext, EINVAL, "a batch is open already (begun by message seq %u)",
			       batch->begin_seq);
	else if (op && (why = not_batchable(op->cmd)))
		vs_extack_fail(ext, EINVAL, "%s cannot be in a batch: %s", op->name, why);
	else if (op && !batch->error)
		hold(batch, nlh, ext);
	ret = ext->error;
	if (ret)
		doom(batch, nlh, ext);
	return answer(reply, nlh, ret, ext);
}
