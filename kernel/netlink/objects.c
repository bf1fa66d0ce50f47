// SPDX-License-Identifier: Apache-2.0
/*
 * The object commands: see objects.h.
 *
 * One table entry per object type says how to find, build, change, remove,
 * put and walk it; the commands themselves are written once. Where a
 * controller takes part (a struct vs_ctl is given), the entry calls it
 * instead of the core, as Documentation/controllers.md's table says.
 */
#include <libmnl/libmnl.h>
#include <stdio.h>
#include <string.h>

#include "controllers/jobctl.h"
#include "controllers/qctl.h"
#include "core/log.h"
#include "core/names.h"
#include "core/txn.h"
#include "netlink/fill.h"
#include "netlink/objects.h"
#include "netlink/parse.h"
#include "vsched/vsched.h"

struct vs_nl_objtype {
	u16 attr;			/* VS_A_NODE... */
	u8 cmd[VS_NL_NR_VERBS];		/* by verb: VS_CMD_NODE_NEW, _SET, _DEL, _GET */
	const char *what;		/* "node", for messages */
	const char *core_what;		/* the core's word for it ("pod"), when another */
	u16 ns_type;			/* the namespace attribute, 0 for cluster-scoped */
	u16 name_type;
	void *(*find)(struct vs_cluster *cl, const char *ns, const char *name);
	/*
	 * Build the spec (from @obj's when @merge, else from the defaults),
	 * then create the object (@obj NULL) or update @obj; through the
	 * controllers when @ctl is not NULL (and so for del).
	 */
	int (*apply)(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
		     const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err);
	int (*del)(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, struct vs_err *err);
	bool (*put)(struct nlmsghdr *nlh, size_t cap, const void *obj);
	bool (*put_spec)(struct nlmsghdr *nlh, size_t cap, const void *obj);
	void *(*next)(struct vs_cluster *cl, void *prev);
	size_t names;			/* offsetof(struct vs_cluster, its name tree) */
};

/* ---- per type ---- */

/*
 * The object changed as asked, and a controller then failed to do what
 * follows from it (a job's sync, say): the request is not refused, for it
 * was applied. What failed is logged and tried again on the next sync,
 * after the next cycle, as Volcano requeues a request that failed.
 */
static int followed(const char *what, int ret, struct vs_err *err)
{
	if (ret)
		vs_warn("%s: %s", what, err->msg);
	vs_err_clear(err);
	return 0;
}

/* The entry after @prev in a cluster list of objects linked by @off, or NULL. */
static void *list_next(struct list_head *head, void *prev, size_t off)
{
	struct list_head *pos = prev ? (struct list_head *)((char *)prev + off) : head;

	return pos->next == head ? NULL : (char *)pos->next - off;
}

/*
 * The table's typeless put and put_spec of an object type, over its typed
 * fills (vs_nl_put_node(), vs_nl_put_node_spec()...).
 */
#define DEFINE_OBJ_PUT(T)							\
static bool put_##T(struct nlmsghdr *nlh, size_t cap, const void *obj)		\
{										\
	return vs_nl_put_##T(nlh, cap, obj);					\
}										\
										\
static bool put_##T##_spec(struct nlmsghdr *nlh, size_t cap, const void *obj)	\
{										\
	return vs_nl_put_##T##_spec(nlh, cap, obj);				\
}

/* The table's next of a type kept on one cluster list, @head, by its member list. */
#define DEFINE_OBJ_LIST_NEXT(T, head, type)					\
static void *next_##T(struct vs_cluster *cl, void *prev)			\
{										\
	return list_next(&cl->head, prev, offsetof(struct type, list));		\
}

static void *find_node(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_node_find(cl, name);
}

static int apply_node(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
		      const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_node_spec spec;
	int ret;

	if (obj && merge) {
		if (vs_nl_node_spec_of(obj, arena, &spec))
			return vs_err_set(err, ENOMEM, "out of memory");
	} else {
		vs_node_spec_init(&spec, obj ? ((struct vs_node *)obj)->name : NULL);
	}
	ret = vs_nl_parse_node(cl, nest, arena, &spec, err);
	if (ret)
		return ret;
	return obj ? vs_node_update(cl, obj, &spec, err) : vs_node_add(cl, &spec, NULL, err);
}

