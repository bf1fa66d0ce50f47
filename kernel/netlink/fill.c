// SPDX-License-Identifier: Apache-2.0
/*
 * Objects as attributes: see fill.h.
 *
 * Every helper below either appends what it was asked to or fails, and the
 * public functions cancel the object's whole nest on the first failure, so
 * a message never ends in half an object.
 */
#include <libmnl/libmnl.h>
#include <math.h>

#include "netlink/fill.h"
#include "netlink/msg.h"
#include "vsched/vsched.h"

/* The fill state of one message: its header and its buffer's size. */
struct fill {
	struct nlmsghdr *nlh;
	size_t cap;
	bool ok;		/* false after the first attribute that did not fit */
	bool spec;		/* only what a NEW request takes: no read-only attributes */
	const struct vs_res_dims *dims;	/* what the scalars' indices mean */
};

static struct nlattr *nest_start(struct fill *f, u16 type)
{
	struct nlattr *nest = f->ok ? mnl_attr_nest_start_check(f->nlh, f->cap, type) : NULL;

	if (!nest)
		f->ok = false;
	return nest;
}

static void nest_end(struct fill *f, struct nlattr *nest)
{
	if (f->ok)
		mnl_attr_nest_end(f->nlh, nest);
}

static void put_u8(struct fill *f, u16 type, u8 v)
{
	if (f->ok && !vs_nla_put_u8(f->nlh, f->cap, type, v))
		f->ok = false;
}

static void put_u32(struct fill *f, u16 type, u32 v)
{
	if (f->ok && !mnl_attr_put_u32_check(f->nlh, f->cap, type, v))
		f->ok = false;
}

static void put_flag(struct fill *f, u16 type)
{
	if (f->ok && !mnl_attr_put_check(f->nlh, f->cap, type, 0, NULL))
		f->ok = false;
}

static void put_s32(struct fill *f, u16 type, s32 v)
{
	put_u32(f, type, (u32)v);
}

static void put_u64(struct fill *f, u16 type, u64 v)
{
	if (f->ok && !mnl_attr_put_u64_check(f->nlh, f->cap, type, v))
		f->ok = false;
}

static void put_str(struct fill *f, u16 type, const char *s)
{
	if (f->ok && !vs_nla_put_strz(f->nlh, f->cap, type, s))
		f->ok = false;
}

/* Close the object's nest, or take it all back; the result of the fill. */
static bool finish(struct fill *f, struct nlattr *obj)
{
	if (!obj)
		return false;
	if (!f->ok) {
		mnl_attr_nest_cancel(f->nlh, obj);
		return false;
	}
	mnl_attr_nest_end(f->nlh, obj);
	return true;
}

/* ---- shared sets ---- */

static void fill_res(struct fill *f, u16 type, const struct vs_res *r)
{
	struct nlattr *nest = nest_start(f, type);

	put_u64(f, VS_RES_A_CPU, (u64)r->v[VS_RES_CPU]);
	put_u64(f, VS_RES_A_MEMORY, (u64)r->v[VS_RES_MEMORY]);
	if (r->present & VS_RES_BIT(VS_RES_PODS))
		put_u64(f, VS_RES_A_PODS, (u64)r->v[VS_RES_PODS]);
	for (unsigned int d = VS_RES_PODS + 1; d < VS_RES_MAX; d++) {
		struct nlattr *s;

		if (!(r->present & VS_RES_BIT(d)))
			continue;
		s = nest_start(f, VS_RES_A_SCALAR);
		put_str(f, VS_SCALAR_A_NAME, vs_res_dim_name(f->dims, d));
		put_u64(f, VS_SCALAR_A_VALUE, (u64)r->v[d]);
		nest_end(f, s);
	}
	nest_end(f, nest);
}

static void fill_labels(struct fill *f, u16 type, const struct vs_labels *l)
{
	struct nlattr *nest;

	if (!l)
		return;
	nest = nest_start(f, type);
	for (u32 i = 0; i < l->nr; i++) {
		struct nlattr *kv = nest_start(f, VS_LABELS_A_ITEM);

		put_str(f, VS_KV_A_KEY, l->kv[i].key);
		put_str(f, VS_KV_A_VALUE, l->kv[i].value);
		nest_end(f, kv);
	}
	nest_end(f, nest);
}

static void fill_taints(struct fill *f, u16 type, const struct vs_taints *t)
{
	for (u32 i = 0; t && i < t->nr; i++) {
		struct nlattr *nest = nest_start(f, type);

		put_str(f, VS_TAINT_A_KEY, t->t[i].key);
		put_str(f, VS_TAINT_A_VALUE, t->t[i].value);
		put_u32(f, VS_TAINT_A_EFFECT, t->t[i].effect);
		nest_end(f, nest);
	}
}

