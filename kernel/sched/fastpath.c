// SPDX-License-Identifier: Apache-2.0
/*
 * allocate's templates and node indexes across cycles: see fastpath.h.
 *
 * Invariants, for every built index of a template, whenever the index
 * serves: its @seen is at or after the touch log's base (the log is only
 * trimmed up to the least @seen), and every node not logged since @seen
 * is in the index with its current score, or out of it because it cannot
 * hold the template's cpu and memory, or its class fails the template's
 * predicates (class_out()), or it failed the template's predicates
 * (vs_nidx_first()'s VS_NIDX_DROP) and has not changed since.
 */
#include <stdlib.h>
#include <string.h>

#include "core/cluster.h"
#include "core/res.h"
#include "sched/fastpath.h"
#include "sched/framework.h"
#include "sched/nodeindex.h"
#include "sched/session.h"
#include "sched/topology.h"

/* The memory the node indexes may hold at once. */
#define NIDX_BUDGET		(1024u << 20)

/* How many touched nodes ahead a catch-up prefetches leaves. */
#define NIDX_AHEAD		8

/* A template's verdicts on node classes. */
enum { CLASS_UNKNOWN, CLASS_IN, CLASS_OUT };

/* Sessions a template may go unused before it is freed. */
#define TMPL_IDLE_CYCLES	16

struct fp_label {
	char *key, *value;
};

struct fp_toleration {
	char *key, *value;
	enum vs_toleration_op op;
	enum vs_taint_effect effect;
	bool has_seconds;
	s64 seconds;
};

struct fp_port {
	char *ip;			/* NULL: none written */
	u16 port;
	u8 protocol;
};

/*
 * A task template of the fast path: what a task's predicates and scores
 * read besides the node, for tasks without affinity: the request, the node
 * selector, the tolerations and the host ports. Its node index orders the
 * nodes as allocate chooses among them for any task of the template; a node
 * a task of it found its port held on leaves the index until its pods
 * change (NodePorts reads them, not the node's class).
 */
struct vs_fp_tmpl {
	struct vs_res req;
	struct fp_label *selector;
	u32 nr_selector;
	struct fp_toleration *tols;
	u32 nr_tols;
	struct fp_port *ports;
	u32 nr_ports;
	char **images;			/* its containers' images (ImageLocality) */
	u32 nr_images;
	/* score_task's images: the task's being placed, for vs_fastpath_index() alone */
	struct vs_task_ext score_ext;
	/*
	 * What scoring is asked about: the request and nothing else. The
	 * scores the fast path allows read only that of a task (nodeorder's
	 * TaintToleration reads tolerations for PreferNoSchedule taints, and
	 * no node has one while the fast path serves; affinity is the scan's).
	 */
	struct vs_task score_task;
	/*
	 * Per node class id (core/nodeclass.h): CLASS_UNKNOWN, CLASS_IN, or
	 * CLASS_OUT when a task of the template fails the predicates on every
	 * node of the class: such nodes are neither scored nor indexed. Valid
	 * while the cluster's class generation is @class_gen.
	 */
	u8 *verdict;
	u32 cap_verdict;
	u64 class_gen;
	struct vs_nidx ix;
	bool built;
	u64 seen;			/* the touch log position the index took in up to */
	u64 used;			/* fp->clock when it served last */
	u64 cycle;			/* the session it served last */
};

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static char *str_dup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static bool of_tmpl(const struct vs_fp_tmpl *t, const struct vs_task *task)
{
	const struct vs_labels *sel = task->node_selector;
	const struct vs_tolerations *tols = task->tolerations;
	const struct vs_host_ports *ports = vs_task_ports(task);

	if (t->req.present != task->req->present ||
	    memcmp(t->req.v, task->req->v, sizeof(t->req.v)) ||
	    t->nr_selector != vs_labels_count(sel) || t->nr_tols != (tols ? tols->nr : 0) ||
	    t->nr_ports != (ports ? ports->nr : 0))
		return false;
	for (u32 i = 0; i < t->nr_ports; i++)
		if (t->ports[i].port != ports->p[i].port ||
		    t->ports[i].protocol != ports->p[i].protocol ||
		    !str_eq(t->ports[i].ip, ports->p[i].ip))
			return false;
	if (t->nr_images != (vs_task_images(task) ? vs_task_images(task)->nr : 0))
		return false;
	for (u32 i = 0; i < t->nr_images; i++)
		if (strcmp(t->images[i], vs_task_images(task)->name[i]))
			return false;
	/* Both in the task's order: sorted by key. */
	for (u32 i = 0; i < t->nr_selector; i++)
		if (!str_eq(t->selector[i].key, sel->kv[i].key) ||
		    !str_eq(t->selector[i].value, sel->kv[i].value))
			return false;
	for (u32 i = 0; i < t->nr_tols; i++) {
		const struct fp_toleration *x = &t->tols[i];
		const struct vs_toleration *y = &tols->t[i];

		if (!str_eq(x->key, y->key) || !str_eq(x->value, y->value) || x->op != y->op ||
		    x->effect != y->effect || x->has_seconds != y->has_seconds ||
		    x->seconds != y->seconds)
			return false;
	}
	return true;
}

