// SPDX-License-Identifier: Apache-2.0
/*
 * The object commands that change state, in the way of "ip link set" and
 * "ovs-vsctl set":
 *
 *	vsctl node add n1 --cpu 8 --memory 32Gi --label zone=a --taint gpu=yes:NoSchedule
 *	vsctl node set n1 --cpu 16 --label zone-		(only what is given changes)
 *	vsctl node cordon n1
 *	vsctl queue add research --weight 2 --capability cpu=64,memory=256Gi
 *	vsctl queue close research
 *	vsctl podgroup add team-a/job1 --queue research --min-member 4
 *	vsctl task add team-a/job1-0 --podgroup job1 --cpu 2 --memory 4Gi
 *	vsctl task status team-a/job1-0 running
 *	vsctl prioclass add high --value 1000 --preemption-policy Never
 *	vsctl job add team-a/tf --queue research --task ps:1 --task worker:4:cpu=2
 *	vsctl job abort team-a/tf				(and restart, resume, terminate, complete)
 *	vsctl hypernode add leaf-a --tier 1 --member node:regex='^gpu-a-' --member node:exact=n9
 *	vsctl hypernode add spine --tier 2 --member hypernode:exact=leaf-a
 *
 * Every option is one row of its kind's table below: the attribute it
 * writes and how its text is read. vsctl reads only what it must to build
 * the request with the generated codec (lib/codec_gen.h): the shape of a
 * label or a taint, quantities into the protocol's units, enums into their
 * values, numbers in the range the attribute's policy gives; a mistake
 * there is said before anything is sent, naming the option (exit 2). The
 * names and values themselves (a label key, a queue's name, a job's
 * policy) are the daemon's to check, once, for every client: vsctl prints
 * its refusal (exit 1), as it prints what only the daemon can judge (a
 * queue that does not exist).
 *
 * SET keeps the attributes a request leaves out but replaces whole the ones
 * it carries: a resource list, the labels, the taints. So "set" reads the
 * object first and sends those as they are with the change made, and sends
 * nothing else but what the options name.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <netlink/msg.h>

#include "lib/codec_gen.h"
#include "lib/compiler.h"
#include "lib/decode.h"
#include "lib/quantity.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/vsctl.h"

/* How an option's text is read. */
enum field_type {
	F_RES,		/* one resource of a list: --cpu Q (@dim); @dim NULL: --res NAME=Q */
	F_RESLIST,	/* a whole resource list: cpu=4,memory=8Gi */
	F_LABEL,	/* KEY=VALUE into a label set (set: KEY- takes it out) */
	F_TAINT,	/* KEY[=VALUE]:EFFECT (set: KEY[:EFFECT]- takes it out) */
	F_TOLERATION,	/* KEY[=VALUE][:EFFECT] */
	F_HOST_PORT,	/* PORT[/PROTOCOL][@HOSTIP] */
	F_IMAGE,	/* a container's image, a string of a repeated attribute */
	F_NODE_IMAGE,	/* an image on a node: NAME[,NAME...][=SIZE] */
	F_VTASK,	/* a VolcanoJob's task group: NAME:REPLICAS[:RES] */
	F_POLICY,	/* a VolcanoJob's lifecycle policy: EVENT=ACTION */
	F_STR,		/* text sent as it is: a name, a role */
	F_INT,		/* a whole number in the range of the attribute's policy */
	F_BOOL,		/* true or false */
	F_FLAG,		/* no text: the value @value */
	F_ENUM,		/* a name the attribute's policy gives a value (the spec's display) */
	F_HN_MEMBER,	/* a HyperNode's member: TYPE:exact=NAME|regex=PATTERN|labels=K=V,... */
	F_NT,		/* a networkTopology: MODE[:TIER|:TIER_NAME] */
};

/* What an attribute of the request holds; each field type fills one. */
enum shape {
	SH_NONE,
	SH_INT, SH_STR, SH_RES,
	SH_LABELS, SH_TAINTS, SH_TOLS, SH_PORTS, SH_VTASKS, SH_POLICIES, SH_MEMBERS, SH_NT,
	SH_STRS, SH_NODE_IMAGES,
};

static const enum shape shape_of[] = {
	[F_RES] = SH_RES, [F_RESLIST] = SH_RES, [F_LABEL] = SH_LABELS, [F_TAINT] = SH_TAINTS,
	[F_TOLERATION] = SH_TOLS, [F_HOST_PORT] = SH_PORTS, [F_VTASK] = SH_VTASKS, [F_POLICY] = SH_POLICIES,
	[F_STR] = SH_STR, [F_INT] = SH_INT, [F_BOOL] = SH_INT, [F_FLAG] = SH_INT,
	[F_ENUM] = SH_INT, [F_HN_MEMBER] = SH_MEMBERS, [F_NT] = SH_NT,
	[F_IMAGE] = SH_STRS, [F_NODE_IMAGE] = SH_NODE_IMAGES,
};

#define REQUIRED	0x1		/* add needs it */

struct field {
	const char *opt;		/* "cpu" for --cpu */
	enum field_type type;
	u16 attr;			/* in the object's nest */
	const char *dim;		/* F_RES: the resource */
	s64 value;			/* F_FLAG */
	const char *what;		/* F_ENUM: "preemption policy", in messages */
	const char *arg;		/* "Q", for --help */
	const char *help;
	unsigned int flags;
	const char *def;		/* add: read first, as if given (others may override it) */
};

struct item;

/* The value of one attribute, as the options build it. */
struct slot {
	enum shape shape;		/* SH_NONE: not in the request */
	const struct field *f;		/* the option that set it last, and its text */
	const char *arg;
	s64 num;
	const char *str;
	struct item *items;		/* SH_RES: the resources, by name in @key */
	u32 nr;
	bool has_tier;			/* SH_NT: @num the mode, @tier or @str the tier's name */
	s64 tier;
};

/*
 * One entry of a list attribute: a resource, label, taint, toleration,
 * task group or policy, and the option text it came from (NULL when it was
 * read back from the object).
 */
struct item {
	const char *key, *value;	/* value NULL: none */
	const char *arg;
	s64 num;			/* a resource's value, a task group's replicas */
	u32 effect, op;			/* op: a node image's names in @value */
	bool has_res;
	struct slot res;		/* a task group's request */
};

/* Slots by attribute type, for every kind's set: the task's is the largest. */
#define NR_SLOTS	(VS_TASK_A_MAX + 1)
_Static_assert(VS_NODE_A_MAX < NR_SLOTS && VS_QUEUE_A_MAX < NR_SLOTS &&
	       VS_PG_A_MAX < NR_SLOTS && VS_VJOB_A_MAX < NR_SLOTS && VS_PC_A_MAX < NR_SLOTS &&
	       VS_HN_A_MAX < NR_SLOTS,
	       "a kind has more attributes than the task");

struct edit {
	const char *prog;
	const struct vsctl_kind *k;
	bool set;			/* changing an object that exists */
	const char *socket, *ns;
	void **mem;			/* every allocation, freed by edit_done() */
	size_t nr_mem;
	struct slot slot[NR_SLOTS];
	const struct nlattr *cur;	/* set: the object as GET returned it, checked */
	struct vsnl_err cur_err;	/* set: why the answer was not taken */
};

/* ---- the options of each kind ---- */

/* The options of a resource list; the pods one (...) differs from kind to kind. */
#define RES_FIELDS(_attr, _what, ...)							\
	{ "cpu", F_RES, _attr, "cpu", .arg = "Q",					\
	  .help = _what " cpu (\"8\", \"7500m\")" },					\
	{ "memory", F_RES, _attr, "memory", .arg = "Q",					\
	  .help = _what " memory (\"32Gi\")" },						\
	__VA_ARGS__,									\
	{ "gpu", F_RES, _attr, "nvidia.com/gpu", .arg = "Q",				\
	  .help = _what " nvidia.com/gpu" },						\
	{ "res", F_RES, _attr, NULL, .arg = "NAME=Q",					\
	  .help = "any other resource (\"ephemeral-storage=100Gi\"); repeat for more" }

#define NT_FIELD(_attr)									\
	{ "network-topology", F_NT, _attr, .what = "networkTopology mode",		\
	  .arg = "MODE[:TIER]", .help = "its networkTopology: MODE hard or soft, TIER the "	\
	  "highest tier it may cross, a number (highestTierAllowed) or a name "		\
	  "(highestTierName): \"hard:2\", \"soft:spine\"" }

#define PREEMPTION_FIELD(_attr)								\
	{ "preemption-policy", F_ENUM, _attr, .what = "preemption policy",			\
	  .arg = "POLICY", .help = "PreemptLowerPriority (the default) or Never" }