static void fill_tolerations(struct fill *f, u16 type, const struct vs_tolerations *t)
{
	for (u32 i = 0; t && i < t->nr; i++) {
		const struct vs_toleration *tol = &t->t[i];
		struct nlattr *nest = nest_start(f, type);

		if (*tol->key)
			put_str(f, VS_TOL_A_KEY, tol->key);
		put_u32(f, VS_TOL_A_OPERATOR, tol->op);
		if (*tol->value)
			put_str(f, VS_TOL_A_VALUE, tol->value);
		put_u32(f, VS_TOL_A_EFFECT, tol->effect);
		if (tol->has_seconds)
			put_u64(f, VS_TOL_A_SECONDS, (u64)tol->seconds);
		nest_end(f, nest);
	}
}

static void fill_host_ports(struct fill *f, u16 type, const struct vs_host_ports *ports)
{
	for (u32 i = 0; ports && i < ports->nr; i++) {
		const struct vs_host_port *hp = &ports->p[i];
		struct nlattr *nest = nest_start(f, type);

		put_u32(f, VS_HPORT_A_PORT, hp->port);
		put_u32(f, VS_HPORT_A_PROTOCOL, hp->protocol);
		if (hp->ip)
			put_str(f, VS_HPORT_A_IP, hp->ip);
		nest_end(f, nest);
	}
}

static void fill_images(struct fill *f, u16 type, const struct vs_task_images *im)
{
	for (u32 i = 0; im && i < im->nr; i++)
		put_str(f, type, im->name[i]);
}

/* ---- affinity ---- */

static void fill_selreqs(struct fill *f, u16 type, const struct vs_sel_req *r, u32 nr)
{
	for (u32 i = 0; i < nr; i++) {
		struct nlattr *nest = nest_start(f, type);

		put_str(f, VS_SELREQ_A_KEY, r[i].key);
		put_u32(f, VS_SELREQ_A_OP, r[i].op);
		for (u32 v = 0; v < r[i].nr_values; v++)
			put_str(f, VS_SELREQ_A_VALUE, r[i].values[v]);
		nest_end(f, nest);
	}
}

static void fill_nsterm(struct fill *f, u16 type, const struct vs_node_selector_term *t,
			bool weighted, s32 weight)
{
	struct nlattr *nest = nest_start(f, type);

	fill_selreqs(f, VS_NSTERM_A_EXPR, t->exprs, t->nr_exprs);
	fill_selreqs(f, VS_NSTERM_A_FIELD, t->fields, t->nr_fields);
	if (weighted)
		put_s32(f, VS_NSTERM_A_WEIGHT, weight);
	nest_end(f, nest);
}

static void fill_lsel(struct fill *f, u16 type, const struct vs_label_selector *s)
{
	struct nlattr *nest = nest_start(f, type);

	fill_labels(f, VS_LSEL_A_MATCH_LABELS, s->match_labels);
	fill_selreqs(f, VS_LSEL_A_EXPR, s->exprs, s->nr_exprs);
	nest_end(f, nest);
}

static void fill_spreads(struct fill *f, u16 type, const struct vs_spread_constraints *sc)
{
	for (u32 i = 0; sc && i < sc->nr; i++) {
		const struct vs_spread_constraint *c = &sc->c[i];
		struct nlattr *nest = nest_start(f, type);

		put_s32(f, VS_SPREAD_A_MAX_SKEW, c->max_skew);
		put_str(f, VS_SPREAD_A_TOPOLOGY_KEY, c->topology_key);
		put_u32(f, VS_SPREAD_A_WHEN, c->when == VS_SPREAD_SCHEDULE_ANYWAY ?
			VS_SPREAD_ACTION_SCHEDULE_ANYWAY : VS_SPREAD_ACTION_DO_NOT_SCHEDULE);
		if (c->selector)
			fill_lsel(f, VS_SPREAD_A_SELECTOR, c->selector);
		if (c->min_domains)
			put_s32(f, VS_SPREAD_A_MIN_DOMAINS, c->min_domains);
		/* the core's unset 0, Honor 1, Ignore 2; the uapi's Honor 0, Ignore 1 */
		if (c->node_affinity_policy)
			put_u32(f, VS_SPREAD_A_NODE_AFFINITY_POLICY, c->node_affinity_policy - 1u);
		if (c->node_taints_policy)
			put_u32(f, VS_SPREAD_A_NODE_TAINTS_POLICY, c->node_taints_policy - 1u);
		for (u32 k = 0; k < c->nr_match_label_keys; k++)
			put_str(f, VS_SPREAD_A_MATCH_LABEL_KEY, c->match_label_keys[k]);
		nest_end(f, nest);
	}
}