bool vs_fastpath_same_tmpl(const struct vs_task *a, const struct vs_task *b)
{
	const struct vs_labels *sa = a->node_selector, *sb = b->node_selector;
	const struct vs_tolerations *ta = a->tolerations, *tb = b->tolerations;
	u32 nr_sel = vs_labels_count(sa), nr_tols = ta ? ta->nr : 0;

	/* interned requests: equal exactly when the pointers are */
	if (a->req != b->req || nr_sel != vs_labels_count(sb) || nr_tols != (tb ? tb->nr : 0) ||
	    !vs_host_ports_equal(vs_task_ports(a), vs_task_ports(b)))
		return false;
	{
		const struct vs_task_images *ia = vs_task_images(a), *ib = vs_task_images(b);
		u32 n = ia ? ia->nr : 0;

		if (n != (ib ? ib->nr : 0))
			return false;
		for (u32 i = 0; i < n; i++)
			if (ia->name[i] != ib->name[i])	/* interned */
				return false;
	}
	for (u32 i = 0; i < nr_sel; i++)
		if (!str_eq(sa->kv[i].key, sb->kv[i].key) ||
		    !str_eq(sa->kv[i].value, sb->kv[i].value))
			return false;
	for (u32 i = 0; i < nr_tols; i++) {
		const struct vs_toleration *x = &ta->t[i], *y = &tb->t[i];

		if (!str_eq(x->key, y->key) || !str_eq(x->value, y->value) || x->op != y->op ||
		    x->effect != y->effect || x->has_seconds != y->has_seconds ||
		    x->seconds != y->seconds)
			return false;
	}
	return true;
}

/* The strings a template copied (free(NULL) for those not copied yet). */
static void tmpl_free_strings(struct vs_fp_tmpl *t)
{
	for (u32 i = 0; t->selector && i < t->nr_selector; i++) {
		free(t->selector[i].key);
		free(t->selector[i].value);
	}
	for (u32 i = 0; t->tols && i < t->nr_tols; i++) {
		free(t->tols[i].key);
		free(t->tols[i].value);
	}
	for (u32 i = 0; t->ports && i < t->nr_ports; i++)
		free(t->ports[i].ip);
	for (u32 i = 0; t->images && i < t->nr_images; i++)
		free(t->images[i]);
}

static void tmpl_free(struct vs_fastpath *fp, struct vs_fp_tmpl *t)
{
	if (t->built) {
		vs_nidx_destroy(&t->ix);
		fp->nr_built--;
	}
	tmpl_free_strings(t);
	free(t->selector);
	free(t->tols);
	free(t->ports);
	free(t->images);
	free(t->verdict);
	free(t);
}

static struct vs_fp_tmpl *tmpl_new(const struct vs_task *task)
{
	const struct vs_labels *sel = task->node_selector;
	const struct vs_tolerations *tols = task->tolerations;
	const struct vs_host_ports *ports = vs_task_ports(task);
	const struct vs_task_images *im = vs_task_images(task);
	struct vs_fp_tmpl *t = calloc(1, sizeof(*t));
	bool nomem = false;