static const struct field node_fields[] = {
	/* a node without pods takes none: kubelet's --max-pods is 110 */
	RES_FIELDS(VS_NODE_A_ALLOCATABLE, "allocatable",
		   { "pods", F_RES, VS_NODE_A_ALLOCATABLE, "pods", .arg = "N", .def = "110",
		     .help = "how many pods it takes (default 110, as a kubelet)" }),
	{ "label", F_LABEL, VS_NODE_A_LABELS, .arg = "KEY=VALUE",
	  .help = "a label; repeat for more (set: KEY- takes one off)" },
	{ "taint", F_TAINT, VS_NODE_A_TAINT, .arg = "KEY[=VALUE]:EFFECT",
	  .help = "a taint, EFFECT NoSchedule, PreferNoSchedule or NoExecute; repeat for more "
		  "(set: KEY[:EFFECT]- takes it off)" },
	{ "unschedulable", F_FLAG, VS_NODE_A_UNSCHEDULABLE, .value = 1,
	  .help = "cordoned: no new task is placed on it" },
	{ "schedulable", F_FLAG, VS_NODE_A_UNSCHEDULABLE, .value = 0,
	  .help = "not cordoned (the default)" },
	{ "image", F_NODE_IMAGE, VS_NODE_A_IMAGE, .arg = "NAME[,NAME...][=SIZE]",
	  .help = "an image it has (status.images): its names (tags, digests) and size in "
		  "bytes (\"500Mi\"), for ImageLocality; repeat for more (set: the images "
		  "given replace them all)" },
	{ "not-ready", F_FLAG, VS_NODE_A_READY, .value = 0, .help = "its Ready condition false" },
	{ "ready", F_FLAG, VS_NODE_A_READY, .value = 1,
	  .help = "its Ready condition true (the default)" },
	{ 0 }
};

static const struct field queue_fields[] = {
	{ "weight", F_INT, VS_QUEUE_A_WEIGHT, .arg = "N",
	  .help = "its share of the cluster against other queues (default 1)" },
	{ "capability", F_RESLIST, VS_QUEUE_A_CAPABILITY, .arg = "RES",
	  .help = "the most it may use, as cpu=64,memory=256Gi (default: no limit)" },
	{ "guarantee", F_RESLIST, VS_QUEUE_A_GUARANTEE, .arg = "RES",
	  .help = "what is kept for it whatever else runs" },
	{ "deserved", F_RESLIST, VS_QUEUE_A_DESERVED, .arg = "RES",
	  .help = "what it deserves (capacity plugin)" },
	{ "reclaimable", F_BOOL, VS_QUEUE_A_RECLAIMABLE, .arg = "true|false",
	  .help = "whether others may reclaim what it uses past its share (default true)" },
	{ "priority", F_INT, VS_QUEUE_A_PRIORITY, .arg = "N",
	  .help = "its priority among queues" },
	{ "parent", F_STR, VS_QUEUE_A_PARENT, .arg = "QUEUE",
	  .help = "its parent in a hierarchy of queues" },
	{ 0 }
};

static const struct field pg_fields[] = {
	{ "queue", F_STR, VS_PG_A_QUEUE, .arg = "QUEUE",
	  .help = "its queue (default \"default\")" },
	{ "min-member", F_INT, VS_PG_A_MIN_MEMBER, .arg = "N",
	  .help = "how many of its tasks must be placed together (default 1)" },
	{ "min-resources", F_RESLIST, VS_PG_A_MIN_RESOURCES, .arg = "RES",
	  .help = "what it needs to start, as cpu=4,memory=8Gi" },
	{ "priority-class", F_STR, VS_PG_A_PRIORITY_CLASS, .arg = "PC",
	  .help = "its priority class" },
	{ "preemptable", F_BOOL, VS_PG_A_PREEMPTABLE, .arg = "true|false",
	  .help = "its volcano.sh/preemptable (default: unset, which gang eviction takes "
		  "as true)" },
	NT_FIELD(VS_PG_A_NETWORK_TOPOLOGY),
	{ 0 }
};

static const struct field task_fields[] = {
	{ "podgroup", F_STR, VS_TASK_A_PODGROUP, .arg = "PG",
	  .help = "its PodGroup, in its namespace (default: one is made for it)" },
	{ "queue", F_STR, VS_TASK_A_QUEUE, .arg = "QUEUE",
	  .help = "without --podgroup: the queue of the PodGroup made for it" },
	RES_FIELDS(VS_TASK_A_REQUEST, "requested",
		   { "pods", F_RES, VS_TASK_A_REQUEST, "pods", .arg = "N",
		     .help = "requested pods" }),
	{ "priority", F_INT, VS_TASK_A_PRIORITY, .arg = "N",
	  .help = "its priority (default: its priority class's, else 1)" },
	{ "priority-class", F_STR, VS_TASK_A_PRIORITY_CLASS, .arg = "PC",
	  .help = "its priority class" },
	{ "role", F_STR, VS_TASK_A_ROLE, .arg = "ROLE",
	  .help = "its role (volcano.sh/task-spec)" },
	{ "label", F_LABEL, VS_TASK_A_LABELS, .arg = "KEY=VALUE",
	  .help = "a label; repeat for more" },
	{ "node-selector", F_LABEL, VS_TASK_A_NODE_SELECTOR, .arg = "KEY=VALUE",
	  .help = "a label its node must have; repeat for more" },
	{ "toleration", F_TOLERATION, VS_TASK_A_TOLERATION, .arg = "KEY[=VALUE][:EFFECT]",
	  .help = "a taint it tolerates: with =VALUE that value only (Equal), else any "
		  "(Exists); an empty KEY is every key, no EFFECT every effect; repeat for more" },
	{ "host-port", F_HOST_PORT, VS_TASK_A_HOST_PORT, .arg = "PORT[/PROTOCOL][@HOSTIP]",
	  .help = "a container port with this hostPort, which no other pod on its node may "
		  "hold (TCP unless UDP or SCTP is named, every address unless HOSTIP); "
		  "repeat for more" },
	{ "image", F_IMAGE, VS_TASK_A_IMAGE, .arg = "IMAGE",
	  .help = "a container's image (\"nginx:1.25\"; untagged is :latest), for "
		  "ImageLocality; repeat for more" },
	{ "gated", F_FLAG, VS_TASK_A_GATED, .value = 1,
	  .help = "the pod has scheduling gates: no action places it until they go" },
	{ "nominated-node", F_STR, VS_TASK_A_NOMINATED_NODE, .arg = "NODE",
	  .help = "its status.nominatedNodeName: allocate tries this node first" },
	{ "preemptable", F_BOOL, VS_TASK_A_PREEMPTABLE, .arg = "true|false",
	  .help = "whether it may be preempted (volcano.sh/preemptable)" },
	PREEMPTION_FIELD(VS_TASK_A_PREEMPTION_POLICY),
	{ "owner-uid", F_STR, VS_TASK_A_OWNER_UID, .arg = "UID",
	  .help = "its controller's uid: without --podgroup, the tasks of one owner share the "
		  "PodGroup made for them (podgroup-UID)" },
	{ "scheduler", F_STR, VS_TASK_A_SCHEDULER, .arg = "NAME",
	  .help = "its schedulerName (default: vschedd's, \"volcano\"): another scheduler's "
		  "task must be on a node" },
	{ "admit", F_FLAG, VS_TASK_A_ADMIT, .value = 1,
	  .help = "admit it as Kubernetes admits a new pod: its priority from its priority "
		  "class or the global default, an unknown class refused" },
	{ 0 }
};

static const struct field vjob_fields[] = {
	{ "task", F_VTASK, VS_VJOB_A_TASK, .arg = "NAME:REPLICAS[:RES]", .flags = REQUIRED,
	  .help = "a task group: its name, how many pods, what each requests "
		  "(cpu=1,memory=2Gi); repeat for more" },
	{ "queue", F_STR, VS_VJOB_A_QUEUE, .arg = "QUEUE",
	  .help = "its queue (default \"default\")" },
	{ "priority-class", F_STR, VS_VJOB_A_PRIORITY_CLASS, .arg = "PC",
	  .help = "its priority class" },
	NT_FIELD(VS_VJOB_A_NETWORK_TOPOLOGY),
	{ "min-available", F_INT, VS_VJOB_A_MIN_AVAILABLE, .arg = "N",
	  .help = "how many pods must run together (default: every task's)" },
	{ "max-retry", F_INT, VS_VJOB_A_MAX_RETRY, .arg = "N",
	  .help = "how many restarts before it fails (default 3)" },
	{ "policy", F_POLICY, VS_VJOB_A_POLICY, .arg = "EVENT=ACTION",
	  .help = "a lifecycle policy (PodFailed=RestartJob); repeat for more" },
	{ 0 }
};

static const struct field pc_fields[] = {
	{ "value", F_INT, VS_PC_A_VALUE, .arg = "N", .flags = REQUIRED,
	  .help = "the priority it gives" },
	PREEMPTION_FIELD(VS_PC_A_PREEMPTION_POLICY),
	{ "global-default", F_FLAG, VS_PC_A_GLOBAL_DEFAULT, .value = 1,
	  .help = "the class of pods that name none" },
	{ "no-global-default", F_FLAG, VS_PC_A_GLOBAL_DEFAULT, .value = 0,
	  .help = "not the global default (the default)" },
	{ 0 }
};

/*
 * A member is one option, TYPE:SELECTOR=VALUE, as a HyperNode's spec lists
 * its members: the type, then the one selector it takes. Members are a
 * list whose entries have no name, so "set --member" replaces them all.
 */