static void fill_podterm(struct fill *f, u16 type, const struct vs_pod_affinity_term *t,
			 bool weighted, s32 weight)
{
	struct nlattr *nest = nest_start(f, type);

	if (t->selector)
		fill_lsel(f, VS_PODTERM_A_SELECTOR, t->selector);
	for (u32 i = 0; i < t->nr_namespaces; i++)
		put_str(f, VS_PODTERM_A_NAMESPACE, t->namespaces[i]);
	if (t->all_namespaces)
		nest_end(f, nest_start(f, VS_PODTERM_A_NS_SELECTOR));	/* {}: every namespace */
	put_str(f, VS_PODTERM_A_TOPOLOGY_KEY, t->topology_key);
	if (weighted)
		put_s32(f, VS_PODTERM_A_WEIGHT, weight);
	nest_end(f, nest);
}

static void fill_pod_affinity(struct fill *f, u16 req_type, u16 pref_type,
			      const struct vs_pod_affinity *pa)
{
	for (u32 i = 0; pa && i < pa->nr_required; i++)
		fill_podterm(f, req_type, &pa->required[i], false, 0);
	for (u32 i = 0; pa && i < pa->nr_preferred; i++)
		fill_podterm(f, pref_type, &pa->preferred[i].term, true, pa->preferred[i].weight);
}

static void fill_affinity(struct fill *f, u16 type, const struct vs_affinity *a)
{
	const struct vs_node_affinity *na;
	struct nlattr *nest;

	if (!a)
		return;
	nest = nest_start(f, type);
	na = a->node_affinity;
	for (u32 i = 0; na && i < na->nr_required; i++)
		fill_nsterm(f, VS_AFF_A_NODE_REQUIRED, &na->required[i], false, 0);
	for (u32 i = 0; na && i < na->nr_preferred; i++)
		fill_nsterm(f, VS_AFF_A_NODE_PREFERRED, &na->preferred[i].preference, true,
			    na->preferred[i].weight);
	fill_pod_affinity(f, VS_AFF_A_POD_REQUIRED, VS_AFF_A_POD_PREFERRED, a->pod_affinity);
	fill_pod_affinity(f, VS_AFF_A_ANTI_REQUIRED, VS_AFF_A_ANTI_PREFERRED,
			  a->pod_anti_affinity);
	nest_end(f, nest);
}

/* ---- objects ---- */

bool vs_nl_put_res(struct nlmsghdr *nlh, size_t cap, const struct vs_res_dims *dims, u16 type,
		   const struct vs_res *r)
{
	struct fill f = { nlh, cap, true, false, dims };
	struct nlattr *start = mnl_nlmsg_get_payload_tail(nlh);

	fill_res(&f, type, r);
	if (!f.ok)
		mnl_attr_nest_cancel(nlh, start);	/* back to where it began */
	return f.ok;
}

static bool put_node(struct nlmsghdr *nlh, size_t cap, const struct vs_node *n, bool spec)
{
	struct fill f = { nlh, cap, true, spec, n->dims };
	struct nlattr *obj = nest_start(&f, VS_A_NODE);

	put_str(&f, VS_NODE_A_NAME, n->name);
	fill_res(&f, VS_NODE_A_ALLOCATABLE, &n->allocatable);
	fill_labels(&f, VS_NODE_A_LABELS, n->labels);
	fill_taints(&f, VS_NODE_A_TAINT, n->taints);
	for (u32 i = 0; n->images && i < n->images->nr; i++) {
		struct nlattr *img = nest_start(&f, VS_NODE_A_IMAGE);

		put_str(&f, VS_NIMG_A_NAME, n->images->v[i].name);
		put_u64(&f, VS_NIMG_A_SIZE, (u64)n->images->v[i].size);
		nest_end(&f, img);
	}
	put_u8(&f, VS_NODE_A_UNSCHEDULABLE, n->unschedulable);
	put_u8(&f, VS_NODE_A_READY, n->ready);
	if (f.spec)
		return finish(&f, obj);
	fill_res(&f, VS_NODE_A_IDLE, &n->idle);
	fill_res(&f, VS_NODE_A_USED, &n->used);
	fill_res(&f, VS_NODE_A_RELEASING, &n->releasing);
	fill_res(&f, VS_NODE_A_PIPELINED, &n->pipelined);
	put_u32(&f, VS_NODE_A_NR_TASKS, n->nr_tasks);
	return finish(&f, obj);
}

bool vs_nl_put_node(struct nlmsghdr *nlh, size_t cap, const struct vs_node *n)
{
	return put_node(nlh, cap, n, false);
}