	if (!t)
		return NULL;
	t->req = *task->req;
	t->nr_selector = vs_labels_count(sel);
	t->nr_tols = tols ? tols->nr : 0;
	t->nr_ports = ports ? ports->nr : 0;
	t->selector = calloc(t->nr_selector ? t->nr_selector : 1, sizeof(*t->selector));
	t->tols = calloc(t->nr_tols ? t->nr_tols : 1, sizeof(*t->tols));
	t->ports = calloc(t->nr_ports ? t->nr_ports : 1, sizeof(*t->ports));
	t->nr_images = im ? im->nr : 0;
	t->images = calloc(t->nr_images ? t->nr_images : 1, sizeof(*t->images));
	if (!t->selector || !t->tols || !t->ports || !t->images) {
		t->nr_selector = t->nr_tols = t->nr_ports = t->nr_images = 0;
		goto out_free;
	}
	for (u32 i = 0; i < t->nr_images; i++) {
		t->images[i] = strdup(im->name[i]);
		nomem |= !t->images[i];
	}
	for (u32 i = 0; i < t->nr_ports; i++) {
		const struct vs_host_port *y = &ports->p[i];

		t->ports[i] = (struct fp_port){
			.ip = str_dup(y->ip), .port = y->port, .protocol = y->protocol,
		};
		nomem |= y->ip && !t->ports[i].ip;
	}
	for (u32 i = 0; i < t->nr_selector; i++) {
		t->selector[i].key = str_dup(sel->kv[i].key);
		t->selector[i].value = str_dup(sel->kv[i].value);
		nomem |= !t->selector[i].key || !t->selector[i].value;
	}
	for (u32 i = 0; i < t->nr_tols; i++) {
		const struct vs_toleration *y = &tols->t[i];

		t->tols[i] = (struct fp_toleration){
			.key = str_dup(y->key), .value = str_dup(y->value), .op = y->op,
			.effect = y->effect, .has_seconds = y->has_seconds, .seconds = y->seconds,
		};
		nomem |= (y->key && !t->tols[i].key) || (y->value && !t->tols[i].value);
	}
	if (nomem)
		goto out_free;
	t->score_task.ns = "";
	t->score_task.name = "";
	t->score_task.role = "";
	t->score_task.req = &t->req;
	t->score_task.status = VS_TASK_PENDING;
	return t;

out_free:
	/* what was copied before memory ran out */
	t->built = false;
	tmpl_free_strings(t);
	free(t->selector);
	free(t->tols);
	free(t->ports);
	free(t->images);
	free(t);
	return NULL;
}

/* Drop the index of @t; the template stays. */
static void drop_index(struct vs_fastpath *fp, struct vs_fp_tmpl *t)
{
	if (!t->built)
		return;
	vs_nidx_destroy(&t->ix);
	t->built = false;
	fp->nr_built--;
}

/* Drop the index unused longest. */
static void drop_lru(struct vs_fastpath *fp)
{
	struct vs_fp_tmpl *old = NULL;

	for (u32 i = 0; i < fp->nr_tmpls; i++)
		if (fp->tmpls[i]->built && (!old || fp->tmpls[i]->used < old->used))
			old = fp->tmpls[i];
	if (old)
		drop_index(fp, old);
}

void vs_fastpath_invalidate(struct vs_fastpath *fp)
{
	for (u32 i = 0; i < fp->nr_tmpls; i++) {
		struct vs_fp_tmpl *t = fp->tmpls[i];

		drop_index(fp, t);
		/* The verdicts read the plugins' arguments, which may be new too. */
		if (t->verdict)
			memset(t->verdict, CLASS_UNKNOWN, t->cap_verdict);
	}
	fp->valid = false;
}

/* No layout: every node at its sidx. */
static void layout_free(struct vs_fastpath *fp)
{
	free(fp->pos);
	free(fp->groups);
	free(fp->group_of_hn);
	fp->pos = NULL;
	fp->groups = NULL;
	fp->group_of_hn = NULL;
	fp->nr_groups = 0;
	fp->by_topo = false;
}