static int del_node(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, struct vs_err *err)
{
	return vs_node_del(cl, obj, err);
}

DEFINE_OBJ_PUT(node)

DEFINE_OBJ_LIST_NEXT(node, nodes, vs_node)

static void *find_queue(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_queue_find(cl, name);
}

static int apply_queue(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
		       const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_queue_spec spec;
	struct vs_queue *queue;
	int ret;

	if (obj && merge) {
		vs_nl_queue_spec_of(obj, &spec);
	} else {
		vs_queue_spec_init(&spec, obj ? ((struct vs_queue *)obj)->name : NULL);
		/* the state is status, not spec: a replacing NEW without one keeps it */
		if (obj)
			spec.state = ((struct vs_queue *)obj)->state;
	}
	ret = vs_nl_parse_queue(cl, nest, arena, &spec, err);
	if (ret)
		return ret;
	if (obj)
		return vs_queue_update(cl, obj, &spec, err);
	ret = vs_queue_add(cl, &spec, &queue, err);
	/* the queue controller's addQueue: a new queue follows its parent */
	if (!ret && ctl)
		ret = followed("queue created", vs_qctl_sync(ctl, queue, err), err);
	return ret;
}

static int del_queue(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, struct vs_err *err)
{
	return vs_queue_del(cl, obj, err);
}

DEFINE_OBJ_PUT(queue)

DEFINE_OBJ_LIST_NEXT(queue, queues, vs_queue)

static void *find_podgroup(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_job_find(cl, ns, name);
}

static int apply_podgroup(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
			  const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_job_spec spec;
	int ret;

	if (obj && merge) {
		if (vs_nl_podgroup_spec_of(obj, arena, &spec))
			return vs_err_set(err, ENOMEM, "out of memory");
	} else {
		vs_job_spec_init(&spec, obj ? ((struct vs_job *)obj)->ns : NULL,
				 obj ? ((struct vs_job *)obj)->name : NULL);
		/* the phase is status, not spec: a replacing NEW without one keeps it */
		if (obj)
			spec.phase = ((struct vs_job *)obj)->phase;
	}
	ret = vs_nl_parse_podgroup(cl, nest, arena, &spec, err);
	if (ret)
		return ret;
	/* Volcano's PodGroup admission, on create only: its queue exists and is Open */
	if (!obj && ctl && (ret = vs_qctl_admit_podgroup(ctl, spec.queue, err)))
		return ret;
	if (!obj)
		return vs_job_add(cl, &spec, NULL, err);
	ret = vs_job_update(cl, obj, &spec, err);
	/* The phase is status, not spec: the update keeps it; a SET may move it. */
	if (!ret && spec.phase != ((struct vs_job *)obj)->phase)
		vs_job_set_phase(cl, obj, spec.phase);
	return ret;
}

/* Refused while it has tasks; a Closing queue may close with it gone. */
static int del_podgroup(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, struct vs_err *err)
{
	return ctl ? vs_ctl_podgroup_del(ctl, obj, err) : vs_job_del(cl, obj, err);
}

DEFINE_OBJ_PUT(podgroup)

/*
 * PodGroups live on two lists (of their queue's, and the orphans'), but
 * every one of them is on cl->jobs in creation order.
 */
DEFINE_OBJ_LIST_NEXT(podgroup, jobs, vs_job)

static void *find_task(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_task_find(cl, ns, name);
}

static int apply_task(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
		      const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_task_spec spec;
	struct vs_ctl_pod pod;
	int ret;

	/* A pod's spec does not change in Kubernetes: it is deleted and made again. */
	if (obj)
		return vs_err_set(err, EOPNOTSUPP,
				  "a task's spec cannot change: delete it and create it again "
				  "(its status changes with VS_CMD_TASK_STATUS)");
	vs_task_spec_init(&spec, NULL, NULL, NULL);
	ret = vs_nl_parse_pod(cl, nest, arena, &spec, &pod, err);
	if (ret)
		return ret;
	if (!ctl)
		return vs_task_add(cl, &spec, NULL, err);
	return vs_ctl_task_add(ctl, &spec, &pod, NULL, err);
}