bool vs_nl_put_node_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_node *n)
{
	return put_node(nlh, cap, n, true);
}

static bool put_queue(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *q, bool spec)
{
	struct fill f = { nlh, cap, true, spec, q->dims };
	struct nlattr *obj = nest_start(&f, VS_A_QUEUE), *counts;

	put_str(&f, VS_QUEUE_A_NAME, q->name);
	put_u32(&f, VS_QUEUE_A_WEIGHT, q->weight);
	if (q->has_capability)
		fill_res(&f, VS_QUEUE_A_CAPABILITY, &q->capability);
	fill_res(&f, VS_QUEUE_A_GUARANTEE, &q->guarantee);
	if (q->has_deserved)
		fill_res(&f, VS_QUEUE_A_DESERVED, &q->deserved);
	put_u8(&f, VS_QUEUE_A_RECLAIMABLE, q->reclaimable);
	put_s32(&f, VS_QUEUE_A_PRIORITY, q->priority);
	put_u32(&f, VS_QUEUE_A_STATE, q->state);
	if (q->parent)
		put_str(&f, VS_QUEUE_A_PARENT, q->parent);
	if (q->created)
		put_u64(&f, VS_QUEUE_A_CREATED, q->created);
	if (f.spec)
		return finish(&f, obj);
	fill_res(&f, VS_QUEUE_A_ALLOCATED, &q->allocated);
	fill_res(&f, VS_QUEUE_A_REQUEST, &q->request);
	counts = nest_start(&f, VS_QUEUE_A_NR_PODGROUPS);
	for (unsigned int p = 0; p < VS_PG_NR_PHASES; p++)
		put_u32(&f, (u16)(p + 1), q->nr_jobs_by_phase[p]);
	nest_end(&f, counts);
	if (q->seen.cycle) {
		struct vs_res deserved;
		double ppm = q->seen.share * 1e6;

		vs_fres_to_res(&deserved, &q->seen.deserved);
		fill_res(&f, VS_QUEUE_A_CYCLE_DESERVED, &deserved);
		put_u64(&f, VS_QUEUE_A_SHARE, ppm >= 0x1p63 ? INT64_MAX : (u64)llround(ppm));
		put_u8(&f, VS_QUEUE_A_OVERUSED, q->seen.overused);
	}
	return finish(&f, obj);
}

bool vs_nl_put_queue_allocated(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *q,
			       const struct vs_res *allocated)
{
	struct fill f = { nlh, cap, true, false, q->dims };
	struct nlattr *obj = nest_start(&f, VS_A_QUEUE);

	put_str(&f, VS_QUEUE_A_NAME, q->name);
	fill_res(&f, VS_QUEUE_A_ALLOCATED, allocated);
	return finish(&f, obj);
}

bool vs_nl_put_queue(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *q)
{
	return put_queue(nlh, cap, q, false);
}

bool vs_nl_put_queue_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_queue *q)
{
	return put_queue(nlh, cap, q, true);
}

/*
 * A PodGroup's conditions. The spec form has them too, without the cycle
 * that set them (read-only): what a message gives, the core takes as given.
 */
static void fill_pg_conditions(struct fill *f, const struct vs_job *j)
{
	for (unsigned int t = 0; t < VS_PG_COND_NR; t++) {
		const struct vs_pg_condition *c = &j->cond[t];
		struct nlattr *cn;

		if (!c->set)
			continue;
		cn = nest_start(f, VS_PG_A_CONDITION);
		put_u32(f, VS_COND_A_TYPE, t);
		put_u8(f, VS_COND_A_STATUS, c->status);
		put_str(f, VS_COND_A_REASON, vs_pg_cond_reason(c));
		put_str(f, VS_COND_A_MESSAGE, vs_pg_cond_message(c));
		if (!f->spec)
			put_u64(f, VS_COND_A_TRANSITION, c->transition);
		if (c->given) {
			put_str(f, VS_COND_A_TRANSITION_ID, vs_pg_cond_transition_id(c));
			if (c->time)
				put_u64(f, VS_COND_A_TIME, c->time);
		}
		nest_end(f, cn);
	}
}

/* What Volcano's job updater keeps of a PodGroup's status: its conditions and task counts. */
static void fill_pg_status(struct fill *f, const struct vs_job *j)
{
	struct nlattr *counts;

	fill_pg_conditions(f, j);
	counts = nest_start(f, VS_PG_A_NR_TASKS);
	for (unsigned int s = 0; s < VS_TASK_NR_STATUS; s++)
		put_u32(f, (u16)(s + 1), j->nr_by_status[s]);
	nest_end(f, counts);
}