static const struct field hn_fields[] = {
	{ "tier", F_INT, VS_HN_A_TIER, .arg = "N", .flags = REQUIRED,
	  .help = "its tier: 1 for the switches over nodes, higher above" },
	{ "tier-name", F_STR, VS_HN_A_TIER_NAME, .arg = "NAME",
	  .help = "the tier's name (\"leaf\", \"spine\")" },
	{ "member", F_HN_MEMBER, VS_HN_A_MEMBER, .arg = "TYPE:SEL=VALUE", .flags = REQUIRED,
	  .help = "a member: TYPE node or hypernode, SEL exact (a name), regex (a pattern over "
		  "node names) or labels (K=V[,K=V...] of nodes); repeat for more (set: the "
		  "members given replace them all)" },
	{ 0 }
};

static const struct field exit_code_fields[] = {
	{ "exit-code", F_INT, VS_TASK_A_EXIT_CODE, .arg = "N",
	  .help = "with failed: the container's exit code, for the job's policies" },
	{ "node", F_STR, VS_TASK_A_NOMINATED_NODE, .arg = "NODE",
	  .help = "with nominated: its status.nominatedNodeName now (none: cleared)" },
	{ 0 }
};

static const struct field no_fields[] = {
	{ 0 }
};

/* The options of add and set, by the kind's top-level attribute. */
static const struct field *const kind_fields[] = {
	[VS_A_NODE] = node_fields,
	[VS_A_QUEUE] = queue_fields,
	[VS_A_PODGROUP] = pg_fields,
	[VS_A_TASK] = task_fields,
	[VS_A_VJOB] = vjob_fields,
	[VS_A_PRIOCLASS] = pc_fields,
	[VS_A_HYPERNODE] = hn_fields,
};

static const struct field *fields_of(const struct vsctl_kind *k)
{
	return k->attr < ARRAY_SIZE(kind_fields) && kind_fields[k->attr] ? kind_fields[k->attr] :
									    no_fields;
}

/*
 * The attribute set of the kind's nest in a NEW or SET (task-spec for a
 * task), whose policy the options' numbers are read by and the request is
 * built against; a task's status report has its own (task-status).
 */
static const struct vsnl_codec_set *request_set(const struct edit *e)
{
	return vsnl_codec_vsched.attrs[e->k->attr].nested;
}

/* ---- reading the options ---- */

__printf(4, 5)
static int bad(const struct edit *e, const struct field *f, const char *arg, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: --%s \"%s\": ", e->prog, f->opt, arg);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -EINVAL;
}

/* @size bytes, zeroed, freed with the edit by edit_done(); NULL when memory runs out. */
static void *edit_alloc(struct edit *e, size_t size)
{
	void **mem = realloc(e->mem, (e->nr_mem + 1) * sizeof(*mem));
	void *p;

	if (!mem)
		return NULL;
	e->mem = mem;
	p = calloc(1, size);
	if (p)
		e->mem[e->nr_mem++] = p;
	return p;
}

static char *dup_n(struct edit *e, const char *s, size_t n)
{
	char *d = edit_alloc(e, n + 1);

	if (d)
		memcpy(d, s, n);
	return d;
}

/* A new item at the end of @s's list, from the option text @arg; NULL when memory runs out. */
static struct item *item_add(struct edit *e, struct slot *s, const char *arg)
{
	struct item *items = edit_alloc(e, (s->nr + 1) * sizeof(*items));

	if (!items)
		return NULL;
	if (s->nr)
		memcpy(items, s->items, s->nr * sizeof(*items));
	s->items = items;
	s->items[s->nr].arg = arg;
	return &s->items[s->nr++];
}

static void item_del(struct slot *s, u32 i)
{
	memmove(&s->items[i], &s->items[i + 1], (s->nr - i - 1) * sizeof(*s->items));
	s->nr--;
}

/* The resource @dim of @s set to @v: its entry, or a new one at the end. */
static int res_set(struct edit *e, struct slot *s, const char *dim, s64 v, const char *arg)
{
	struct item *it = NULL;

	for (u32 i = 0; i < s->nr && !it; i++)
		if (!strcmp(s->items[i].key, dim))
			it = &s->items[i];
	if (!it && !(it = item_add(e, s, arg)))
		return -ENOMEM;
	it->key = dim;
	it->num = v;
	it->arg = arg;
	return 0;
}

/* NAME=QUANTITY, @n bytes at @p, into @s; @arg is the whole option, for messages. */
static int parse_res(struct edit *e, const struct field *f, const char *arg, const char *p,
		     size_t n, struct slot *s)
{
	const char *eq = memchr(p, '=', n);
	struct vsnl_err err = { 0 };
	char *dim;
	s64 v;

	if (!eq)
		return bad(e, f, arg, "\"%.*s\": expected NAME=QUANTITY", (int)n, p);
	dim = dup_n(e, p, (size_t)(eq - p));
	if (!dim)
		return -ENOMEM;
	if (vsnl_quantity_parse(eq + 1, n - (size_t)(eq - p) - 1, vsnl_res_milli(dim), &v, &err))
		return bad(e, f, arg, "resource \"%s\": %s", dim, err.msg);
	return res_set(e, s, dim, v, arg);
}

/* "cpu=4,memory=8Gi" into @s, over what it holds. */
static int parse_reslist(struct edit *e, const struct field *f, const char *arg, const char *list,
			 struct slot *s)
{
	const char *p = list;
	int ret;

	if (!*p)
		return bad(e, f, arg, "expected NAME=QUANTITY[,NAME=QUANTITY...]");
	while (*p) {
		size_t n = strcspn(p, ",");

		ret = parse_res(e, f, arg, p, n, s);
		if (ret)
			return ret;
		p += n;
		if (*p == ',' && !*++p)
			return bad(e, f, arg, "a comma with nothing after it");
	}
	return 0;
}

/*
 * The value of @s among the names the policy @pol of an enum attribute
 * gives its values (those in its range); -1 when it is none of them, said
 * of the option @f (NULL: of an operand).
 */
static int enum_value(const struct edit *e, const struct field *f, const char *arg,
		      const char *s, const char *what, const struct vsnl_codec_attr *pol)
{
	const char *const *names = pol->names;
	unsigned int nr = pol->nr_names;

	if ((pol->flags & VSNL_CODEC_F_RANGE) && pol->max >= 0 && (u64)pol->max < nr)
		nr = (unsigned int)pol->max + 1;
	for (unsigned int v = 0; v < nr; v++)
		if (names[v] && *names[v] && !strcmp(s, names[v]))
			return (int)v;
	fprintf(stderr, "%s: ", e->prog);
	if (f)
		fprintf(stderr, "--%s \"%s\": ", f->opt, arg);
	fprintf(stderr, "unknown %s \"%s\" (one of:", what, s);
	for (unsigned int v = 0, n = 0; v < nr; v++)
		if (names[v] && *names[v])
			fprintf(stderr, "%s %s", n++ ? "," : "", names[v]);
	fputs(")\n", stderr);
	return -1;
}

/*
 * A taint effect by name, as a taint's policy takes them: every effect
 * (VS_TAINT_EFFECT_ANY) is no taint's, and has no name.
 */
static int effect_value(const struct edit *e, const struct field *f, const char *arg,
			const char *s, u32 *effect)
{
	int v = enum_value(e, f, arg, s, "taint effect",
			   &vsnl_codec_taint.attrs[VS_TAINT_A_EFFECT]);

	if (v < 0)
		return -EINVAL;
	*effect = (u32)v;
	return 0;
}

/* KEY=VALUE, or KEY- (set only): set or take out one label. */
static int apply_label(struct edit *e, const struct field *f, const char *arg, struct slot *s)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	bool del = !eq && n && arg[n - 1] == '-';
	struct item *it = NULL;
	char *key;
	u32 i;

	if (!eq && !del)
		return bad(e, f, arg, "expected KEY=VALUE%s", e->set ? " or KEY-" : "");
	if (del && !e->set)
		return bad(e, f, arg, "KEY- takes a label off an object: it is for set");
	key = dup_n(e, arg, del ? n - 1 : n);
	if (!key)
		return -ENOMEM;
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->items[i].key, key))
			break;
	if (del) {
		if (i < s->nr)
			item_del(s, i);
		return 0;
	}
	it = i < s->nr ? &s->items[i] : item_add(e, s, arg);
	if (!it)
		return -ENOMEM;
	it->key = key;
	it->value = eq + 1;
	it->arg = arg;
	return 0;
}

/*
 * KEY[=VALUE]:EFFECT adds a taint, or changes the value of the one with that
 * key and effect; KEY:EFFECT- and KEY- (set only) take taints off.
 */
