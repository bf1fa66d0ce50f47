/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduling framework: plugins, actions and the extension points that
 * join them, with Volcano's rules for combining plugins across tiers.
 *
 * A plugin is a const struct vs_plugin_ops table (designated initialisers,
 * NULL for what it does not implement). Where Volcano's plugins call
 * ssn.AddXxxFn() in OnSessionOpen, a vsched plugin fills the op in its table
 * and may switch it off for one session from its open hook
 * (vs_plugin_disable()). At session open the framework builds, per extension
 * point, the list of plugin instances that implement it and whose enable
 * flag is on, in tier order, so that the hot loops (predicates and scores per
 * task and node) call through a flat array.
 *
 * How each extension point combines its plugins (Volcano's session_plugins.go):
 *   JobOrder, QueueOrder, TaskOrder, VictimQueueOrder: the first plugin, in
 *	tier order, that tells the two apart decides; else creation order
 *	(VictimQueueOrder: else the reverse of the queue order).
 *   JobReady, Allocatable, Preemptive, Predicate, PrePredicate: every plugin
 *	must agree (the first refusal wins).
 *   Overused: any plugin may say yes.
 *   JobPipelined, JobEnqueueable: votes (-1 reject, 0 abstain, +1 permit);
 *	a rejection anywhere wins; a tier with a permit and no rejection decides;
 *	if no tier decides, the answer is yes.
 *   JobStarving: the first tier with a plugin decides, all its plugins must
 *	agree; with none at all, no.
 *   JobValid: the first failing plugin's result; no flag gates it.
 *   Preemptable, Reclaimable: each plugin keeps a subset of the candidate
 *	victims or abstains; within a tier the victims are the intersection
 *	of the subsets, and the first tier that leaves some decides. A plugin
 *	that keeps none empties the tier's answer and the next tier starts
 *	afresh (Volcano's loop does exactly this).
 *   NodeOrder and BatchNodeOrder: the sum of every plugin's score
 *	(vs_ssn_score_nodes() adds both up over the candidate nodes).
 *   BestNode: the first plugin that picks a node.
 *   JobEnqueued and the allocate/deallocate event handlers: all are called.
 *   HyperNodeGradient: the first plugin that has one decides; with none,
 *	the search's root alone.
 *   HyperNodeOrder: the sum of every plugin's score.
 */
#ifndef VS_SCHED_FRAMEWORK_H
#define VS_SCHED_FRAMEWORK_H

#include "core/cluster.h"
#include "sched/conf.h"

struct vs_session;
struct vs_plugin;
struct vs_subjob;

/* Extension points, each gated by one of the plugin's enable flags. */
enum vs_ext {
	VS_EXT_JOB_ORDER,
	VS_EXT_QUEUE_ORDER,
	VS_EXT_TASK_ORDER,
	VS_EXT_VICTIM_QUEUE_ORDER,
	VS_EXT_JOB_VALID,
	VS_EXT_JOB_ENQUEUEABLE,
	VS_EXT_JOB_ENQUEUED,
	VS_EXT_JOB_READY,
	VS_EXT_JOB_PIPELINED,
	VS_EXT_JOB_STARVING,
	VS_EXT_OVERUSED,
	VS_EXT_ALLOCATABLE,
	VS_EXT_PREEMPTIVE,
	VS_EXT_PREEMPTABLE,
	VS_EXT_RECLAIMABLE,
	VS_EXT_PRE_PREDICATE,
	VS_EXT_PREDICATE,
	VS_EXT_NODE_ORDER,
	VS_EXT_BATCH_NODE_ORDER,
	VS_EXT_BEST_NODE,
	VS_EXT_EVENT_ALLOCATE,
	VS_EXT_EVENT_DEALLOCATE,
	VS_EXT_HN_GRADIENT,
	VS_EXT_HN_ORDER,
	VS_EXT_SUBJOB_READY,
	VS_EXT_SUBJOB_PIPELINED,
	VS_EXT_SUBJOB_ORDER,
	VS_EXT_UNIFIED_EVICTABLE,
	VS_EXT_NR
};

/* A vote, as Volcano's VoteFn returns it. */
enum vs_vote {
	VS_VOTE_REJECT = -1,
	VS_VOTE_ABSTAIN = 0,
	VS_VOTE_PERMIT = 1,
};

/* Why a job is not valid this cycle (Volcano's ValidateResult). */
struct vs_validate {
	const char *reason;		/* e.g. "NotEnoughPods" */
	char message[160];
};

/*
 * Why a predicate refused a node, in kube-scheduler's words ("Insufficient
 * cpu", "node(s) didn't match Pod's node affinity/selector"). @unresolvable
 * is true when no amount of preemption on that node could help
 * (UnschedulableAndUnresolvable). @elsewhere is true when what refused
 * reads the pods of other nodes or the task's own labels and pod terms
 * (InterPodAffinity, PodTopologySpread): the node may pass another task of
 * the same request, or this one later, without its own accounting changing.
 */
struct vs_fit_error {
	char reason[96];
	bool unresolvable;
	bool elsewhere;
};

/*
 * Set @fe's reason to @words followed by @name (NULL: nothing), cut to fit.
 * Predicates refuse nodes by the hundred thousand a cycle: this is what
 * they say it with, not snprintf, which costs ten times more.
 */
void vs_fit_say(struct vs_fit_error *fe, const char *words, const char *name);

/*
 * Who refused, and in what words, when a caller of an extension point asked
 * (ssn->why, sched/explain.h): the first plugin that refuses names itself;
 * one that has words for it gives them with vs_ssn_why().
 */
struct vs_why {
	const char *plugin;		/* NULL: nobody refused */
	bool quiet;			/* name the plugin only: its words are known */
	char text[256];			/* "" when the plugin said nothing */
};

/*
 * In a plugin, as it refuses a job, queue or task: say why, in the words
 * its log line uses, when the caller asked (nothing is formatted when it
 * did not, so a refusal costs no more than before).
 */
__printf(3, 4)
void vs_ssn_why(struct vs_session *ssn, const struct vs_plugin *p, const char *fmt, ...);

/* Whether a caller asked why and nobody has said yet: worth formatting the words. */
#define vs_ssn_wants_why(ssn)	unlikely((ssn)->why && !(ssn)->why->plugin && !(ssn)->why->quiet)

/* What a HyperNode search is for (Volcano's SearchPurpose). */
enum vs_hn_purpose {
	VS_HN_ALLOCATE,
	VS_HN_EVICT,
};

/*
 * A search for the HyperNodes a job (or one of its sub-jobs) may be placed
 * in, under @root (sched/topology.h indices): Volcano's arguments of
 * HyperNodeGradientForJobFn and HyperNodeOrderFn.
 */
struct vs_hn_search {
	struct vs_job *job;
	const struct vs_subjob *sj;	/* the sub-job; NULL: the job, or its only sub-job */
	u32 root;
	bool hard;			/* the (sub)job's mode, soft already made hard */
	s32 highest_tier;		/* highestTierAllowed, names already translated */
	u32 allocated;			/* its AllocatedHyperNode, or VS_TOPO_NONE */
	const struct vs_res *min_res;	/* what it needs at least */
	enum vs_hn_purpose purpose;
};

/*
 * HyperNodes in gradients: gradient g is hns[start[g] .. start[g + 1]),
 * tried in that order (arena memory).
 */
struct vs_hn_gradients {
	u32 *hns;
	u32 *start;			/* nr + 1 entries */
	u32 nr;
};

/* Which gang-aware eviction asks (Volcano's EvictionKind). */
enum vs_evict_kind {
	VS_EVICT_GANG_PREEMPT,
	VS_EVICT_GANG_RECLAIM,
};

/*
 * Who evicts, for UnifiedEvictableFn (Volcano's EvictionContext): the
 * starving @job, for victims within HyperNode @hn (sched/topology.h).
 */
struct vs_evict_ctx {
	enum vs_evict_kind kind;
	const struct vs_job *job;
	u32 hn;
};

/* One node and its score, as BestNode receives them. */
struct vs_node_score {
	struct vs_node *node;
	double score;
};

/*
 * The operations of a plugin. Every op receives the session and the plugin
 * instance (whose @priv is the state its open hook made for this session).
 */
struct vs_plugin_ops {
	const char *name;

	/*
	 * Refuse a bad configuration of this plugin (its "arguments", or a
	 * flag it cannot honour) when the configuration is loaded.
	 */
	int (*check_conf)(const struct vs_conf_plugin *cp, struct vs_err *err);

	/*
	 * OnSessionOpen: compute per-session state (from ssn's arena) into
	 * p->priv. A failure aborts the cycle.
	 */
	int (*open)(struct vs_session *ssn, struct vs_plugin *p);
	/* OnSessionClose. */
	void (*close)(struct vs_session *ssn, struct vs_plugin *p);

	int (*job_order)(struct vs_session *ssn, struct vs_plugin *p,
			 const struct vs_job *l, const struct vs_job *r);
	int (*queue_order)(struct vs_session *ssn, struct vs_plugin *p,
			   const struct vs_queue *l, const struct vs_queue *r);
	int (*task_order)(struct vs_session *ssn, struct vs_plugin *p,
			  const struct vs_task *l, const struct vs_task *r);
	int (*victim_queue_order)(struct vs_session *ssn, struct vs_plugin *p,
				  const struct vs_queue *l, const struct vs_queue *r,
				  const struct vs_queue *preemptor);
	/* false with @res filled: the job is not valid. */
	bool (*job_valid)(struct vs_session *ssn, struct vs_plugin *p,
			  const struct vs_job *job, struct vs_validate *res);
	enum vs_vote (*job_enqueueable)(struct vs_session *ssn, struct vs_plugin *p,
					const struct vs_job *job);
	void (*job_enqueued)(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_job *job);
	bool (*job_ready)(struct vs_session *ssn, struct vs_plugin *p,
			  const struct vs_job *job);
	enum vs_vote (*job_pipelined)(struct vs_session *ssn, struct vs_plugin *p,
				      const struct vs_job *job);
	bool (*job_starving)(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_job *job);
	bool (*overused)(struct vs_session *ssn, struct vs_plugin *p,
			 const struct vs_queue *queue);
	bool (*allocatable)(struct vs_session *ssn, struct vs_plugin *p,
			    const struct vs_queue *queue, const struct vs_task *task);
	/* PreemptiveFn: may @queue reclaim for tasks asking @req in all? */
	bool (*preemptive)(struct vs_session *ssn, struct vs_plugin *p,
			   const struct vs_queue *queue, const struct vs_res *req);
	/*
	 * PreemptableFn / ReclaimableFn: which of @cands may @evictor evict?
	 * Set keep[i] for each victim (keep[] comes zeroed) and return
	 * VS_VOTE_PERMIT, or return VS_VOTE_ABSTAIN to have no say. Volcano's
	 * plugins return their victims in the candidates' order, so a mask
	 * loses nothing.
	 */
	enum vs_vote (*preemptable)(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_task *evictor, struct vs_task *const *cands,
				    u32 nr, bool *keep);
	enum vs_vote (*reclaimable)(struct vs_session *ssn, struct vs_plugin *p,
				    const struct vs_task *evictor, struct vs_task *const *cands,
				    u32 nr, bool *keep);
	/*
	 * UnifiedEvictableFn, of the gang-aware actions (gangpreempt,
	 * gangreclaim): which of @cands may go for @ctx. As preemptable,
	 * with the whole evictor in @ctx; gated by no flag, as Volcano asks
	 * every plugin that has it.
	 */
	enum vs_vote (*unified_evictable)(struct vs_session *ssn, struct vs_plugin *p,
					  const struct vs_evict_ctx *ctx,
					  struct vs_task *const *cands, u32 nr, bool *keep);
	/* 0, or -EINVAL with @fe filled. */
	int (*pre_predicate)(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_task *task, struct vs_fit_error *fe);
	int (*predicate)(struct vs_session *ssn, struct vs_plugin *p,
			 const struct vs_task *task, const struct vs_node *node,
			 struct vs_fit_error *fe);
	/*
	 * vsched's, beside PredicateFn: whether @task fails this plugin's
	 * predicate on every node of @node's class (core/nodeclass.h),
	 * whatever they hold: the part of the predicate that reads only
	 * labels (the hostname aside), taints, cordon and readiness. false
	 * when it passes there or when the class cannot tell. allocate's fast
	 * path leaves the nodes of a failing class out of a template's index
	 * without scoring them; the plugin's predicate still decides.
	 */
	bool (*class_fails)(struct vs_session *ssn, struct vs_plugin *p,
			    const struct vs_task *task, const struct vs_node *node);
	/*
	 * vsched's, for allocate's fast path under the predicate error cache:
	 * call @mark for every node this plugin's predicate refuses @task on
	 * now for what runs on other nodes, in a way a later task of the same
	 * kind may pass (PodTopologySpread's skew; a refusal that only grows,
	 * as pod anti-affinity's, needs no mark), and give its words in @fe.
	 * Nodes marked under the same nonzero @epoch before may be left out.
	 * Called after PrePredicate for @task. False when no node can pass:
	 * what this plugin refuses now or marked under @epoch covers them all.
	 */
	bool (*mark_refused)(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_task *task, u32 epoch,
			     void (*mark)(void *arg, const struct vs_node *node), void *arg,
			     struct vs_fit_error *fe);
	double (*node_order)(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_task *task, const struct vs_node *node);
	/*
	 * BatchNodeOrderFn: score all the candidates of @task at once, for
	 * scores normalised over them (kube-scheduler's NormalizeScore). Add
	 * the weighted score of @nodes[i] into @scores[i].
	 */
	void (*batch_node_order)(struct vs_session *ssn, struct vs_plugin *p,
				 const struct vs_task *task, struct vs_node *const *nodes,
				 u32 nr, double *scores);
	/*
	 * A BatchNodeOrder that the fast path may add node by node
	 * (actions/allocate.c): split_begin() says whether the score of
	 * @task on a node reads only that node's HyperNodes (no other node,
	 * not the candidates), with *@bound at least the score of any node;
	 * split_score() then gives the score of @node, the double
	 * batch_node_order() would add, until the next event. With
	 * @one_leaf the candidates are two or more nodes under one lowest
	 * HyperNode, and the score need only be theirs then. Only the last
	 * BatchNodeOrder plugin of a session is asked.
	 */
	bool (*split_begin)(struct vs_session *ssn, struct vs_plugin *p,
			    const struct vs_task *task, bool one_leaf, double *bound);
	double (*split_score)(struct vs_session *ssn, struct vs_plugin *p,
			      const struct vs_task *task, const struct vs_node *node);
	/* Pick from @scores (highest first, ties in node order), or NULL. */
	struct vs_node *(*best_node)(struct vs_session *ssn, struct vs_plugin *p,
				     const struct vs_task *task,
				     const struct vs_node_score *scores, u32 nr);

	/*
	 * Event handlers: a task took or gave back resources in a Statement;
	 * @node is where it had them (an unallocated task has none any more).
	 */
	void (*on_allocate)(struct vs_session *ssn, struct vs_plugin *p,
			    struct vs_task *task);
	void (*on_deallocate)(struct vs_session *ssn, struct vs_plugin *p,
			      struct vs_task *task, struct vs_node *node);

	/*
	 * HyperNodeGradientForJobFn and ...ForSubJobFn: the HyperNodes under
	 * @s->root to try for @s, in gradients. -ENOMEM, or another error
	 * when no gradient can be made (the job is not tried).
	 */
	int (*hn_gradient)(struct vs_session *ssn, struct vs_plugin *p,
			   const struct vs_hn_search *s, struct vs_hn_gradients *out);
	/* HyperNodeOrderFn: add the score of HyperNode @hns[i] for @s into @scores[i]. */
	void (*hn_order)(struct vs_session *ssn, struct vs_plugin *p,
			 const struct vs_hn_search *s, const u32 *hns, u32 nr, double *scores);
	/* SubJobReadyFn, SubJobPipelinedFn and SubJobOrderFn (sched/subjob.h). */
	bool (*subjob_ready)(struct vs_session *ssn, struct vs_plugin *p,
			     const struct vs_subjob *sj);
	enum vs_vote (*subjob_pipelined)(struct vs_session *ssn, struct vs_plugin *p,
					 const struct vs_subjob *sj);
	int (*subjob_order)(struct vs_session *ssn, struct vs_plugin *p,
			    const struct vs_subjob *l, const struct vs_subjob *r);
};

/* A plugin in a session: its ops, its configuration and its state. */
struct vs_plugin {
	const struct vs_plugin_ops *ops;
	const struct vs_conf_plugin *conf;	/* flags and arguments */
	u32 tier;
	u32 disabled;				/* VS_EXT bits switched off for this session */
	void *priv;				/* per-session state, from the arena */
};

/* Switch extension point @ext of @p off for the rest of this session. */
static inline void vs_plugin_disable(struct vs_plugin *p, enum vs_ext ext)
{
	p->disabled |= 1u << ext;
}

/* An action: one step of the cycle (enqueue, allocate, backfill...). */
struct vs_action_ops {
	const char *name;
	/* Refuse bad "configurations" arguments at configuration load. */
	int (*check_args)(const struct vs_args *args, struct vs_err *err);
	int (*execute)(struct vs_session *ssn, const struct vs_args *args);
};

/*
 * The plugins and actions a scheduler may be configured with, by name. The
 * program fills one and hands it to vs_sched_init(): the built-ins come from
 * kernel/registry/ (above actions/ and plugins/, which this layer does not
 * know), tests add their own. A scheduler only reads its registry.
 */
#define VS_REGISTRY_MAX	64

struct vs_registry {
	const struct vs_plugin_ops *plugins[VS_REGISTRY_MAX];
	const struct vs_action_ops *actions[VS_REGISTRY_MAX];
	const char *plugin_names[VS_REGISTRY_MAX];	/* for vs_registry_names() */
	const char *action_names[VS_REGISTRY_MAX];
	u32 nr_plugins, nr_actions;
};

/* -EEXIST for a name taken, -ENOSPC when the registry is full. */
int vs_registry_add_plugin(struct vs_registry *reg, const struct vs_plugin_ops *ops);
int vs_registry_add_action(struct vs_registry *reg, const struct vs_action_ops *ops);

/* By name; NULL if @reg has none of that name. */
const struct vs_plugin_ops *vs_registry_plugin(const struct vs_registry *reg, const char *name);
const struct vs_action_ops *vs_registry_action(const struct vs_registry *reg, const char *name);

/* The place of @name in @reg, in the order added (the metrics' index); the count if none. */
u32 vs_registry_plugin_index(const struct vs_registry *reg, const char *name);
u32 vs_registry_action_index(const struct vs_registry *reg, const char *name);

/* The names, for the configuration loader's checks; they point into @reg. */
void vs_registry_names(const struct vs_registry *reg, struct vs_conf_names *names);

/*
 * Check a parsed configuration against @reg: every action and plugin exists
 * and accepts its arguments. Errors name the file and line.
 */
int vs_registry_check_conf(const struct vs_registry *reg, const struct vs_conf *conf,
			   struct vs_err *err);

/* ---- calling the extension points, with the tier rules above ---- */

/* "@ans/@an" against "@bns/@bn" as Go compares the strings (UIDs of jobs and pods). */
int vs_cmp_ns_name(const char *ans, const char *an, const char *bns, const char *bn);

int vs_ssn_job_order(struct vs_session *ssn, const struct vs_job *l, const struct vs_job *r);
/* Volcano's JobOrderCompareFn: the plugins' verdict alone, 0 when they tie. */
int vs_ssn_job_compare(struct vs_session *ssn, const struct vs_job *l, const struct vs_job *r);
int vs_ssn_queue_order(struct vs_session *ssn, const struct vs_queue *l,
		       const struct vs_queue *r);
int vs_ssn_task_order(struct vs_session *ssn, const struct vs_task *l,
		      const struct vs_task *r);
/*
 * Which of two victims' queues gives up a task first when @preemptor's
 * queue reclaims: negative for @l. Without a plugin that decides, the
 * reverse of the queue order (Volcano's !QueueOrderFn).
 */
int vs_ssn_victim_queue_order(struct vs_session *ssn, const struct vs_queue *l,
			      const struct vs_queue *r, const struct vs_queue *preemptor);
bool vs_ssn_job_valid(struct vs_session *ssn, const struct vs_job *job,
		      struct vs_validate *res);
bool vs_ssn_job_enqueueable(struct vs_session *ssn, const struct vs_job *job);
void vs_ssn_job_enqueued(struct vs_session *ssn, const struct vs_job *job);
bool vs_ssn_job_ready(struct vs_session *ssn, const struct vs_job *job);
bool vs_ssn_job_pipelined(struct vs_session *ssn, const struct vs_job *job);
bool vs_ssn_job_starving(struct vs_session *ssn, const struct vs_job *job);
/*
 * Volcano's SubJobReady and SubJobPipelined: for a job without a
 * subGroupPolicy, JobReady and JobPipelined of its job.
 */
bool vs_ssn_subjob_ready(struct vs_session *ssn, const struct vs_subjob *sj);
bool vs_ssn_subjob_pipelined(struct vs_session *ssn, const struct vs_subjob *sj);
/*
 * SubJobOrderFn: negative when @l goes first. Without a plugin that
 * decides, by match index, then by Volcano's SubJobID.
 */
int vs_ssn_subjob_order(struct vs_session *ssn, const struct vs_subjob *l,
			const struct vs_subjob *r);
bool vs_ssn_overused(struct vs_session *ssn, const struct vs_queue *queue);
bool vs_ssn_allocatable(struct vs_session *ssn, const struct vs_queue *queue,
			const struct vs_task *task);
bool vs_ssn_preemptive(struct vs_session *ssn, const struct vs_queue *queue,
		       const struct vs_task *task);
/* The same for tasks that ask @req in all (gangreclaim asks for a job's). */
bool vs_ssn_preemptive_req(struct vs_session *ssn, const struct vs_queue *queue,
			   const struct vs_res *req);
/*
 * The victims among @cands that @evictor may preempt (or reclaim): @cands
 * is compacted in place to them, in their order, and their number
 * returned. 0 when no tier permits any.
 */
u32 vs_ssn_preemptable(struct vs_session *ssn, const struct vs_task *evictor,
		       struct vs_task **cands, u32 nr);
u32 vs_ssn_reclaimable(struct vs_session *ssn, const struct vs_task *evictor,
		       struct vs_task **cands, u32 nr);
/* The same for gang-aware eviction (Volcano's UnifiedEvictable). */
u32 vs_ssn_unified_evictable(struct vs_session *ssn, const struct vs_evict_ctx *ctx,
			     struct vs_task **cands, u32 nr);
int vs_ssn_pre_predicate(struct vs_session *ssn, const struct vs_task *task,
			 struct vs_fit_error *fe);
int vs_ssn_predicate(struct vs_session *ssn, const struct vs_task *task,
		     const struct vs_node *node, struct vs_fit_error *fe);
/* Every predicate plugin's mark_refused, in order; false when one says no node can pass. */
bool vs_ssn_mark_refused(struct vs_session *ssn, const struct vs_task *task, u32 epoch,
			 void (*mark)(void *arg, const struct vs_node *node), void *arg,
			 struct vs_fit_error *fe);
/* Whether a predicate plugin's class_fails says @task fails on every node of @node's class. */
bool vs_ssn_class_fails(struct vs_session *ssn, const struct vs_task *task,
			const struct vs_node *node);
double vs_ssn_node_order(struct vs_session *ssn, const struct vs_task *task,
			 const struct vs_node *node);
/*
 * The NodeOrder score of @task on each of the candidate @nodes (Volcano's
 * PrioritizeNodes): scores[i] is the sum of every per-node and batch score
 * of nodes[i]. Batch scores depend on the whole candidate set.
 */
void vs_ssn_score_nodes(struct vs_session *ssn, const struct vs_task *task,
			struct vs_node *const *nodes, u32 nr, double *scores);
/*
 * The session's last BatchNodeOrder plugin when it can be split (its
 * split_begin()), else NULL; vs_ssn_score_nodes_local() scores as
 * vs_ssn_score_nodes() without it, so that a node's score is
 * vs_ssn_score_nodes_local()'s plus vs_ssn_split_score()'s, to the bit.
 */
struct vs_plugin *vs_ssn_split_plugin(const struct vs_session *ssn);
void vs_ssn_score_nodes_local(struct vs_session *ssn, const struct vs_task *task,
			      struct vs_node *const *nodes, u32 nr, double *scores);
/* Its split_begin() and split_score() for @task (false, 0 without one). */
bool vs_ssn_split_begin(struct vs_session *ssn, const struct vs_task *task, bool one_leaf,
			double *bound);
double vs_ssn_split_score(struct vs_session *ssn, const struct vs_task *task,
			  const struct vs_node *node);
struct vs_node *vs_ssn_best_node(struct vs_session *ssn, const struct vs_task *task,
				 const struct vs_node_score *scores, u32 nr);
void vs_ssn_on_allocate(struct vs_session *ssn, struct vs_task *task);
void vs_ssn_on_deallocate(struct vs_session *ssn, struct vs_task *task, struct vs_node *node);
/* The gradients of @s: the first plugin's, else @s->root alone. */
int vs_ssn_hn_gradient(struct vs_session *ssn, const struct vs_hn_search *s,
		       struct vs_hn_gradients *out);
/* The sum of the plugins' HyperNodeOrder scores of @hns for @s, into @scores (zeroed first). */
void vs_ssn_hn_order(struct vs_session *ssn, const struct vs_hn_search *s, const u32 *hns,
		     u32 nr, double *scores);

#endif /* VS_SCHED_FRAMEWORK_H */