/* A networkTopology, when there is one. */
static void fill_net_topology(struct fill *f, u16 type, const struct vs_net_topology *nt)
{
	struct nlattr *nest;

	if (!nt->set)
		return;
	nest = nest_start(f, type);
	put_u32(f, VS_NT_A_MODE, nt->mode);
	if (nt->has_highest_tier)
		put_u32(f, VS_NT_A_HIGHEST_TIER, (u32)nt->highest_tier);
	if (nt->highest_tier_name)
		put_str(f, VS_NT_A_HIGHEST_TIER_NAME, nt->highest_tier_name);
	nest_end(f, nest);
}

static void fill_subgroups(struct fill *f, const struct vs_job *j)
{
	for (u32 i = 0; i < j->nr_subgroups; i++) {
		const struct vs_subgroup_policy *sg = &j->subgroups[i];
		struct nlattr *nest = nest_start(f, VS_PG_A_SUBGROUP_POLICY);

		if (*sg->name)
			put_str(f, VS_SGP_A_NAME, sg->name);
		fill_net_topology(f, VS_SGP_A_NETWORK_TOPOLOGY, &sg->nt);
		put_u32(f, VS_SGP_A_SUBGROUP_SIZE, sg->sub_group_size);
		put_u32(f, VS_SGP_A_MIN_SUBGROUPS, sg->min_sub_groups);
		if (sg->selector)
			fill_lsel(f, VS_SGP_A_LABEL_SELECTOR, sg->selector);
		for (u32 k = 0; k < sg->nr_match_label_keys; k++)
			put_str(f, VS_SGP_A_MATCH_LABEL_KEY, sg->match_label_keys[k]);
		nest_end(f, nest);
	}
}

static bool put_podgroup(struct nlmsghdr *nlh, size_t cap, const struct vs_job *j, bool spec)
{
	struct fill f = { nlh, cap, true, spec, j->dims };
	struct nlattr *obj = nest_start(&f, VS_A_PODGROUP);

	put_str(&f, VS_PG_A_NAMESPACE, j->ns);
	put_str(&f, VS_PG_A_NAME, j->name);
	put_str(&f, VS_PG_A_QUEUE, j->queue_name);
	put_u32(&f, VS_PG_A_MIN_MEMBER, j->min_member);
	for (u32 i = 0; i < j->nr_min_task_member; i++) {
		struct nlattr *rm = nest_start(&f, VS_PG_A_MIN_TASK_MEMBER);

		put_str(&f, VS_ROLE_MIN_A_ROLE, j->min_task_member[i].role);
		put_u32(&f, VS_ROLE_MIN_A_MIN, j->min_task_member[i].min);
		nest_end(&f, rm);
	}
	if (j->has_min_resources)
		fill_res(&f, VS_PG_A_MIN_RESOURCES, &j->min_resources);
	if (j->priority_class)
		put_str(&f, VS_PG_A_PRIORITY_CLASS, j->priority_class);
	put_u32(&f, VS_PG_A_PHASE, j->phase);
	if (j->created)
		put_u64(&f, VS_PG_A_CREATED, j->created);
	if (j->preemptable != VS_PG_PREEMPTABLE_UNSET)
		put_u8(&f, VS_PG_A_PREEMPTABLE, j->preemptable == VS_PG_PREEMPTABLE_TRUE);
	fill_net_topology(&f, VS_PG_A_NETWORK_TOPOLOGY, &j->net_topology);
	fill_subgroups(&f, j);
	if (f.spec) {
		fill_pg_conditions(&f, j);
		return finish(&f, obj);
	}
	fill_pg_status(&f, j);
	fill_res(&f, VS_PG_A_ALLOCATED, &j->allocated);
	return finish(&f, obj);
}

bool vs_nl_put_podgroup_status(struct nlmsghdr *nlh, size_t cap, const struct vs_job *j,
			       const char *fit_error)
{
	struct fill f = { nlh, cap, true, false, j->dims };
	struct nlattr *obj = nest_start(&f, VS_A_PODGROUP);

	put_str(&f, VS_PG_A_NAMESPACE, j->ns);
	put_str(&f, VS_PG_A_NAME, j->name);
	put_u32(&f, VS_PG_A_PHASE, j->phase);
	fill_pg_status(&f, j);
	if (fit_error)
		put_str(&f, VS_PG_A_FIT_ERROR, fit_error);
	return finish(&f, obj);
}

bool vs_nl_put_podgroup(struct nlmsghdr *nlh, size_t cap, const struct vs_job *j)
{
	return put_podgroup(nlh, cap, j, false);
}

bool vs_nl_put_podgroup_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_job *j)
{
	return put_podgroup(nlh, cap, j, true);
}