/*
 * The task goes at once; then the job controller hears PodEvicted, and the
 * PodGroup made for a bare task goes with it.
 */
static int del_task(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, struct vs_err *err)
{
	char what[VS_ERR_MSG_MAX];
	const struct vs_task *task = obj;

	if (!ctl) {
		vs_task_del(cl, obj);
		return 0;
	}
	snprintf(what, sizeof(what), "task %s/%s deleted", task->ns, task->name);
	return followed(what, vs_ctl_task_del(ctl, obj, err), err);
}

DEFINE_OBJ_PUT(task)

/* Tasks in the order of their PodGroups, each PodGroup's in creation order. */
static void *next_task(struct vs_cluster *cl, void *prev)
{
	struct vs_task *t = prev;
	struct vs_job *job;

	if (t && t->job_node.next != &t->job->tasks)
		return list_entry(t->job_node.next, struct vs_task, job_node);
	job = t ? t->job : NULL;
	while ((job = next_podgroup(cl, job)))
		if (!list_empty(&job->tasks))
			return list_first_entry(&job->tasks, struct vs_task, job_node);
	return NULL;
}

static void *find_vjob(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_vjob_find(cl, ns, name);
}

/*
 * Without the controllers: the job as given, and, from a checkpoint, the
 * state it was in (VS_VJOB_A_STATE, which validation let through only then).
 */
static int restore_vjob(struct vs_cluster *cl, const struct vs_vjob_spec *spec,
			const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	const struct nlattr *tb[VS_VJOB_A_MAX + 1];
	struct vs_vjob_state st;
	struct vs_vjob *vjob;
	int ret;

	vs_nl_nest_tb(nest, tb, VS_VJOB_A_MAX);
	if (tb[VS_VJOB_A_STATE]) {
		ret = vs_nl_parse_vjob_state(tb[VS_VJOB_A_STATE], arena, &st, err);
		if (ret)
			return ret;
	}
	ret = vs_vjob_add(cl, spec, &vjob, err);
	if (ret || !tb[VS_VJOB_A_STATE])
		return ret;
	ret = vs_jobctl_restore(cl, vjob, &st, err);
	if (ret)
		vs_vjob_del(cl, vjob);
	return ret;
}

static int apply_vjob(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
		      const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_vjob_spec spec;
	struct vs_vjob *vjob;
	int ret;

	/* The core has no update of a VolcanoJob: its controller owns what follows from it. */
	if (obj)
		return vs_err_set(err, EOPNOTSUPP, "a VolcanoJob's spec cannot change: delete "
				  "it and create it again");
	vs_vjob_spec_init(&spec, NULL, NULL);
	ret = vs_nl_parse_vjob(cl, nest, arena, &spec, err);
	if (ret)
		return ret;
	if (!ctl)
		return restore_vjob(cl, &spec, nest, arena, err);
	/* Volcano's admission webhook, the job, then its first sync: its PodGroup */
	ret = vs_jobctl_admit(ctl, &spec, err);
	if (!ret)
		ret = vs_vjob_add(cl, &spec, &vjob, err);
	if (ret)
		return ret;
	ret = vs_jobctl_sync(ctl, vjob, err);
	if (ret)
		vs_jobctl_delete(ctl, vjob);	/* a refused request changes nothing */
	return ret;
}

/* With the controllers, its tasks and PodGroup go too, as Kubernetes collects owned objects. */
static int del_vjob(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, struct vs_err *err)
{
	if (ctl)
		vs_jobctl_delete(ctl, obj);
	else
		vs_vjob_del(cl, obj);
	return 0;
}

DEFINE_OBJ_PUT(vjob)