void vs_fastpath_destroy(struct vs_fastpath *fp)
{
	for (u32 i = 0; i < fp->nr_tmpls; i++)
		tmpl_free(fp, fp->tmpls[i]);
	free(fp->tmpls);
	free(fp->stamp);
	free(fp->reasons);
	for (u32 i = 0; i < fp->cap_caches; i++)
		free(fp->caches[i].failed);
	free(fp->caches);
	layout_free(fp);
	memset(fp, 0, sizeof(*fp));
}

/* Whether session nodes @a and @b are under the same HyperNodes. */
static bool same_hns(const struct vs_topo *topo, u32 a, u32 b)
{
	u32 na = topo->of_node_at[a + 1] - topo->of_node_at[a];

	return na == topo->of_node_at[b + 1] - topo->of_node_at[b] &&
	       !memcmp(&topo->of_node[topo->of_node_at[a]], &topo->of_node[topo->of_node_at[b]],
		       na * sizeof(*topo->of_node));
}

/*
 * The indexes' layout for @topo (NULL: none): the session's nodes ordered
 * by their lowest HyperNode (its sidx; none last), then by sidx. -ENOMEM.
 */
static int layout(struct vs_fastpath *fp, const struct vs_session *ssn, const struct vs_topo *topo)
{
	u32 n = ssn->nr_nodes, nr_keys, *start = NULL;
	int ret = -ENOMEM;

	layout_free(fp);
	if (!topo)
		return 0;
	fp->by_topo = true;
	fp->hn_gen = topo->hn_gen;
	/* a counting sort by key: the lowest HyperNode, topo->nr for none */
	nr_keys = topo->nr + 1;
	start = calloc(nr_keys + 1, sizeof(*start));
	fp->pos = malloc((n ? n : 1) * sizeof(*fp->pos));
	fp->groups = malloc(nr_keys * sizeof(*fp->groups));
	fp->group_of_hn = malloc(nr_keys * sizeof(*fp->group_of_hn));
	if (!start || !fp->pos || !fp->groups || !fp->group_of_hn)
		goto out;
	for (u32 i = 0; i < n; i++)
		start[(topo->low[i] == VS_TOPO_NONE ? topo->nr : topo->low[i]) + 1]++;
	for (u32 k = 0; k < nr_keys; k++) {
		fp->group_of_hn[k] = start[k + 1] ? fp->nr_groups : VS_TOPO_NONE;
		if (start[k + 1])
			fp->groups[fp->nr_groups++] = (struct vs_fp_group){
				.lo = start[k], .hi = start[k] + start[k + 1], .first = VS_TOPO_NONE,
				.pure = true,
			};
		start[k + 1] += start[k];
	}
	/* start[k]: the next position of key k */
	for (u32 i = 0; i < n; i++) {
		u32 k = topo->low[i] == VS_TOPO_NONE ? topo->nr : topo->low[i];
		struct vs_fp_group *grp = &fp->groups[fp->group_of_hn[k]];

		fp->pos[i] = start[k]++;
		if (grp->first == VS_TOPO_NONE)
			grp->first = i;
		else if (grp->pure && !same_hns(topo, grp->first, i))
			grp->pure = false;
	}
	ret = 0;
out:
	free(start);
	if (ret)
		layout_free(fp);
	return ret;
}

int vs_fastpath_begin(struct vs_fastpath *fp, struct vs_session *ssn, const struct vs_topo *topo)
{
	struct vs_cluster *cl = ssn->cl;
	u32 nr = ssn->nr_nodes ? ssn->nr_nodes : 1;
	size_t fit;

	if (fp->valid && (fp->node_gen != cl->node_gen || fp->ndims != vs_res_ndims(&cl->dims) ||
			  cl->touched.lost || fp->by_topo != (topo != NULL) ||
			  (topo && fp->hn_gen != topo->hn_gen)))
		vs_fastpath_invalidate(fp);
	if (!fp->valid) {
		if (layout(fp, ssn, topo))
			return -ENOMEM;
		/* Indexes are built from the nodes themselves: the log starts here. */
		vs_node_log_reset(&cl->touched);
		fp->node_gen = cl->node_gen;
		fp->ndims = vs_res_ndims(&cl->dims);
		fp->valid = true;
	}
	if (fp->cap_stamp < nr) {
		u32 *stamp = calloc(nr, sizeof(*stamp));

		if (!stamp)
			return -ENOMEM;
		free(fp->stamp);
		fp->stamp = stamp;
		fp->cap_stamp = nr;
		fp->replay = 0;
	}
	/* Templates nobody asked for lately (the workload moved on) go. */
	for (u32 i = 0; i < fp->nr_tmpls;) {
		struct vs_fp_tmpl *t = fp->tmpls[i];

		if (t->cycle + TMPL_IDLE_CYCLES >= ssn->cycle) {
			i++;
			continue;
		}
		if (fp->last == t)
			fp->last = NULL;
		tmpl_free(fp, t);
		fp->tmpls[i] = fp->tmpls[--fp->nr_tmpls];
	}
	fit = NIDX_BUDGET / vs_nidx_bytes(nr);
	fp->max_built = (u32)(fit < 1 ? 1 : fit > 1024 ? 1024 : fit);
	while (fp->nr_built > fp->max_built)
		drop_lru(fp);
	return 0;
}