static bool put_task(struct nlmsghdr *nlh, size_t cap, const struct vs_task *t, bool spec)
{
	struct fill f = { nlh, cap, true, spec, t->job->dims };
	struct nlattr *obj = nest_start(&f, VS_A_TASK);
	struct vs_res req = *t->req;

	put_str(&f, VS_TASK_A_NAMESPACE, t->ns);
	put_str(&f, VS_TASK_A_NAME, t->name);
	put_str(&f, VS_TASK_A_PODGROUP, t->job->name);
	if (*t->role)
		put_str(&f, VS_TASK_A_ROLE, t->role);
	put_u32(&f, VS_TASK_A_STATUS, t->status);
	if (t->node)
		put_str(&f, VS_TASK_A_NODE, t->node->name);
	/*
	 * The request as it was given: the core counts the larger of the
	 * containers' and init containers' requests plus the pod itself;
	 * sending that back minus the pod makes NEW of a GET the same task.
	 */
	vs_res_set(&req, VS_RES_PODS, vs_res_get(&req, VS_RES_PODS) - 1);
	fill_res(&f, VS_TASK_A_REQUEST, &req);
	put_s32(&f, VS_TASK_A_PRIORITY, t->priority);
	if (t->created)
		put_u64(&f, VS_TASK_A_CREATED, t->created);
	if (t->priority_class)
		put_str(&f, VS_TASK_A_PRIORITY_CLASS, t->priority_class);
	if (t->owner_uid)
		put_str(&f, VS_TASK_A_OWNER_UID, t->owner_uid);
	put_u8(&f, VS_TASK_A_PREEMPTABLE, t->preemptable);
	put_u32(&f, VS_TASK_A_PREEMPTION_POLICY, t->preemption_policy);
	fill_labels(&f, VS_TASK_A_LABELS, t->labels);
	fill_labels(&f, VS_TASK_A_NODE_SELECTOR, t->node_selector);
	fill_tolerations(&f, VS_TASK_A_TOLERATION, t->tolerations);
	fill_affinity(&f, VS_TASK_A_AFFINITY, t->affinity);
	fill_host_ports(&f, VS_TASK_A_HOST_PORT, vs_task_ports(t));
	if (t->gated)
		put_flag(&f, VS_TASK_A_GATED);
	fill_images(&f, VS_TASK_A_IMAGE, vs_task_images(t));
	fill_spreads(&f, VS_TASK_A_SPREAD, vs_task_spread(t));
	if (vs_task_nominated(t))
		put_str(&f, VS_TASK_A_NOMINATED_NODE, vs_task_nominated(t));
	/* What the bind pipeline keeps (read-only): not part of a NEW. */
	if (!spec && vs_task_bind_failures(t))
		put_u32(&f, VS_TASK_A_BIND_FAILURES, vs_task_bind_failures(t));
	if (!spec && vs_task_bind_error(t))
		put_str(&f, VS_TASK_A_BIND_ERROR, vs_task_bind_error(t));
	return finish(&f, obj);
}

bool vs_nl_put_task_sched(struct nlmsghdr *nlh, size_t cap, const struct vs_task *t,
			  const char *reason, const char *message)
{
	struct fill f = { nlh, cap, true, false, t->job->dims };
	struct nlattr *obj = nest_start(&f, VS_A_TASK);

	put_str(&f, VS_TASK_A_NAMESPACE, t->ns);
	put_str(&f, VS_TASK_A_NAME, t->name);
	put_str(&f, VS_TASK_A_SCHED_REASON, reason);
	put_str(&f, VS_TASK_A_SCHED_MESSAGE, message);
	if (vs_task_nominated(t))
		put_str(&f, VS_TASK_A_NOMINATED_NODE, vs_task_nominated(t));
	return finish(&f, obj);
}

bool vs_nl_put_task(struct nlmsghdr *nlh, size_t cap, const struct vs_task *t)
{
	return put_task(nlh, cap, t, false);
}

bool vs_nl_put_task_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_task *t)
{
	return put_task(nlh, cap, t, true);
}

static bool put_prioclass(struct nlmsghdr *nlh, size_t cap, const struct vs_prioclass *pc, bool spec)
{
	struct fill f = { nlh, cap, true, spec, NULL };	/* no resources */
	struct nlattr *obj = nest_start(&f, VS_A_PRIOCLASS);

	put_str(&f, VS_PC_A_NAME, pc->name);
	put_s32(&f, VS_PC_A_VALUE, pc->value);
	put_u8(&f, VS_PC_A_GLOBAL_DEFAULT, pc->global_default);
	put_u32(&f, VS_PC_A_PREEMPTION_POLICY, pc->preemption_policy);
	return finish(&f, obj);
}