DEFINE_OBJ_LIST_NEXT(vjob, vjobs, vs_vjob)

static void *find_prioclass(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_prioclass_find(cl, name);
}

static int apply_prioclass(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
			   const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_prioclass_spec spec;
	int ret;

	if (obj && merge) {
		vs_nl_prioclass_spec_of(obj, &spec);
	} else {
		memset(&spec, 0, sizeof(spec));
		spec.name = obj ? ((struct vs_prioclass *)obj)->name : NULL;
	}
	ret = vs_nl_parse_prioclass(nest, arena, &spec, err);
	if (ret)
		return ret;
	return obj ? vs_prioclass_update(cl, obj, &spec, err) :
		     vs_prioclass_add(cl, &spec, NULL, err);
}

static int del_prioclass(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj,
			 struct vs_err *err)
{
	vs_prioclass_del(cl, obj);
	return 0;
}

DEFINE_OBJ_PUT(prioclass)

DEFINE_OBJ_LIST_NEXT(prioclass, prioclasses, vs_prioclass)

static void *find_hypernode(struct vs_cluster *cl, const char *ns, const char *name)
{
	return vs_hypernode_find(cl, name);
}

/* No controller: the core keeps the tree over the HyperNodes itself. */
static int apply_hypernode(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj, bool merge,
			   const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct vs_hypernode_spec spec;
	int ret;

	if (obj && merge) {
		if (vs_nl_hypernode_spec_of(obj, arena, &spec))
			return vs_err_set(err, ENOMEM, "out of memory");
	} else {
		memset(&spec, 0, sizeof(spec));
		spec.name = obj ? ((struct vs_hypernode *)obj)->name : NULL;
	}
	ret = vs_nl_parse_hypernode(nest, arena, !merge, &spec, err);
	if (ret)
		return ret;
	return obj ? vs_hypernode_update(cl, obj, &spec, err) :
		     vs_hypernode_add(cl, &spec, NULL, err);
}

static int del_hypernode(struct vs_cluster *cl, struct vs_ctl *ctl, void *obj,
			 struct vs_err *err)
{
	vs_hypernode_del(cl, obj);
	return 0;
}

DEFINE_OBJ_PUT(hypernode)

/* Creation order: a checkpoint makes them again oldest first, so the oldest claimer stays so. */
DEFINE_OBJ_LIST_NEXT(hypernode, hypernodes.list, vs_hypernode)

/* The four commands of an object type, by verb. */
#define OBJ_CMDS(T) {						\
	[VS_NL_NEW] = VS_CMD_##T##_NEW, [VS_NL_SET] = VS_CMD_##T##_SET,	\
	[VS_NL_DEL] = VS_CMD_##T##_DEL, [VS_NL_GET] = VS_CMD_##T##_GET,	\
}