static int apply_taint(struct edit *e, const struct field *f, const char *arg, struct slot *s)
{
	size_t len = strlen(arg);
	bool del = len && arg[len - 1] == '-';
	u32 effect = VS_TAINT_EFFECT_ANY, i;
	char *text, *key, *colon, *eq, *value = NULL;
	struct item *it;

	if (del && !e->set)
		return bad(e, f, arg, "KEY[:EFFECT]- takes a taint off a node: it is for set");
	text = dup_n(e, arg, del ? len - 1 : len);
	if (!text)
		return -ENOMEM;
	colon = strrchr(text, ':');
	if (colon) {
		*colon = '\0';
		if (effect_value(e, f, arg, colon + 1, &effect))
			return -EINVAL;
	} else if (!del) {
		return bad(e, f, arg, "expected KEY[=VALUE]:EFFECT");
	}
	key = text;
	eq = strchr(text, '=');
	if (eq) {
		if (del)
			return bad(e, f, arg, "expected KEY[:EFFECT]- to take a taint off");
		*eq = '\0';
		value = eq + 1;
	}
	for (i = 0; i < s->nr; i++) {
		bool same = !strcmp(s->items[i].key, key) &&
			    (effect == VS_TAINT_EFFECT_ANY || s->items[i].effect == effect);

		if (!same)
			continue;
		if (del) {
			item_del(s, i--);
			continue;
		}
		s->items[i].value = value;
		s->items[i].arg = arg;
		return 0;
	}
	if (del)
		return 0;
	it = item_add(e, s, arg);
	if (!it)
		return -ENOMEM;
	it->key = key;
	it->value = value;
	it->effect = effect;
	return 0;
}

/* KEY[=VALUE][:EFFECT]: Equal with a value, else Exists; "" every key, no effect every one. */
static int apply_toleration(struct edit *e, const struct field *f, const char *arg,
			    struct slot *s)
{
	struct item *it = item_add(e, s, arg);
	char *text = dup_n(e, arg, strlen(arg)), *colon, *eq;
	u32 effect = VS_TAINT_EFFECT_ANY;

	if (!it || !text)
		return -ENOMEM;
	colon = strrchr(text, ':');
	if (colon) {
		*colon = '\0';
		if (effect_value(e, f, arg, colon + 1, &effect))
			return -EINVAL;
	}
	eq = strchr(text, '=');
	if (eq)
		*eq = '\0';
	it->key = text;
	it->value = eq ? eq + 1 : NULL;
	it->op = eq ? VS_TOLERATION_OP_EQUAL : VS_TOLERATION_OP_EXISTS;
	it->effect = effect;
	return 0;
}

/*
 * PORT[/PROTOCOL][@HOSTIP]: a container port with that hostPort, TCP unless
 * a protocol is named, on every address unless one is given. The daemon
 * checks the port's range and the address.
 */
static int apply_host_port(struct edit *e, const struct field *f, const char *arg,
			   struct slot *s)
{
	struct item *it = item_add(e, s, arg);
	char *text = dup_n(e, arg, strlen(arg)), *at, *slash, *end;
	unsigned long port;
	int proto = VS_PORT_PROTOCOL_TCP;

	if (!it || !text)
		return -ENOMEM;
	at = strchr(text, '@');
	if (at)
		*at = '\0';
	slash = strchr(text, '/');
	if (slash) {
		*slash = '\0';
		proto = enum_value(e, f, arg, slash + 1, "protocol",
				   &vsnl_codec_host_port.attrs[VS_HPORT_A_PROTOCOL]);
		if (proto < 0)
			return -EINVAL;
	}
	errno = 0;
	port = strtoul(text, &end, 10);
	if (!*text || *end || errno || port < 1 || port > 65535)
		return bad(e, f, arg, "expected PORT[/PROTOCOL][@HOSTIP], PORT in 1..65535");
	it->num = (s64)port;
	it->op = (u32)proto;
	it->value = at ? at + 1 : NULL;
	return 0;
}

/* An image on a node: NAME[,NAME...][=SIZE], the size a quantity of bytes. */
static int apply_node_image(struct edit *e, const struct field *f, const char *arg,
			    struct slot *s)
{
	struct item *it = item_add(e, s, arg);
	const char *eq = strrchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	char *names;

	if (!it)
		return -ENOMEM;
	if (!len || arg[0] == ',' || arg[len - 1] == ',' || memmem(arg, len, ",,", 2))
		return bad(e, f, arg, "an empty image name");
	names = dup_n(e, arg, len);
	if (!names)
		return -ENOMEM;
	/* the names one after the other, each ended by its NUL */
	for (char *c = names; (c = strchr(c, ',')); it->op++)
		*c++ = '\0';
	it->op++;
	it->value = names;
	if (eq) {
		struct vsnl_err err = { 0 };

		if (vsnl_quantity_parse(eq + 1, strlen(eq + 1), 0, &it->num, &err))
			return bad(e, f, arg, "size: %s", err.msg);
		if (it->num < 0)
			return bad(e, f, arg, "size: negative");
	}
	return 0;
}

/*
 * @text, the option @arg or a part of it, as a whole decimal number that
 * attribute @attr of @set takes: in the range of its policy, else of its
 * type. 0, or -EINVAL once said.
 */
static int read_number(const struct edit *e, const struct field *f, const char *arg,
		       const char *text, const struct vsnl_codec_set *set, u16 attr, s64 *out)
{
	const struct vsnl_codec_attr *pol = &set->attrs[attr];
	long long min = pol->type == VSNL_CODEC_S32 ? INT32_MIN : 0;
	long long max = pol->type == VSNL_CODEC_S32 ? INT32_MAX :
			pol->type == VSNL_CODEC_U8 ? UINT8_MAX : UINT32_MAX;
	long long n;
	char *end;

	if (pol->flags & VSNL_CODEC_F_RANGE) {
		min = pol->min;
		max = pol->max;
	}
	errno = 0;
	n = strtoll(text, &end, 10);
	if (errno || end == text || *end || n < min || n > max)
		return bad(e, f, arg, "%s%s%s%snot a number in %lld..%lld", text != arg ? pol->name : "",
			   text != arg ? " \"" : "", text != arg ? text : "",
			   text != arg ? "\": " : "", min, max);
	*out = n;
	return 0;
}

/* NAME:REPLICAS[:RES] */
static int apply_vtask(struct edit *e, const struct field *f, const char *arg, struct slot *s)
{
	struct item *it = item_add(e, s, arg);
	char *text = dup_n(e, arg, strlen(arg)), *num, *res;

	if (!it || !text)
		return -ENOMEM;
	num = strchr(text, ':');
	if (!num)
		return bad(e, f, arg, "expected NAME:REPLICAS[:RES]");
	*num++ = '\0';
	res = strchr(num, ':');
	if (res)
		*res++ = '\0';
	if (read_number(e, f, arg, num, &vsnl_codec_vtask, VS_VTASK_A_REPLICAS, &it->num))
		return -EINVAL;
	it->key = text;
	it->has_res = res != NULL;
	return res ? parse_reslist(e, f, arg, res, &it->res) : 0;
}

/* EVENT=ACTION, each as Volcano names them: the daemon knows which there are. */
static int apply_policy(struct edit *e, const struct field *f, const char *arg, struct slot *s)
{
	struct item *it = item_add(e, s, arg);
	char *text = dup_n(e, arg, strlen(arg)), *eq;

	if (!it || !text)
		return -ENOMEM;
	eq = strchr(text, '=');
	if (!eq)
		return bad(e, f, arg, "expected EVENT=ACTION");
	*eq = '\0';
	it->key = text;
	it->value = eq + 1;
	return 0;
}

enum { HN_EXACT, HN_REGEX, HN_LABELS };

/* TYPE:exact=NAME, TYPE:regex=PATTERN or TYPE:labels=K=V[,K=V...] (none: it chooses nothing). */
static int apply_hn_member(struct edit *e, const struct field *f, const char *arg,
			   struct slot *s)
{
	static const char *const sels[] = { [HN_EXACT] = "exact", [HN_REGEX] = "regex",
					     [HN_LABELS] = "labels" };
	struct item *it = item_add(e, s, arg);
	char *text = dup_n(e, arg, strlen(arg)), *colon, *eq, *part, *save = NULL;
	unsigned int t, sel;

	if (!it || !text)
		return -ENOMEM;
	colon = strchr(text, ':');
	eq = colon ? strchr(colon, '=') : NULL;
	if (!eq)
		return bad(e, f, arg, "expected TYPE:SELECTOR=VALUE (node:exact=n1)");
	*colon = *eq = '\0';
	/* "node" or "hypernode", as typed; "Node" or "HyperNode", as listed */
	for (t = 0; t < VSNL_NR_HN_MEMBER_TYPE; t++)
		if (!strcasecmp(text, vsnl_hn_member_type_names[t]))
			break;
	if (t == VSNL_NR_HN_MEMBER_TYPE)
		return bad(e, f, arg, "unknown member type \"%s\" (one of: node, hypernode)", text);
	for (sel = 0; sel < ARRAY_SIZE(sels) && strcmp(colon + 1, sels[sel]); sel++)
		;
	if (sel == ARRAY_SIZE(sels))
		return bad(e, f, arg, "unknown selector \"%s\" (one of: exact, regex, labels)",
			   colon + 1);
	it->num = t;
	it->op = sel;
	it->value = eq + 1;
	if (sel != HN_LABELS) {
		if (!eq[1])
			return bad(e, f, arg, "the %s is empty", sel == HN_EXACT ? "name" : "pattern");
		return 0;
	}
	for (part = strtok_r(eq + 1, ",", &save); part; part = strtok_r(NULL, ",", &save)) {
		char *v = strchr(part, '=');
		struct item *l;

		if (!v)
			return bad(e, f, arg, "label \"%s\": expected KEY=VALUE", part);
		*v = '\0';
		l = item_add(e, &it->res, arg);
		if (!l)
			return -ENOMEM;
		l->key = part;
		l->value = v + 1;
	}
	return 0;
}