bool vs_nl_put_prioclass(struct nlmsghdr *nlh, size_t cap, const struct vs_prioclass *pc)
{
	return put_prioclass(nlh, cap, pc, false);
}

bool vs_nl_put_prioclass_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_prioclass *pc)
{
	return put_prioclass(nlh, cap, pc, true);
}

/* A member's selector: a matchLabels nest even when empty, for it is the selector. */
static void fill_hn_member(struct fill *f, const struct vs_hn_member *m)
{
	struct nlattr *nest = nest_start(f, VS_HN_A_MEMBER), *labels;

	put_u32(f, VS_HN_MEMBER_A_TYPE, m->type);
	switch (m->sel) {
	case VS_HN_EXACT:
		put_str(f, VS_HN_MEMBER_A_EXACT_NAME, m->name);
		break;
	case VS_HN_REGEX:
		put_str(f, VS_HN_MEMBER_A_REGEX_PATTERN, m->name);
		break;
	case VS_HN_LABEL:
		labels = nest_start(f, VS_HN_MEMBER_A_MATCH_LABELS);
		for (u32 i = 0; m->labels && i < m->labels->nr; i++) {
			struct nlattr *kv = nest_start(f, VS_LABELS_A_ITEM);

			put_str(f, VS_KV_A_KEY, m->labels->kv[i].key);
			put_str(f, VS_KV_A_VALUE, m->labels->kv[i].value);
			nest_end(f, kv);
		}
		nest_end(f, labels);
		break;
	}
	nest_end(f, nest);
}

static bool put_hypernode(struct nlmsghdr *nlh, size_t cap, const struct vs_hypernode *hn,
			  bool spec)
{
	struct fill f = { nlh, cap, true, spec, NULL };	/* no resources */
	struct nlattr *obj = nest_start(&f, VS_A_HYPERNODE);

	put_str(&f, VS_HN_A_NAME, hn->name);
	put_u32(&f, VS_HN_A_TIER, (u32)hn->tier);
	if (hn->tier_name)
		put_str(&f, VS_HN_A_TIER_NAME, hn->tier_name);
	for (u32 i = 0; i < hn->nr_members; i++)
		fill_hn_member(&f, &hn->members[i]);
	if (hn->labels)
		fill_labels(&f, VS_HN_A_LABELS, hn->labels);
	if (f.spec)
		return finish(&f, obj);
	if (hn->parent)
		put_str(&f, VS_HN_A_PARENT, hn->parent->name);
	put_u32(&f, VS_HN_A_NR_CHILDREN, hn->nr_children);
	put_u32(&f, VS_HN_A_NR_NODES, hn->nr_leaves);
	return finish(&f, obj);
}

bool vs_nl_put_hypernode(struct nlmsghdr *nlh, size_t cap, const struct vs_hypernode *hn)
{
	return put_hypernode(nlh, cap, hn, false);
}

bool vs_nl_put_hypernode_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_hypernode *hn)
{
	return put_hypernode(nlh, cap, hn, true);
}

static void fill_policies(struct fill *f, u16 type, const struct vs_vjob_policy *p, u32 nr)
{
	for (u32 i = 0; i < nr; i++) {
		struct nlattr *nest = nest_start(f, type);

		if (p[i].has_exit_code)
			put_s32(f, VS_POLICY_A_EXIT_CODE, p[i].exit_code);
		else
			put_str(f, VS_POLICY_A_EVENT, vs_vjob_event_name(p[i].event));
		put_str(f, VS_POLICY_A_ACTION, vs_vjob_action_name(p[i].action));
		nest_end(f, nest);
	}
}

/* The replicas of @vt a kill kept with status @which, as repeated u32 @type. */
static void fill_kept_of(struct fill *f, u16 type, const struct vs_vjob_task *vt, u8 which)
{
	for (u32 i = 0; i < vt->replicas; i++)
		if (vt->kept[i] == which)
			put_u32(f, type, i);
}