static const struct vs_nl_objtype objtypes[] = {
	{
		.attr = VS_A_NODE, .cmd = OBJ_CMDS(NODE), .what = "node",
		.name_type = VS_NODE_A_NAME,
		.find = find_node, .apply = apply_node, .del = del_node,
		.put = put_node, .put_spec = put_node_spec, .next = next_node,
		.names = offsetof(struct vs_cluster, node_names),
	},
	{
		.attr = VS_A_QUEUE, .cmd = OBJ_CMDS(QUEUE), .what = "queue",
		.name_type = VS_QUEUE_A_NAME,
		.find = find_queue, .apply = apply_queue, .del = del_queue,
		.put = put_queue, .put_spec = put_queue_spec, .next = next_queue,
		.names = offsetof(struct vs_cluster, queue_names),
	},
	{
		.attr = VS_A_PODGROUP, .cmd = OBJ_CMDS(PODGROUP), .what = "podgroup",
		.ns_type = VS_PG_A_NAMESPACE, .name_type = VS_PG_A_NAME,
		.find = find_podgroup, .apply = apply_podgroup, .del = del_podgroup,
		.put = put_podgroup, .put_spec = put_podgroup_spec, .next = next_podgroup,
		.names = offsetof(struct vs_cluster, job_names),
	},
	{
		.attr = VS_A_TASK, .cmd = OBJ_CMDS(TASK), .what = "task", .core_what = "pod",
		.ns_type = VS_TASK_A_NAMESPACE, .name_type = VS_TASK_A_NAME,
		.find = find_task, .apply = apply_task, .del = del_task,
		.put = put_task, .put_spec = put_task_spec, .next = next_task,
		.names = offsetof(struct vs_cluster, task_names),
	},
	{
		.attr = VS_A_VJOB, .cmd = OBJ_CMDS(VJOB), .what = "vjob", .core_what = "job",
		.ns_type = VS_VJOB_A_NAMESPACE, .name_type = VS_VJOB_A_NAME,
		.find = find_vjob, .apply = apply_vjob, .del = del_vjob,
		.put = put_vjob, .put_spec = put_vjob_spec, .next = next_vjob,
		.names = offsetof(struct vs_cluster, vjob_names),
	},
	{
		.attr = VS_A_PRIOCLASS, .cmd = OBJ_CMDS(PRIOCLASS), .what = "priorityclass",
		.core_what = "priority class",
		.name_type = VS_PC_A_NAME,
		.find = find_prioclass, .apply = apply_prioclass, .del = del_prioclass,
		.put = put_prioclass, .put_spec = put_prioclass_spec, .next = next_prioclass,
		.names = offsetof(struct vs_cluster, prioclass_names),
	},
	{
		.attr = VS_A_HYPERNODE, .cmd = OBJ_CMDS(HYPERNODE), .what = "hypernode",
		.name_type = VS_HN_A_NAME,
		.find = find_hypernode, .apply = apply_hypernode, .del = del_hypernode,
		.put = put_hypernode, .put_spec = put_hypernode_spec, .next = next_hypernode,
		.names = offsetof(struct vs_cluster, hypernode_names),
	},
};

/* ---- the commands ---- */

const struct vs_nl_objtype *vs_nl_objtype(u16 attr)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(objtypes); i++)
		if (objtypes[i].attr == attr)
			return &objtypes[i];
	return NULL;
}

const struct vs_nl_objtype *vs_nl_objtype_cmd(u8 cmd)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(objtypes); i++)
		if (vs_nl_obj_verb(&objtypes[i], cmd) != VS_NL_NR_VERBS)
			return &objtypes[i];
	return NULL;
}

enum vs_nl_verb vs_nl_obj_verb(const struct vs_nl_objtype *ot, u8 cmd)
{
	enum vs_nl_verb v;

	for (v = VS_NL_NEW; v < VS_NL_NR_VERBS; v++)
		if (ot->cmd[v] == cmd)
			break;
	return v;
}

const char *vs_nl_objtype_what(const struct vs_nl_objtype *ot)
{
	return ot->what;
}

/* The key of the object a nest names: "ns/name" or "name", for messages. */
struct key {
	const char *ns, *name;
};

static int read_key(const struct vs_nl_objtype *ot, const struct nlattr *nest, struct key *k,
		    struct vs_err *err)
{
	const struct nlattr *a;

	k->ns = k->name = NULL;
	mnl_attr_for_each_nested(a, nest) {
		u16 type = mnl_attr_get_type(a);

		if (type == ot->name_type)
			k->name = mnl_attr_get_str(a);
		else if (ot->ns_type && type == ot->ns_type)
			k->ns = mnl_attr_get_str(a);
		else
			continue;
		/*
		 * Validated, the nest names each once; the key comes first
		 * in what the fills write, and a task's nest is long.
		 */
		if (k->name && (k->ns || !ot->ns_type))
			break;
	}
	if (!k->name || (ot->ns_type && !k->ns))
		return vs_err_set(err, EINVAL, "%s: the %s is missing", ot->what,
				  k->name ? "namespace" : "name");
	return 0;
}