/*
 * MODE[:TIER]: the mode by its name; a TIER of digits is highestTierAllowed,
 * any other highestTierName.
 */
static int apply_nt(struct edit *e, const struct field *f, const char *arg,
		    const struct vsnl_codec_set *nt, struct slot *s)
{
	const char *colon = strchr(arg, ':');
	char *mode = strndup(arg, colon ? (size_t)(colon - arg) : strlen(arg));
	int v;

	if (!mode)
		return bad(e, f, arg, "out of memory");
	v = enum_value(e, f, arg, mode, f->what, &nt->attrs[VS_NT_A_MODE]);
	free(mode);
	if (v < 0)
		return -EINVAL;
	s->num = v;
	s->str = NULL;
	s->has_tier = false;
	if (!colon)
		return 0;
	if (!colon[1])
		return bad(e, f, arg, "expected a tier after ':'");
	if (strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
		s->has_tier = true;
		return read_number(e, f, arg, colon + 1, nt, VS_NT_A_HIGHEST_TIER, &s->tier);
	}
	s->str = colon + 1;
	return 0;
}

/* Read @arg for @f, an option of @set, into its attribute's slot. */
static int apply(struct edit *e, const struct vsnl_codec_set *set, const struct field *f,
		 const char *arg)
{
	struct slot *s = &e->slot[f->attr];
	int v;

	s->shape = shape_of[f->type];
	s->f = f;
	s->arg = arg;
	switch (f->type) {
	case F_RES:
		if (f->dim) {
			struct vsnl_err err = { 0 };
			s64 q;

			if (vsnl_quantity_parse(arg, strlen(arg), vsnl_res_milli(f->dim), &q, &err))
				return bad(e, f, arg, "resource \"%s\": %s", f->dim, err.msg);
			return res_set(e, s, f->dim, q, arg);
		}
		if (!strchr(arg, '=') || strchr(arg, ','))
			return bad(e, f, arg, "expected NAME=QUANTITY");
		return parse_res(e, f, arg, arg, strlen(arg), s);
	case F_RESLIST:
		return parse_reslist(e, f, arg, arg, s);
	case F_LABEL:
		return apply_label(e, f, arg, s);
	case F_TAINT:
		return apply_taint(e, f, arg, s);
	case F_TOLERATION:
		return apply_toleration(e, f, arg, s);
	case F_HOST_PORT:
		return apply_host_port(e, f, arg, s);
	case F_IMAGE:
		if (!*arg)
			return bad(e, f, arg, "an empty image");
		return item_add(e, s, arg) ? 0 : -ENOMEM;
	case F_NODE_IMAGE:
		return apply_node_image(e, f, arg, s);
	case F_VTASK:
		return apply_vtask(e, f, arg, s);
	case F_POLICY:
		return apply_policy(e, f, arg, s);
	case F_HN_MEMBER:
		return apply_hn_member(e, f, arg, s);
	case F_NT:
		return apply_nt(e, f, arg, set->attrs[f->attr].nested, s);
	case F_STR:
		s->str = arg;
		return 0;
	case F_INT:
		return read_number(e, f, arg, arg, set, f->attr, &s->num);
	case F_BOOL:
		if (strcmp(arg, "true") && strcmp(arg, "false"))
			return bad(e, f, arg, "not true or false");
		s->num = !strcmp(arg, "true");
		return 0;
	case F_FLAG:
		s->num = f->value;
		return 0;
	case F_ENUM:
		v = enum_value(e, f, arg, arg, f->what, &set->attrs[f->attr]);
		if (v < 0)
			return -EINVAL;
		s->num = v;
		return 0;
	}
	return -EINVAL;
}

/* ---- the object as it is (set) ---- */

/*
 * The object of the GET's answer, checked whole against the reply's
 * policy and kept; a reply that fails the check is not taken, and why is
 * kept for the caller to say.
 */
static int keep_object(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	const struct nlattr *top[VS_A_MAX + 1];
	struct edit *e = arg;
	void *copy;

	if (vsnl_codec_parse_msg(&vsnl_codec_reply, nlh, GENL_HDRLEN, top, 0, &e->cur_err) ||
	    !top[e->k->attr])
		return 0;
	copy = edit_alloc(e, top[e->k->attr]->nla_len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, top[e->k->attr], top[e->k->attr]->nla_len);
	e->cur = copy;
	return 0;
}

struct seeding {
	struct edit *e;
	struct slot *s;
};

static int seed_res(const char *dim, u64 value, void *arg)
{
	struct seeding *sd = arg;

	return res_set(sd->e, sd->s, dim, (s64)value, NULL);
}

static int seed_label(const char *key, const char *value, void *arg)
{
	struct seeding *sd = arg;
	struct item *it = item_add(sd->e, sd->s, NULL);

	if (!it)
		return -ENOMEM;
	it->key = key;
	it->value = value;
	return 0;
}

/* Every taint (attribute @type, repeated) of the object. */
static int seed_taints(struct edit *e, u16 type, struct slot *s)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, e->cur) {
		struct vsnl_taint t;
		struct item *it;

		if (mnl_attr_get_type(a) != type || !vsnl_read_taint(a, &t))
			continue;
		it = item_add(e, s, NULL);
		if (!it)
			return -ENOMEM;
		it->key = t.key;
		it->value = t.value;
		it->effect = t.effect;
	}
	return 0;
}

/*
 * Start the attributes the options replace whole from the object's own:
 * what the options then say is a change to them. 0, or -ENOMEM.
 */
static int seed(struct edit *e, const struct field *fields)
{
	const struct nlattr *tb[NR_SLOTS] = { NULL };
	const struct nlattr *a;
	int ret = 0;

	mnl_attr_for_each_nested(a, e->cur)
		if (mnl_attr_get_type(a) < NR_SLOTS)
			tb[mnl_attr_get_type(a)] = a;
	for (const struct field *f = fields; f->opt && !ret; f++) {
		struct slot *s = &e->slot[f->attr];
		struct seeding sd = { e, s };

		switch (s->shape) {	/* SH_NONE: no option names it, or seeded already */
		case SH_RES:
			ret = tb[f->attr] ? vsnl_read_res(tb[f->attr], seed_res, &sd) : 0;
			break;
		case SH_LABELS:
			ret = tb[f->attr] ? vsnl_read_labels(tb[f->attr], seed_label, &sd) : 0;
			break;
		case SH_TAINTS:
			ret = seed_taints(e, f->attr, s);
			break;
		default:
			break;
		}
		s->shape = SH_NONE;
	}
	return ret;
}

/* ---- the request ---- */

/* A request being built in a buffer, with the codec; @err says why a put failed. */
struct req {
	struct nlmsghdr *nlh;
	size_t cap;
	struct vsnl_err err;
};

static struct nlattr *req_nest(struct req *r, const struct vsnl_codec_set *set, u16 type)
{
	return vsnl_codec_nest_start(r->nlh, r->cap, set, type, &r->err);
}

/*
 * The resource list @s as attribute @type of @set: cpu, memory and pods,
 * then the scalars. -EINVAL with @r->err and the option the refused entry
 * came from in *@from.
 */
static int put_res(struct req *r, const struct vsnl_codec_set *set, u16 type,
		   const struct slot *s, const char **from)
{
	static const struct { const char *dim; u16 type; } fixed[] = {
		{ "cpu", VS_RES_A_CPU }, { "memory", VS_RES_A_MEMORY }, { "pods", VS_RES_A_PODS },
	};
	const struct vsnl_codec_set *res = set->attrs[type].nested;
	struct nlattr *nest = req_nest(r, set, type), *scalar;
	size_t k;

	if (!nest)
		return -EINVAL;
	for (k = 0; k < ARRAY_SIZE(fixed); k++) {
		for (u32 i = 0; i < s->nr; i++) {
			if (strcmp(s->items[i].key, fixed[k].dim))
				continue;
			*from = s->items[i].arg;
			if (vsnl_codec_put_uint(r->nlh, r->cap, res, fixed[k].type,
						(u64)s->items[i].num, &r->err))
				return -EINVAL;
		}
	}
	for (u32 i = 0; i < s->nr; i++) {
		const struct item *it = &s->items[i];

		for (k = 0; k < ARRAY_SIZE(fixed) && strcmp(it->key, fixed[k].dim); k++)
			;
		if (k < ARRAY_SIZE(fixed))
			continue;
		*from = it->arg;
		scalar = req_nest(r, res, VS_RES_A_SCALAR);
		if (!scalar ||
		    vsnl_codec_put_str(r->nlh, r->cap, &vsnl_codec_scalar, VS_SCALAR_A_NAME,
				       it->key, &r->err) ||
		    vsnl_codec_put_uint(r->nlh, r->cap, &vsnl_codec_scalar, VS_SCALAR_A_VALUE,
					(u64)it->num, &r->err))
			return -EINVAL;
		mnl_attr_nest_end(r->nlh, scalar);
	}
	mnl_attr_nest_end(r->nlh, nest);
	return 0;
}