/* What the job controller keeps beyond the spec, for a checkpoint (VS_VJOB_A_STATE). */
static void fill_vjob_state(struct fill *f, const struct vs_vjob *v)
{
	struct nlattr *st = nest_start(f, VS_VJOB_A_STATE);

	put_u32(f, VS_VJSTATE_A_PHASE, v->phase);
	put_u32(f, VS_VJSTATE_A_RETRY_COUNT, v->retry_count);
	put_u32(f, VS_VJSTATE_A_VERSION, v->status.version);
	put_u32(f, VS_VJSTATE_A_MIN_AVAILABLE, v->status.min_available);
	put_u32(f, VS_VJSTATE_A_PENDING, v->status.pending);
	put_u32(f, VS_VJSTATE_A_RUNNING, v->status.running);
	put_u32(f, VS_VJSTATE_A_SUCCEEDED, v->status.succeeded);
	put_u32(f, VS_VJSTATE_A_FAILED, v->status.failed);
	put_u32(f, VS_VJSTATE_A_TERMINATING, v->status.terminating);
	put_u32(f, VS_VJSTATE_A_UNKNOWN, v->status.unknown);
	if (v->podgroup)
		put_flag(f, VS_VJSTATE_A_PODGROUP);
	for (u32 t = 0; t < v->nr_tasks; t++) {
		const struct vs_vjob_task *vt = &v->tasks[t];
		struct nlattr *k;

		if (!vt->kept)
			continue;
		k = nest_start(f, VS_VJSTATE_A_KEPT);
		put_str(f, VS_KEPT_A_TASK, vt->name);
		fill_kept_of(f, VS_KEPT_A_SUCCEEDED, vt, VS_VJOB_KEPT_SUCCEEDED);
		fill_kept_of(f, VS_KEPT_A_FAILED, vt, VS_VJOB_KEPT_FAILED);
		nest_end(f, k);
	}
	nest_end(f, st);
}

static void fill_partition(struct fill *f, const struct vs_vjob_partition *p)
{
	struct nlattr *nest = nest_start(f, VS_VTASK_A_PARTITION_POLICY);

	put_u32(f, VS_PART_A_TOTAL_PARTITIONS, p->total);
	put_u32(f, VS_PART_A_PARTITION_SIZE, p->size);
	put_u32(f, VS_PART_A_MIN_PARTITIONS, p->min);
	fill_net_topology(f, VS_PART_A_NETWORK_TOPOLOGY, &p->nt);
	nest_end(f, nest);
}

static bool put_vjob(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *v, bool spec,
		     bool state)
{
	struct fill f = { nlh, cap, true, spec, v->dims };
	struct nlattr *obj = nest_start(&f, VS_A_VJOB);

	put_str(&f, VS_VJOB_A_NAMESPACE, v->ns);
	put_str(&f, VS_VJOB_A_NAME, v->name);
	put_str(&f, VS_VJOB_A_QUEUE, v->queue_name);
	if (v->priority_class)
		put_str(&f, VS_VJOB_A_PRIORITY_CLASS, v->priority_class);
	put_u32(&f, VS_VJOB_A_MIN_AVAILABLE, v->min_available);
	put_u32(&f, VS_VJOB_A_MAX_RETRY, v->max_retry);
	for (u32 i = 0; i < v->nr_tasks; i++) {
		const struct vs_vjob_task *vt = &v->tasks[i];
		struct nlattr *nest = nest_start(&f, VS_VJOB_A_TASK);

		put_str(&f, VS_VTASK_A_NAME, vt->name);
		put_u32(&f, VS_VTASK_A_REPLICAS, vt->replicas);
		put_u32(&f, VS_VTASK_A_MIN_AVAILABLE, vt->min_available);
		fill_res(&f, VS_VTASK_A_REQUEST, &vt->req);
		fill_labels(&f, VS_VTASK_A_LABELS, vt->labels);
		fill_labels(&f, VS_VTASK_A_NODE_SELECTOR, vt->node_selector);
		fill_tolerations(&f, VS_VTASK_A_TOLERATION, vt->tolerations);
		fill_host_ports(&f, VS_VTASK_A_HOST_PORT, vt->ports);
		fill_images(&f, VS_VTASK_A_IMAGE, vt->images);
		fill_spreads(&f, VS_VTASK_A_SPREAD, vt->spread);
		fill_policies(&f, VS_VTASK_A_POLICY, vt->policies, vt->nr_policies);
		if (vt->has_partition)
			fill_partition(&f, &vt->partition);
		nest_end(&f, nest);
	}
	fill_policies(&f, VS_VJOB_A_POLICY, v->policies, v->nr_policies);
	fill_net_topology(&f, VS_VJOB_A_NETWORK_TOPOLOGY, &v->net_topology);
	if (!f.spec) {
		put_u32(&f, VS_VJOB_A_PHASE, v->phase);
		put_u32(&f, VS_VJOB_A_RETRY_COUNT, v->retry_count);
	}
	if (state)
		fill_vjob_state(&f, v);
	return finish(&f, obj);
}

bool vs_nl_put_vjob(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *v)
{
	return put_vjob(nlh, cap, v, false, false);
}

bool vs_nl_put_vjob_spec(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *v)
{
	return put_vjob(nlh, cap, v, true, false);
}

bool vs_nl_put_vjob_checkpoint(struct nlmsghdr *nlh, size_t cap, const struct vs_vjob *v)
{
	return put_vjob(nlh, cap, v, true, true);
}