void *vs_nl_obj_find(const struct vs_nl_objtype *ot, struct vs_cluster *cl,
		     const struct nlattr *nest, struct vs_err *err, int *ret)
{
	struct key k;
	void *obj;

	*ret = read_key(ot, nest, &k, err);
	if (*ret)
		return NULL;
	obj = ot->find(cl, k.ns, k.name);
	if (!obj)
		*ret = ot->ns_type ? vs_err_set(err, ENOENT, "%s %s/%s not found", ot->what, k.ns, k.name)
				   : vs_err_set(err, ENOENT, "%s %s not found", ot->what, k.name);
	return obj;
}

/* Whether @msg opens with "@word @key: ". */
static bool opens_with(const char *msg, const char *word, const char *key)
{
	size_t w = strlen(word), n = strlen(key);

	return !strncmp(msg, word, w) && msg[w] == ' ' && !strncmp(msg + w + 1, key, n) &&
	       !strncmp(msg + w + 1 + n, ": ", 2);
}

/*
 * Say which object an error is about: "node n1: ...", unless the core
 * said it already ("pod ns/p1: ..." of a task): once is enough.
 */
static int about(const struct vs_nl_objtype *ot, const struct key *k, int ret,
		 struct vs_err *err)
{
	char key[2 * VS_DNS_SUBDOMAIN_MAX + 2];

	if (!ret)
		return ret;
	if (ot->ns_type)
		snprintf(key, sizeof(key), "%s/%s", k->ns, k->name);
	else
		snprintf(key, sizeof(key), "%s", k->name);
	if (opens_with(err->msg, ot->what, key) ||
	    (ot->core_what && opens_with(err->msg, ot->core_what, key)))
		return ret;
	vs_err_prefix(err, "%s %s: ", ot->what, key);
	return ret;
}

/*
 * ot->apply(), in a transaction: the batch's when one is open, else one of
 * its own, so that a request refused halfway (a spec that registered a
 * resource name, then failed a check) is undone whole, names included.
 */
static int apply_txn(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		     void *obj, bool merge, const struct nlattr *nest, struct vs_arena *arena,
		     struct vs_err *err)
{
	struct vs_txn txn;
	int ret;

	if (cl->txn)
		return ot->apply(cl, ctl, obj, merge, nest, arena, err);
	vs_txn_begin(&txn, cl);
	ret = ot->apply(cl, ctl, obj, merge, nest, arena, err);
	if (!ret && vs_txn_broken(&txn))
		ret = vs_err_set(err, ENOMEM, "out of memory for the undo journal");
	if (ret && vs_txn_abort(&txn))
		vs_error("undoing a refused request failed: the cluster may keep part of it");
	else if (!ret)
		vs_txn_commit(&txn);
	return ret;
}

int vs_nl_obj_new(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		  const struct nlattr *nest, bool replace, struct vs_arena *arena,
		  struct vs_err *err)
{
	struct key k;
	void *obj;
	int ret = read_key(ot, nest, &k, err);

	if (ret)
		return ret;
	obj = ot->find(cl, k.ns, k.name);
	if (obj && !replace)
		return about(ot, &k, vs_err_set(err, EEXIST, "exists already"), err);
	/* Replace: the spec given, with the defaults for what it leaves out. */
	return about(ot, &k, apply_txn(ot, cl, ctl, obj, false, nest, arena, err), err);
}

int vs_nl_obj_set(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		  const struct nlattr *nest, struct vs_arena *arena, struct vs_err *err)
{
	struct key k;
	void *obj;
	int ret = read_key(ot, nest, &k, err);

	if (ret)
		return ret;
	obj = vs_nl_obj_find(ot, cl, nest, err, &ret);
	if (!obj)
		return ret;
	return about(ot, &k, apply_txn(ot, cl, ctl, obj, true, nest, arena, err), err);
}

int vs_nl_obj_del(const struct vs_nl_objtype *ot, struct vs_cluster *cl, struct vs_ctl *ctl,
		  const struct nlattr *nest, struct vs_err *err)
{
	struct key k;
	void *obj;
	int ret = read_key(ot, nest, &k, err);

	if (ret)
		return ret;
	obj = vs_nl_obj_find(ot, cl, nest, err, &ret);
	if (!obj)
		return ret;
	return about(ot, &k, ot->del(cl, ctl, obj, err), err);
}