/* A member's matchLabels: a nest of labels even when there is none, for it is the selector. */
static int put_match_labels(struct req *r, const struct item *it)
{
	struct nlattr *labels = vsnl_hn_member_start_match_labels(r->nlh, r->cap, &r->err), *kv;

	if (!labels)
		return -EINVAL;
	for (u32 i = 0; i < it->res.nr; i++) {
		kv = vsnl_labels_start_item(r->nlh, r->cap, &r->err);
		if (!kv || vsnl_kv_put_key(r->nlh, r->cap, it->res.items[i].key, &r->err) ||
		    vsnl_kv_put_value(r->nlh, r->cap, it->res.items[i].value, &r->err))
			return -EINVAL;
		mnl_attr_nest_end(r->nlh, kv);
	}
	mnl_attr_nest_end(r->nlh, labels);
	return 0;
}

/* One entry of a list attribute, a nest of @set (the item's own set). */
static int put_item(struct req *r, const struct vsnl_codec_set *set, enum shape shape,
		    const struct item *it)
{
	struct nlmsghdr *nlh = r->nlh;
	const char *from;		/* a task group's request: the group's own option */
	size_t cap = r->cap;

	switch (shape) {
	case SH_LABELS:
		if (vsnl_kv_put_key(nlh, cap, it->key, &r->err) ||
		    vsnl_kv_put_value(nlh, cap, it->value, &r->err))
			return -EINVAL;
		return 0;
	case SH_TAINTS:
		if (vsnl_taint_put_key(nlh, cap, it->key, &r->err) ||
		    (it->value && vsnl_taint_put_value(nlh, cap, it->value, &r->err)) ||
		    vsnl_taint_put_effect(nlh, cap, it->effect, &r->err))
			return -EINVAL;
		return 0;
	case SH_TOLS:
		if ((*it->key && vsnl_toleration_put_key(nlh, cap, it->key, &r->err)) ||
		    vsnl_toleration_put_operator(nlh, cap, it->op, &r->err) ||
		    (it->value && vsnl_toleration_put_value(nlh, cap, it->value, &r->err)) ||
		    vsnl_toleration_put_effect(nlh, cap, it->effect, &r->err))
			return -EINVAL;
		return 0;
	case SH_VTASKS:
		if (vsnl_vtask_put_name(nlh, cap, it->key, &r->err) ||
		    vsnl_vtask_put_replicas(nlh, cap, (u32)it->num, &r->err) ||
		    (it->has_res && put_res(r, set, VS_VTASK_A_REQUEST, &it->res, &from)))
			return -EINVAL;
		return 0;
	case SH_PORTS:
		if (vsnl_host_port_put_port(nlh, cap, (u32)it->num, &r->err) ||
		    vsnl_host_port_put_protocol(nlh, cap, it->op, &r->err) ||
		    (it->value && *it->value && vsnl_host_port_put_ip(nlh, cap, it->value, &r->err)))
			return -EINVAL;
		return 0;
	case SH_NODE_IMAGES:
		for (u32 i = 0, off = 0; i < it->op; i++, off += (u32)strlen(it->value + off) + 1)
			if (vsnl_node_image_put_name(nlh, cap, it->value + off, &r->err))
				return -EINVAL;
		return vsnl_node_image_put_size(nlh, cap, (u64)it->num, &r->err) ? -EINVAL : 0;
	case SH_POLICIES:
		if (vsnl_lifecycle_put_event(nlh, cap, it->key, &r->err) ||
		    vsnl_lifecycle_put_action(nlh, cap, it->value, &r->err))
			return -EINVAL;
		return 0;
	case SH_MEMBERS:
		if (vsnl_hn_member_put_type(nlh, cap, (u32)it->num, &r->err))
			return -EINVAL;
		if (it->op == HN_LABELS)
			return put_match_labels(r, it);
		if ((it->op == HN_EXACT ? vsnl_hn_member_put_exact_name :
					  vsnl_hn_member_put_regex_pattern)(nlh, cap, it->value, &r->err))
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
}

/*
 * The list @s as attribute @type of @set: the labels one nest of items,
 * the others the attribute repeated. -EINVAL with @r->err and the option
 * the refused entry came from in *@from.
 */
static int put_items(struct req *r, const struct vsnl_codec_set *set, u16 type,
		     const struct slot *s, const char **from)
{
	const struct vsnl_codec_set *items = set->attrs[type].nested;
	struct nlattr *outer = NULL, *nest;

	if (s->shape == SH_LABELS && !(outer = req_nest(r, set, type)))
		return -EINVAL;
	for (u32 i = 0; s->shape == SH_STRS && i < s->nr; i++) {
		*from = s->items[i].arg;
		if (vsnl_codec_put_str(r->nlh, r->cap, set, type, s->items[i].arg, &r->err))
			return -EINVAL;
	}
	for (u32 i = 0; s->shape != SH_STRS && i < s->nr; i++) {
		*from = s->items[i].arg;
		nest = s->shape == SH_LABELS ? req_nest(r, items, VS_LABELS_A_ITEM) :
					       req_nest(r, set, type);
		if (!nest || put_item(r, s->shape == SH_LABELS ? &vsnl_codec_kv : items,
				      s->shape, &s->items[i]))
			return -EINVAL;
		mnl_attr_nest_end(r->nlh, nest);
	}
	if (outer)
		mnl_attr_nest_end(r->nlh, outer);
	return 0;
}

static int put_nt(struct req *r, const struct vsnl_codec_set *set, u16 type,
		  const struct slot *s)
{
	const struct vsnl_codec_set *nt = set->attrs[type].nested;
	struct nlattr *nest = vsnl_codec_nest_start(r->nlh, r->cap, set, type, &r->err);
	int ret;

	if (!nest)
		return r->err.err ?: -EMSGSIZE;
	ret = vsnl_codec_put_int(r->nlh, r->cap, nt, VS_NT_A_MODE, s->num, &r->err);
	if (!ret && s->has_tier)
		ret = vsnl_codec_put_int(r->nlh, r->cap, nt, VS_NT_A_HIGHEST_TIER, s->tier, &r->err);
	if (!ret && s->str)
		ret = vsnl_codec_put_str(r->nlh, r->cap, nt, VS_NT_A_HIGHEST_TIER_NAME, s->str,
					 &r->err);
	if (!ret)
		mnl_attr_nest_end(r->nlh, nest);
	return ret;
}

static int put_slot(struct req *r, const struct vsnl_codec_set *set, u16 type,
		    const struct slot *s, const char **from)
{
	*from = s->arg;
	switch (s->shape) {
	case SH_NONE:
		return 0;
	case SH_INT:
		/* a flag attribute is there or not (F_FLAG with a value of 1) */
		if (set->attrs[type].type == VSNL_CODEC_FLAG)
			return s->num ? vsnl_codec_put_flag(r->nlh, r->cap, set, type, &r->err) : 0;
		return vsnl_codec_put_int(r->nlh, r->cap, set, type, s->num, &r->err);
	case SH_STR:
		return vsnl_codec_put_str(r->nlh, r->cap, set, type, s->str, &r->err);
	case SH_RES:
		return put_res(r, set, type, s, from);
	case SH_NT:
		return put_nt(r, set, type, s);
	default:
		return put_items(r, set, type, s, from);
	}
}

/*
 * Replacing an object: the rest of its spec, as it was read back (every
 * attribute a request may carry that no option changed), checked by the
 * reply's policy when it was read.
 */
static int put_rest(struct req *r, const struct edit *e, const struct vsnl_codec_set *set)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, e->cur) {
		u16 type = mnl_attr_get_type(a);
		const struct vsnl_codec_attr *pol = type <= set->maxattr ? &set->attrs[type] : NULL;

		if (type == e->k->a_ns || type == e->k->a_name || !pol ||
		    pol->type == VSNL_CODEC_UNSPEC || pol->type == VSNL_CODEC_REJECT ||
		    (pol->flags & (VSNL_CODEC_F_RO | VSNL_CODEC_F_RESTORE)) ||
		    (type < NR_SLOTS && e->slot[type].shape != SH_NONE))
			continue;
		if (!mnl_attr_put_check(r->nlh, r->cap, a->nla_type, mnl_attr_get_payload_len(a),
					mnl_attr_get_payload(a)))
			return vsnl_err_set(&r->err, EMSGSIZE, "%s: no room in the message",
					    set->name);
	}
	return 0;
}

/* What object_request() sends besides the key. */
enum req_mode {
	REQ_KEY,		/* nothing: a GET */
	REQ_SLOTS,		/* every slot an option filled */
	REQ_REPLACE,		/* a NEW that replaces the object: the rest of its spec too */
};

/*
 * Send @cmd with the key in the kind's nest, built against @set, and what
 * @mode says; replies go to @cb. Returns the command's exit status: 0, 1
 * when the daemon refused (said), or 2 when the codec refused an option's
 * value before anything was sent (said, naming the option).
 */