/*
 * Whether @node's FutureIdle (idle + releasing - pipelined) may hold the
 * template's cpu and memory: the first test of vs_allocate_predicate(),
 * on the two dimensions every request has. A node that fails it is not
 * chosen for the template whatever its score, and its FutureIdle grows
 * back only where the node is logged: it stays out of the index until
 * then. (The other dimensions are the exact test's.)
 */
static bool may_hold(const struct vs_fp_tmpl *t, const struct vs_node *node)
{
	for (unsigned int d = VS_RES_CPU; d <= VS_RES_MEMORY; d++)
		if (node->idle.v[d] + node->releasing.v[d] - node->pipelined.v[d] < t->req.v[d])
			return false;
	return true;
}

/*
 * Whether @node's class keeps it out of @t's index: @task (of @t) fails
 * the predicates on every node of the class. Asked once per class and
 * template; when memory for the verdicts runs out every node stays in (the
 * exact test still refuses the ones that fail).
 */
static bool class_out(struct vs_session *ssn, struct vs_fp_tmpl *t, const struct vs_task *task,
		      const struct vs_node *node)
{
	const struct vs_node_classes *nc = &ssn->cl->classes;
	u32 id = node->cls->id;

	if (t->class_gen != nc->gen) {
		if (t->verdict)
			memset(t->verdict, CLASS_UNKNOWN, t->cap_verdict);
		t->class_gen = nc->gen;
	}
	if (id >= t->cap_verdict) {
		u32 cap = nc->cap_ids > id ? nc->cap_ids : id + 1;
		u8 *v = realloc(t->verdict, cap);

		if (!v)
			return false;
		memset(v + t->cap_verdict, CLASS_UNKNOWN, cap - t->cap_verdict);
		t->verdict = v;
		t->cap_verdict = cap;
	}
	if (t->verdict[id] == CLASS_UNKNOWN)
		t->verdict[id] = vs_ssn_class_fails(ssn, task, node) ? CLASS_OUT : CLASS_IN;
	if (t->verdict[id] != CLASS_OUT)
		return false;
	ssn->sched->stats.class_out++;
	return true;
}

static void rescore(struct vs_session *ssn, struct vs_fp_tmpl *t, const struct vs_task *task,
		    struct vs_node *node)
{
	double score;

	if (!may_hold(t, node) || class_out(ssn, t, task, node)) {
		vs_nidx_remove(&t->ix, node);
		return;
	}
	vs_ssn_score_nodes_local(ssn, &t->score_task, &node, 1, &score);
	vs_nidx_set(&t->ix, node, score);
}