bool vs_nl_obj_put(const struct vs_nl_objtype *ot, struct nlmsghdr *nlh, size_t cap,
		   const void *obj)
{
	return ot->put(nlh, cap, obj);
}

bool vs_nl_obj_put_spec(const struct vs_nl_objtype *ot, struct nlmsghdr *nlh, size_t cap,
			const void *obj)
{
	return ot->put_spec(nlh, cap, obj);
}

int vs_nl_obj_describe(const struct vs_nl_objtype *ot, const struct nlattr *nest, char *buf,
		       size_t len)
{
	struct key k;
	int ret = read_key(ot, nest, &k, NULL);

	if (ret)
		return snprintf(buf, len, "%s", ot->what);
	if (ot->ns_type)
		return snprintf(buf, len, "%s %s/%s", ot->what, k.ns, k.name);
	return snprintf(buf, len, "%s %s", ot->what, k.name);
}

void *vs_nl_obj_next(const struct vs_nl_objtype *ot, struct vs_cluster *cl, void *prev)
{
	return ot->next(cl, prev);
}

u16 vs_nl_objtype_attr(const struct vs_nl_objtype *ot)
{
	return ot->attr;
}

void vs_nl_obj_pos(const struct vs_nl_objtype *ot, const void *obj, u64 *pos)
{
	switch (ot->attr) {
	case VS_A_NODE:
		pos[0] = ((const struct vs_node *)obj)->seq;
		break;
	case VS_A_QUEUE:
		pos[0] = ((const struct vs_queue *)obj)->seq;
		break;
	case VS_A_PODGROUP:
		pos[0] = ((const struct vs_job *)obj)->seq;
		break;
	case VS_A_TASK:
		pos[0] = ((const struct vs_task *)obj)->job->seq;
		pos[1] = ((const struct vs_task *)obj)->seq;
		break;
	case VS_A_VJOB:
		pos[0] = ((const struct vs_vjob *)obj)->seq;
		break;
	case VS_A_PRIOCLASS:
		pos[0] = ((const struct vs_prioclass *)obj)->seq;
		break;
	case VS_A_HYPERNODE:
		pos[0] = ((const struct vs_hypernode *)obj)->seq;
		break;
	}
}

const struct vs_name_tree *vs_nl_obj_names(const struct vs_nl_objtype *ot,
					   const struct vs_cluster *cl)
{
	return (const void *)((const char *)cl + ot->names);
}

static bool str_is(const struct nlattr *a, const char *s)
{
	return !a || !strcmp(mnl_attr_get_str(a), s);
}

bool vs_nl_obj_match(const struct vs_nl_objtype *ot, const void *obj,
		     const struct nlattr *const *attrs)
{
	const struct vs_job *j;
	const struct vs_task *t;

	switch (ot->attr) {
	case VS_A_VJOB:
		return str_is(attrs[VS_A_FILTER_NAMESPACE], ((const struct vs_vjob *)obj)->ns);
	case VS_A_PODGROUP:
		j = obj;
		return str_is(attrs[VS_A_FILTER_NAMESPACE], j->ns) &&
		       str_is(attrs[VS_A_FILTER_QUEUE], j->queue_name);
	case VS_A_TASK:
		t = obj;
		if (attrs[VS_A_FILTER_NODE] && !t->node)
			return false;
		if (attrs[VS_A_FILTER_STATUS] &&
		    !(mnl_attr_get_u32(attrs[VS_A_FILTER_STATUS]) & (1u << t->status)))
			return false;
		return str_is(attrs[VS_A_FILTER_NAMESPACE], t->ns) &&
		       str_is(attrs[VS_A_FILTER_PODGROUP], t->job->name) &&
		       (!attrs[VS_A_FILTER_NODE] || str_is(attrs[VS_A_FILTER_NODE], t->node->name));
	}
	return true;
}