static int object_request(struct edit *e, u8 cmd, const struct vsnl_codec_set *set,
			  const struct vsctl_key *key, enum req_mode mode, vsnl_cb cb)
{
	struct req r = { .cap = VS_MSG_MAX };
	const struct field *f = NULL;
	const char *from = NULL;
	struct nlattr *nest;
	/* zeroed: libmnl leaves the padding of what it puts as it was */
	void *buf = calloc(1, r.cap);
	int ret = -EINVAL;

	r.nlh = buf ? vsnl_msg_put(buf, r.cap, cmd, mode == REQ_REPLACE ? NLM_F_REPLACE : 0) : NULL;
	if (!r.nlh) {
		free(buf);
		return vsctl_fail(-ENOMEM, NULL);
	}
	nest = vsnl_codec_nest_start(r.nlh, r.cap, &vsnl_codec_vsched, e->k->attr, &r.err);
	if (!nest || (e->k->a_ns && vsnl_codec_put_str(r.nlh, r.cap, set, e->k->a_ns, key->ns,
						       &r.err)) ||
	    vsnl_codec_put_str(r.nlh, r.cap, set, e->k->a_name, key->name, &r.err))
		goto refused;
	for (u16 a = 1; mode != REQ_KEY && a < NR_SLOTS; a++) {
		f = e->slot[a].f;
		if (put_slot(&r, set, a, &e->slot[a], &from))
			goto refused;
	}
	from = NULL;
	if (mode == REQ_REPLACE && put_rest(&r, e, set))
		goto refused;
	mnl_attr_nest_end(r.nlh, nest);
	ret = vsctl_request(e->socket, nlmsg_convert(r.nlh), cb, e);
	free(buf);
	return ret;
refused:
	free(buf);
	if (!from || !f)
		return vsctl_fail(r.err.err ? r.err.err : ret, &r.err);
	fprintf(stderr, "%s: --%s \"%s\": %s\n", e->prog, f->opt, from, r.err.msg);
	return 2;
}

/* ---- the commands ---- */

/* What a command takes besides its options: the key and, for some, one word more. */
struct verb {
	const char *what;		/* for --help: what it does, of_kind: then the kind */
	bool of_kind;
	const struct field *fields;	/* NULL: the kind's */
	const char *extra;		/* a second operand, "EVENT" */
	bool set;
	const struct vsnl_codec_set *codec;	/* the options' policies; NULL: the kind's */
};

static void edit_usage(FILE *out, const struct edit *e, const struct verb *v,
		       const struct field *fields, bool full)
{
	fprintf(out, "usage: %s [--socket PATH]%s %s%s%s%s\n", e->prog,
		e->k->a_ns ? " [-n NAMESPACE]" : "", e->k->a_ns ? "[NAMESPACE/]NAME" : "NAME",
		v->extra ? " " : "", v->extra ? v->extra : "", fields->opt ? " [OPTIONS]" : "");
	if (!full)
		return;
	if (v->of_kind)
		fprintf(out, "\n%s %s.\n\noptions:\n", v->what, e->k->what);
	else
		fprintf(out, "\n%s\n\noptions:\n", v->what);
	vsctl_print_option(out, "--socket PATH", "the daemon's socket (default $" VSCHED_SOCKET_ENV
			   ", else " VSCHED_SOCKET_DEFAULT ")");
	if (e->k->a_ns)
		vsctl_print_option(out, "-n, --namespace NS",
				   "the namespace of a NAME without one (default \"default\")");
	for (const struct field *f = fields; f->opt; f++) {
		char opt[64];

		snprintf(opt, sizeof(opt), "--%s%s%s", f->opt, f->arg ? " " : "",
			 f->arg ? f->arg : "");
		vsctl_print_option(out, opt, f->help);
	}
}

enum { OPT_SOCKET = 0x100, OPT_FIELD = 0x200 };

#define MAX_FIELDS	32		/* the options of a kind, at most */

/*
 * Read the command line into @e (the options' values in its slots) and
 * @key; the operands after the key in @extra. 0, -1 for --help (said), or
 * 2 for a usage error (said).
 */
static int parse(int argc, char **argv, struct edit *e, const struct verb *v,
		 struct vsctl_key *key, const char **extra)
{
	const struct field *fields = v->fields ? v->fields : fields_of(e->k);
	const struct vsnl_codec_set *codec = v->codec ? v->codec : request_set(e);
	struct option longopts[MAX_FIELDS + 4] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "namespace", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
	};
	bool seen[MAX_FIELDS] = { false };
	size_t nr = 3, i;
	int c;

	for (i = 0; fields[i].opt && i < MAX_FIELDS; i++)
		longopts[nr++] = (struct option){ fields[i].opt,
			fields[i].type == F_FLAG ? no_argument : required_argument, NULL,
			OPT_FIELD + (int)i };
	for (i = 0; fields[i].opt && !e->set; i++)
		if (fields[i].def && apply(e, codec, &fields[i], fields[i].def))
			return vsctl_fail(-ENOMEM, NULL);
	optind = 1;
	while ((c = getopt_long(argc, argv, "n:h", longopts, NULL)) != -1) {
		const struct field *f = c >= OPT_FIELD ? &fields[c - OPT_FIELD] : NULL;

		if (c == OPT_SOCKET) {
			e->socket = optarg;
		} else if (c == 'n' && e->k->a_ns) {
			e->ns = optarg;
		} else if (c == 'h') {
			edit_usage(stdout, e, v, fields, true);
			return -1;
		} else if (f) {
			int ret = apply(e, codec, f, f->type == F_FLAG ? "" : optarg);

			if (ret)
				return ret == -ENOMEM ? vsctl_fail(ret, NULL) : 2;
			seen[c - OPT_FIELD] = true;
		} else {
			if (c == 'n')
				fprintf(stderr, "%s: a %s belongs to no namespace (-n)\n", e->prog,
					e->k->what);
			edit_usage(stderr, e, v, fields, false);
			return 2;
		}
	}
	for (i = 0; fields[i].opt && i < MAX_FIELDS; i++) {
		if ((fields[i].flags & REQUIRED) && !e->set && !seen[i]) {
			fprintf(stderr, "%s: --%s is required\n", e->prog, fields[i].opt);
			return 2;
		}
	}
	if (argc - optind != (v->extra ? 2 : 1)) {
		fprintf(stderr, "%s: expected %s%s%s\n", e->prog,
			e->k->a_ns ? "[NAMESPACE/]NAME" : "NAME", v->extra ? " and " : "",
			v->extra ? v->extra : "");
		edit_usage(stderr, e, v, fields, false);
		return 2;
	}
	if (vsctl_key_parse(e->prog, e->k, e->ns, argv[optind], key))
		return 2;
	if (extra)
		*extra = v->extra ? argv[optind + 1] : NULL;
	return 0;
}

static void edit_init(struct edit *e, const char *prog, bool set)
{
	memset(e, 0, sizeof(*e));
	e->prog = prog;
	e->k = vsctl_kind_of(prog);
	e->set = set;
}

static int edit_done(struct edit *e, int ret)
{
	while (e->nr_mem)
		free(e->mem[--e->nr_mem]);
	free(e->mem);
	return ret < 0 ? 0 : ret;	/* --help */
}

/* GET the object and start from it; then the options again, over it. */
static int read_back(struct edit *e, int argc, char **argv, const struct verb *v,
		     const struct vsctl_key *key)
{
	struct vsctl_key again;
	int ret;

	ret = object_request(e, e->k->cmd_get, request_set(e), key, REQ_KEY, keep_object);
	if (ret)
		return ret;
	if (e->cur_err.err) {
		fprintf(stderr, "vsctl: error: the %s read back: %s\n", e->k->what, e->cur_err.msg);
		return 1;
	}
	if (!e->cur) {
		fprintf(stderr, "vsctl: error: the daemon's answer carries no %s\n", e->k->what);
		return 1;
	}
	ret = seed(e, v->fields ? v->fields : fields_of(e->k));
	if (ret)
		return ret == -ENOMEM ? vsctl_fail(ret, NULL) : 1;
	/* the same text, read the same way: it cannot fail now */
	return parse(argc, argv, e, v, &again, NULL) ? 1 : 0;
}

/*
 * add sends NEW; set sends SET, but for one case: the last taint taken
 * off. Taints repeat, and a SET without any keeps the node's, so that one
 * is a NEW that replaces the node with its spec as it was read, less them.
 */
static int add_or_set(int argc, char **argv, const struct verb *v)
{
	struct vsctl_key key;
	struct edit e;
	bool replace;
	int ret;

	edit_init(&e, argv[0], v->set);
	ret = parse(argc, argv, &e, v, &key, NULL);
	if (ret)
		return edit_done(&e, ret);
	if (e.slot[VS_TASK_A_PODGROUP].shape && e.slot[VS_TASK_A_QUEUE].shape &&
	    e.k->attr == VS_A_TASK) {
		fprintf(stderr, "%s: --queue is for a task without --podgroup (the PodGroup's "
			"queue is the task's)\n", e.prog);
		return edit_done(&e, 2);
	}
	if (v->set) {
		u16 touched = 0;

		/* the options were only checked: they apply to the object as it is */
		for (u16 a = 1; a < NR_SLOTS; a++) {
			touched += e.slot[a].shape != SH_NONE;
			e.slot[a] = (struct slot){ .shape = e.slot[a].shape };
		}
		if (!touched) {
			fprintf(stderr, "%s: nothing to change (\"%s --help\" lists the options)\n",
				e.prog, e.prog);
			return edit_done(&e, 2);
		}
		ret = read_back(&e, argc, argv, v, &key);
		if (ret)
			return edit_done(&e, ret);
	}
	replace = false;
	for (u16 a = 1; v->set && a < NR_SLOTS; a++)
		replace |= e.slot[a].shape == SH_TAINTS && !e.slot[a].nr;
	ret = object_request(&e, v->set && !replace ? e.k->cmd_set : e.k->cmd_new,
			     request_set(&e), &key, replace ? REQ_REPLACE : REQ_SLOTS, NULL);
	return edit_done(&e, ret);
}