/* Build @t's index (every node, scored), making room by dropping the index unused longest. */
static int tmpl_build(struct vs_fastpath *fp, struct vs_session *ssn, struct vs_fp_tmpl *t,
		      const struct vs_task *task)
{
	struct vs_cluster *cl = ssn->cl;
	struct vs_node_log *log = &cl->touched;
	int ret;

	if (fp->nr_built >= fp->max_built)
		drop_lru(fp);
	/* The slots outlive the session; the session's nodes are a copy of them. */
	ret = vs_nidx_init(&t->ix, cl->node_slot, ssn->nr_nodes, fp->pos);
	if (ret)
		return ret;
	for (u32 i = 0; i < ssn->nr_nodes; i++) {
		struct vs_node *node = ssn->nodes[i];
		double score;

		if (!may_hold(t, node) || class_out(ssn, t, task, node))
			continue;
		vs_ssn_score_nodes_local(ssn, &t->score_task, &node, 1, &score);
		vs_nidx_put(&t->ix, node, score);
	}
	vs_nidx_fix_all(&t->ix);
	t->built = true;
	fp->nr_built++;
	/*
	 * The index knows every node as it is now: a node changed from now on
	 * must be logged again even if its last entry is still unread.
	 */
	t->seen = vs_node_log_end(log);
	vs_node_log_read(log, t->seen);
	return 0;
}

/* Re-score in @t's index every node logged since it last served: they may be back, or moved. */
static void tmpl_catch_up(struct vs_fastpath *fp, struct vs_session *ssn, struct vs_fp_tmpl *t,
			  const struct vs_task *task)
{
	struct vs_node_log *log = &ssn->cl->touched;
	u64 end = vs_node_log_end(log);
	const u32 *sidx;

	/* Nothing logged since: the log may not even have its array yet. */
	if (t->seen == end)
		return;
	sidx = log->sidx - log->base;	/* by position */
	if (!++fp->replay) {
		memset(fp->stamp, 0, fp->cap_stamp * sizeof(*fp->stamp));
		fp->replay = 1;
	}
	for (u64 p = t->seen; p < end; p++) {
		u32 s = sidx[p];

		/* The leaves are far apart: have the next ones on their way. */
		if (p + NIDX_AHEAD < end)
			vs_nidx_prefetch(&t->ix, sidx[p + NIDX_AHEAD]);
		if (fp->stamp[s] == fp->replay)
			continue;
		fp->stamp[s] = fp->replay;
		rescore(ssn, t, task, ssn->nodes[s]);
	}
	t->seen = end;
	vs_node_log_read(log, end);
}

struct vs_nidx *vs_fastpath_index(struct vs_fastpath *fp, struct vs_session *ssn,
				  const struct vs_task *task)
{
	struct vs_fp_tmpl *t = fp->last && of_tmpl(fp->last, task) ? fp->last : NULL;

	for (u32 i = 0; !t && i < fp->nr_tmpls; i++)
		if (of_tmpl(fp->tmpls[i], task))
			t = fp->tmpls[i];
	if (!t) {
		if (fp->nr_tmpls == fp->cap_tmpls) {
			u32 cap = fp->cap_tmpls ? 2 * fp->cap_tmpls : 8;
			struct vs_fp_tmpl **tmpls = realloc(fp->tmpls, cap * sizeof(*tmpls));

			if (!tmpls)
				return NULL;
			fp->tmpls = tmpls;
			fp->cap_tmpls = cap;
		}
		t = tmpl_new(task);
		if (!t)
			return NULL;
		fp->tmpls[fp->nr_tmpls++] = t;
	}
	/*
	 * The images a template's scores read are the task's: interned, and
	 * held by the task for as long as this call scores (the strings of
	 * the template only tell whether a task is of it).
	 */
	t->score_ext.images = (struct vs_task_images *)vs_task_images(task);
	t->score_task.ext = t->score_ext.images ? &t->score_ext : NULL;
	if (!t->built && tmpl_build(fp, ssn, t, task)) {
		t->score_task.ext = NULL;
		return NULL;
	}
	tmpl_catch_up(fp, ssn, t, task);
	t->score_task.ext = NULL;
	t->score_ext.images = NULL;
	t->used = ++fp->clock;
	t->cycle = ssn->cycle;
	fp->last = t;
	return &t->ix;
}

void vs_fastpath_end(struct vs_fastpath *fp, struct vs_session *ssn)
{
	struct vs_node_log *log = &ssn->cl->touched;
	u64 min = vs_node_log_end(log);

	for (u32 i = 0; i < fp->nr_tmpls; i++)
		if (fp->tmpls[i]->built && fp->tmpls[i]->seen < min)
			min = fp->tmpls[i]->seen;
	vs_node_log_trim(log, min);
}