int vsctl_obj_add(int argc, char **argv)
{
	static const struct verb add = { .what = "Create one", .of_kind = true };

	return add_or_set(argc, argv, &add);
}

int vsctl_obj_set(int argc, char **argv)
{
	static const struct verb set = { .what = "Change what the options name, and only that, "
						 "of one", .of_kind = true, .set = true };

	return add_or_set(argc, argv, &set);
}

/* cordon, uncordon: the node's spec.unschedulable. */
static int cordon(int argc, char **argv, bool on)
{
	static const struct verb v[2] = {
		{ .what = "Let the scheduler place tasks on the node again.", .fields = no_fields },
		{ .what = "Mark the node unschedulable: what runs there stays, nothing new "
			  "is placed there.", .fields = no_fields },
	};
	struct vsctl_key key;
	struct edit e;
	int ret;

	edit_init(&e, argv[0], true);
	ret = parse(argc, argv, &e, &v[on], &key, NULL);
	if (ret)
		return edit_done(&e, ret);
	e.slot[VS_NODE_A_UNSCHEDULABLE] = (struct slot){ .shape = SH_INT, .num = on };
	ret = object_request(&e, e.k->cmd_set, request_set(&e), &key, REQ_SLOTS, NULL);
	return edit_done(&e, ret);
}

int vsctl_node_cordon(int argc, char **argv)
{
	return cordon(argc, argv, true);
}

int vsctl_node_uncordon(int argc, char **argv)
{
	return cordon(argc, argv, false);
}

/*
 * A user's command, carried out by the object's controller: to a queue
 * (VS_CMD_QUEUE_COMMAND, by name) or to a VolcanoJob (VS_CMD_VJOB_COMMAND,
 * by namespace and name). What it does is the controller's to decide: the
 * daemon refuses only what it cannot run, and vsctl prints that.
 */
static int user_command(int argc, char **argv, const struct verb *v, u32 action)
{
	static unsigned char buf[1024];	/* two names of VS_NAME_MAX and an action */
	struct req r = { .cap = sizeof(buf) };
	const struct vsnl_codec_set *set;
	struct vsctl_key key;
	struct nlattr *nest;
	struct edit e;
	bool vjob;
	int ret;

	edit_init(&e, argv[0], true);
	ret = parse(argc, argv, &e, v, &key, NULL);
	if (ret)
		return edit_done(&e, ret);
	vjob = e.k->attr == VS_A_VJOB;
	set = vjob ? &vsnl_codec_command : &vsnl_codec_queue_command;
	r.nlh = vsnl_msg_put(buf, r.cap, vjob ? VS_CMD_VJOB_COMMAND : VS_CMD_QUEUE_COMMAND, 0);
	nest = vsnl_vsched_start_command(r.nlh, r.cap, &r.err);
	if (!nest ||
	    (vjob && vsnl_codec_put_str(r.nlh, r.cap, set, VS_COMMAND_A_NAMESPACE, key.ns,
					&r.err)) ||
	    vsnl_codec_put_str(r.nlh, r.cap, set, VS_COMMAND_A_NAME, key.name, &r.err) ||
	    vsnl_codec_put_uint(r.nlh, r.cap, set, VS_COMMAND_A_ACTION, action, &r.err))
		return edit_done(&e, vsctl_fail(r.err.err, &r.err));
	mnl_attr_nest_end(r.nlh, nest);
	return edit_done(&e, vsctl_request(e.socket, nlmsg_convert(r.nlh), NULL, NULL));
}

/* open, close: the queue controller's commands. */
static int queue_command(int argc, char **argv, u32 action)
{
	static const struct verb open = {
		.what = "Open the queue, and the children its closing closed.",
		.fields = no_fields,
	};
	static const struct verb close = {
		.what = "Close the queue and its open children: it admits no new PodGroup; it is "
			"Closing while PodGroups remain.",
		.fields = no_fields,
	};

	return user_command(argc, argv, action == VS_ACTION_OPEN_QUEUE ? &open : &close, action);
}

int vsctl_queue_open(int argc, char **argv)
{
	return queue_command(argc, argv, VS_ACTION_OPEN_QUEUE);
}

int vsctl_queue_close(int argc, char **argv)
{
	return queue_command(argc, argv, VS_ACTION_CLOSE_QUEUE);
}

/*
 * abort, restart, resume, terminate, complete: the job controller's commands,
 * Volcano's bus actions ("vcctl job suspend" sends AbortJob, "resume"
 * ResumeJob). The job's phase decides what each does (the state table of
 * controllers.md), and no phase refuses one: --help says what it does to a
 * Pending or Running job.
 */
#define JOB_PHASES	"\nThe job's phase decides (Documentation/controllers.md): a Completed,\n" \
			"Terminated or Failed job stays as it is."

static const struct verb job_verbs[] = {
	[VS_ACTION_ABORT_JOB] = {
		.what = "Abort the job (AbortJob): its pending and running tasks are killed, the\n"
			"finished ones kept; it is Aborting, then Aborted once no task is alive.\n"
			"\"vsctl job resume\" runs it again." JOB_PHASES,
		.fields = no_fields,
	},
	[VS_ACTION_RESTART_JOB] = {
		.what = "Restart the job (RestartJob): every task is killed and one retry counted;\n"
			"it is Restarting, then Pending, and Failed once its retries reach\n"
			"maxRetry." JOB_PHASES,
		.fields = no_fields,
	},
	[VS_ACTION_TERMINATE_JOB] = {
		.what = "Terminate the job (TerminateJob): its pending and running tasks are\n"
			"killed, the finished ones kept; it is Terminating, then Terminated once\n"
			"no task is alive." JOB_PHASES,
		.fields = no_fields,
	},
	[VS_ACTION_COMPLETE_JOB] = {
		.what = "Complete the job (CompleteJob): its pending and running tasks are\n"
			"killed, the finished ones kept; it is Completing, then Completed once no\n"
			"task is alive." JOB_PHASES,
		.fields = no_fields,
	},
	[VS_ACTION_RESUME_JOB] = {
		.what = "Resume an Aborting or Aborted job (ResumeJob): one retry is counted; it\n"
			"is Restarting, then Pending, and runs again the tasks that did not finish.\n"
			"A Pending or Running job only syncs." JOB_PHASES,
		.fields = no_fields,
	},
};

static int job_command(int argc, char **argv, u32 action)
{
	return user_command(argc, argv, &job_verbs[action], action);
}

int vsctl_job_abort(int argc, char **argv)
{
	return job_command(argc, argv, VS_ACTION_ABORT_JOB);
}

int vsctl_job_restart(int argc, char **argv)
{
	return job_command(argc, argv, VS_ACTION_RESTART_JOB);
}

int vsctl_job_resume(int argc, char **argv)
{
	return job_command(argc, argv, VS_ACTION_RESUME_JOB);
}

int vsctl_job_terminate(int argc, char **argv)
{
	return job_command(argc, argv, VS_ACTION_TERMINATE_JOB);
}

int vsctl_job_complete(int argc, char **argv)
{
	return job_command(argc, argv, VS_ACTION_COMPLETE_JOB);
}

/* What the outside world reports of a pod: running, succeeded, failed, deleting, deleted, ungated. */
int vsctl_task_status(int argc, char **argv)
{
	static const struct verb v = {
		.what = "Report what became of the task's pod, as the kubelet would: EVENT is "
			"running, succeeded, failed, deleting, deleted, ungated (its scheduling "
			"gates went) or nominated (its status.nominatedNodeName changed).",
		.fields = exit_code_fields, .extra = "EVENT", .codec = &vsnl_codec_task_status,
	};
	struct vsctl_key key;
	const char *event;
	struct edit e;
	int ret, ev;

	edit_init(&e, argv[0], true);
	ret = parse(argc, argv, &e, &v, &key, &event);
	if (ret)
		return edit_done(&e, ret);
	ev = enum_value(&e, NULL, NULL, event, "task event",
			&vsnl_codec_task_status.attrs[VS_TASK_A_EVENT]);
	if (ev < 0)
		return edit_done(&e, 2);
	if (e.slot[VS_TASK_A_EXIT_CODE].shape && ev != VS_TASK_EVENT_FAILED) {
		fprintf(stderr, "%s: --exit-code goes with failed only\n", e.prog);
		return edit_done(&e, 2);
	}
	if (e.slot[VS_TASK_A_NOMINATED_NODE].shape && ev != VS_TASK_EVENT_NOMINATED) {
		fprintf(stderr, "%s: --node goes with nominated only\n", e.prog);
		return edit_done(&e, 2);
	}
	e.slot[VS_TASK_A_EVENT] = (struct slot){ .shape = SH_INT, .num = ev };
	ret = object_request(&e, VS_CMD_TASK_STATUS, &vsnl_codec_task_status, &key, REQ_SLOTS,
			     NULL);
	return edit_done(&e, ret);
}
