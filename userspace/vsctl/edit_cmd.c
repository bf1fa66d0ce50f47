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
 *
 * Every option is one row of its kind's table below: the attribute it
 * writes and how its text is read. Text is read with the core's own parsers
 * (quantities, names, label keys, taint effects, enums), so that vsctl
 * refuses what the daemon would, before anything is sent, naming the option
 * (exit 2); what only the daemon can judge (a queue that does not exist) it
 * answers, and vsctl prints that (exit 1).
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
#include <libmnl/libmnl.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "core/arena.h"
#include "core/enum.h"
#include "core/labels.h"
#include "core/names.h"
#include "core/res.h"
#include "core/task.h"
#include "core/vjob.h"
#include "lib/codec_gen.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "netlink/family.h"
#include "netlink/fill.h"
#include "netlink/parse.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/vsctl.h"

#define S32_MIN		(-2147483647LL - 1)
#define S32_MAX		2147483647LL

/* How an option's text is read. */
enum field_type {
	F_RES,		/* one resource of a list: --cpu Q (@dim); @dim NULL: --res NAME=Q */
	F_RESLIST,	/* a whole resource list: cpu=4,memory=8Gi */
	F_LABEL,	/* KEY=VALUE into a label set (set: KEY- takes it out) */
	F_TAINT,	/* KEY[=VALUE]:EFFECT (set: KEY[:EFFECT]- takes it out) */
	F_TOLERATION,	/* KEY[=VALUE][:EFFECT] */
	F_VTASK,	/* a VolcanoJob's task group: NAME:REPLICAS[:RES] */
	F_POLICY,	/* a VolcanoJob's lifecycle policy: EVENT=ACTION */
	F_NAME,		/* another object's name: a DNS subdomain */
	F_VALUE,	/* text that is a label value (a role) */
	F_U32,		/* a number in @min..@max */
	F_S32,
	F_BOOL,		/* true or false */
	F_FLAG,		/* no text: the value @min */
	F_ENUM,		/* a name @parse knows */
};

/* What an attribute of the request holds; each field type fills one. */
enum shape {
	SH_NONE,
	SH_U8, SH_U32, SH_STR, SH_RES,
	SH_LABELS, SH_TAINTS, SH_TOLS, SH_VTASKS, SH_POLICIES,
};

static const enum shape shape_of[] = {
	[F_RES] = SH_RES, [F_RESLIST] = SH_RES, [F_LABEL] = SH_LABELS, [F_TAINT] = SH_TAINTS,
	[F_TOLERATION] = SH_TOLS, [F_VTASK] = SH_VTASKS, [F_POLICY] = SH_POLICIES,
	[F_NAME] = SH_STR, [F_VALUE] = SH_STR, [F_U32] = SH_U32, [F_S32] = SH_U32,
	[F_BOOL] = SH_U8, [F_FLAG] = SH_U8, [F_ENUM] = SH_U32,
};

#define REQUIRED	0x1		/* add needs it */

struct field {
	const char *opt;		/* "cpu" for --cpu */
	enum field_type type;
	u16 attr;			/* in the object's nest */
	const char *dim;		/* F_RES: the resource */
	long long min, max;		/* F_U32, F_S32; F_FLAG: the value, in min */
	int (*parse)(const char *s, u32 *out, struct vs_err *err);	/* F_ENUM */
	const char *arg;		/* "Q", for --help */
	const char *help;
	unsigned int flags;
	const char *def;		/* add: read first, as if given (others may override it) */
};

/* One entry of a list attribute: a label, taint, toleration, task group or policy. */
struct item {
	const char *key, *value;	/* value NULL: none */
	u32 effect, op, replicas;
	bool has_res;
	struct vs_res res;
};

/* The value of one attribute, as the options build it. */
struct slot {
	enum shape shape;		/* SH_NONE: not in the request */
	u64 num;
	const char *str;
	struct vs_res res;
	struct item *items;
	u32 nr;
};

/* Slots by attribute type, for every kind's set: the task's is the largest. */
#define NR_SLOTS	(VS_TASK_A_MAX + 1)
BUILD_BUG_ON(VS_NODE_A_MAX >= NR_SLOTS || VS_QUEUE_A_MAX >= NR_SLOTS ||
	     VS_PG_A_MAX >= NR_SLOTS || VS_VJOB_A_MAX >= NR_SLOTS || VS_PC_A_MAX >= NR_SLOTS);

struct edit {
	const char *prog;
	const struct vsctl_kind *k;
	bool set;			/* changing an object that exists */
	const char *socket, *ns;
	struct vs_arena arena;		/* items, copies, the object read back */
	struct slot slot[NR_SLOTS];
	const struct nlattr *cur;	/* set: the object as GET returned it */
	/* The names of the resources given, only to put them in the request. */
	struct vs_res_dims dims;
};

/* ---- enums ---- */

static int parse_preemption(const char *s, u32 *out, struct vs_err *err)
{
	enum vs_preemption_policy p;
	int ret;

	if (!*s)	/* the core reads "" as the default; here it is a mistake */
		return vs_err_set(err, EINVAL, "empty (PreemptLowerPriority or Never)");
	ret = vs_preemption_policy_parse(s, &p, err);
	if (!ret)
		*out = p;
	return ret;
}

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
	{ "unschedulable", F_FLAG, VS_NODE_A_UNSCHEDULABLE, .min = 1,
	  .help = "cordoned: no new task is placed on it" },
	{ "schedulable", F_FLAG, VS_NODE_A_UNSCHEDULABLE, .min = 0,
	  .help = "not cordoned (the default)" },
	{ "not-ready", F_FLAG, VS_NODE_A_READY, .min = 0, .help = "its Ready condition false" },
	{ "ready", F_FLAG, VS_NODE_A_READY, .min = 1,
	  .help = "its Ready condition true (the default)" },
	{ 0 }
};

static const struct field queue_fields[] = {
	{ "weight", F_U32, VS_QUEUE_A_WEIGHT, .min = 1, .max = S32_MAX, .arg = "N",
	  .help = "its share of the cluster against other queues (default 1)" },
	{ "capability", F_RESLIST, VS_QUEUE_A_CAPABILITY, .arg = "RES",
	  .help = "the most it may use, as cpu=64,memory=256Gi (default: no limit)" },
	{ "guarantee", F_RESLIST, VS_QUEUE_A_GUARANTEE, .arg = "RES",
	  .help = "what is kept for it whatever else runs" },
	{ "deserved", F_RESLIST, VS_QUEUE_A_DESERVED, .arg = "RES",
	  .help = "what it deserves (capacity plugin)" },
	{ "reclaimable", F_BOOL, VS_QUEUE_A_RECLAIMABLE, .arg = "true|false",
	  .help = "whether others may reclaim what it uses past its share (default true)" },
	{ "priority", F_S32, VS_QUEUE_A_PRIORITY, .min = S32_MIN, .max = S32_MAX, .arg = "N",
	  .help = "its priority among queues" },
	{ "parent", F_NAME, VS_QUEUE_A_PARENT, .arg = "QUEUE",
	  .help = "its parent in a hierarchy of queues" },
	{ 0 }
};

static const struct field pg_fields[] = {
	{ "queue", F_NAME, VS_PG_A_QUEUE, .arg = "QUEUE",
	  .help = "its queue (default \"default\")" },
	{ "min-member", F_U32, VS_PG_A_MIN_MEMBER, .min = 0, .max = S32_MAX, .arg = "N",
	  .help = "how many of its tasks must be placed together (default 1)" },
	{ "min-resources", F_RESLIST, VS_PG_A_MIN_RESOURCES, .arg = "RES",
	  .help = "what it needs to start, as cpu=4,memory=8Gi" },
	{ "priority-class", F_NAME, VS_PG_A_PRIORITY_CLASS, .arg = "PC",
	  .help = "its priority class" },
	{ 0 }
};

static const struct field task_fields[] = {
	{ "podgroup", F_NAME, VS_TASK_A_PODGROUP, .arg = "PG",
	  .help = "its PodGroup, in its namespace (default: one is made for it)" },
	{ "queue", F_NAME, VS_TASK_A_QUEUE, .arg = "QUEUE",
	  .help = "without --podgroup: the queue of the PodGroup made for it" },
	RES_FIELDS(VS_TASK_A_REQUEST, "requested",
		   { "pods", F_RES, VS_TASK_A_REQUEST, "pods", .arg = "N",
		     .help = "requested pods" }),
	{ "priority", F_S32, VS_TASK_A_PRIORITY, .min = S32_MIN, .max = S32_MAX, .arg = "N",
	  .help = "its priority (default: its priority class's, else 1)" },
	{ "priority-class", F_NAME, VS_TASK_A_PRIORITY_CLASS, .arg = "PC",
	  .help = "its priority class" },
	{ "role", F_VALUE, VS_TASK_A_ROLE, .arg = "ROLE",
	  .help = "its role (volcano.sh/task-spec)" },
	{ "label", F_LABEL, VS_TASK_A_LABELS, .arg = "KEY=VALUE",
	  .help = "a label; repeat for more" },
	{ "node-selector", F_LABEL, VS_TASK_A_NODE_SELECTOR, .arg = "KEY=VALUE",
	  .help = "a label its node must have; repeat for more" },
	{ "toleration", F_TOLERATION, VS_TASK_A_TOLERATION, .arg = "KEY[=VALUE][:EFFECT]",
	  .help = "a taint it tolerates: with =VALUE that value only (Equal), else any "
		  "(Exists); an empty KEY is every key, no EFFECT every effect; repeat for more" },
	{ "preemptable", F_BOOL, VS_TASK_A_PREEMPTABLE, .arg = "true|false",
	  .help = "whether it may be preempted (volcano.sh/preemptable)" },
	{ "preemption-policy", F_ENUM, VS_TASK_A_PREEMPTION_POLICY, .parse = parse_preemption,
	  .arg = "POLICY", .help = "PreemptLowerPriority (the default) or Never" },
	{ 0 }
};

static const struct field vjob_fields[] = {
	{ "task", F_VTASK, VS_VJOB_A_TASK, .arg = "NAME:REPLICAS[:RES]", .flags = REQUIRED,
	  .help = "a task group: its name, how many pods, what each requests "
		  "(cpu=1,memory=2Gi); repeat for more" },
	{ "queue", F_NAME, VS_VJOB_A_QUEUE, .arg = "QUEUE",
	  .help = "its queue (default \"default\")" },
	{ "priority-class", F_NAME, VS_VJOB_A_PRIORITY_CLASS, .arg = "PC",
	  .help = "its priority class" },
	{ "min-available", F_U32, VS_VJOB_A_MIN_AVAILABLE, .min = 0, .max = S32_MAX, .arg = "N",
	  .help = "how many pods must run together (default: every task's)" },
	{ "max-retry", F_U32, VS_VJOB_A_MAX_RETRY, .min = 0, .max = S32_MAX, .arg = "N",
	  .help = "how many restarts before it fails (default 3)" },
	{ "policy", F_POLICY, VS_VJOB_A_POLICY, .arg = "EVENT=ACTION",
	  .help = "a lifecycle policy (PodFailed=RestartJob); repeat for more" },
	{ 0 }
};

static const struct field pc_fields[] = {
	{ "value", F_S32, VS_PC_A_VALUE, .min = S32_MIN, .max = S32_MAX, .arg = "N",
	  .flags = REQUIRED, .help = "the priority it gives" },
	{ "preemption-policy", F_ENUM, VS_PC_A_PREEMPTION_POLICY, .parse = parse_preemption,
	  .arg = "POLICY", .help = "PreemptLowerPriority (the default) or Never" },
	{ "global-default", F_FLAG, VS_PC_A_GLOBAL_DEFAULT, .min = 1,
	  .help = "the class of pods that name none" },
	{ "no-global-default", F_FLAG, VS_PC_A_GLOBAL_DEFAULT, .min = 0,
	  .help = "not the global default (the default)" },
	{ 0 }
};

static const struct field exit_code_fields[] = {
	{ "exit-code", F_S32, VS_TASK_A_EXIT_CODE, .min = S32_MIN, .max = S32_MAX, .arg = "N",
	  .help = "with failed: the container's exit code, for the job's policies" },
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
};

static const struct field *fields_of(const struct vsctl_kind *k)
{
	return k->attr < ARRAY_SIZE(kind_fields) && kind_fields[k->attr] ? kind_fields[k->attr] :
									    no_fields;
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

static char *dup_n(struct edit *e, const char *s, size_t n)
{
	char *d = vs_arena_alloc(&e->arena, n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* A new item at the end of @s's list; NULL when memory runs out. */
static struct item *item_add(struct edit *e, struct slot *s)
{
	struct item *items = vs_arena_calloc(&e->arena, s->nr + 1, sizeof(*items));

	if (!items)
		return NULL;
	if (s->nr)
		memcpy(items, s->items, s->nr * sizeof(*items));
	s->items = items;
	return &s->items[s->nr++];
}

static void item_del(struct slot *s, u32 i)
{
	memmove(&s->items[i], &s->items[i + 1], (s->nr - i - 1) * sizeof(*s->items));
	s->nr--;
}

/* "cpu=4,memory=8Gi" into @r, over what it holds. */
static int parse_reslist(struct edit *e, const struct field *f, const char *arg, struct vs_res *r)
{
	const char *p = arg;
	struct vs_err err = { { 0 } };

	if (!*p)
		return bad(e, f, arg, "expected NAME=QUANTITY[,NAME=QUANTITY...]");
	while (*p) {
		size_t n = strcspn(p, ","), name_len;
		const char *eq = memchr(p, '=', n);

		if (!eq)
			return bad(e, f, arg, "\"%.*s\": expected NAME=QUANTITY", (int)n, p);
		name_len = (size_t)(eq - p);
		if (vs_res_set_quantity(&e->dims, r, p, name_len, eq + 1, n - name_len - 1, &err))
			return bad(e, f, arg, "%s", err.msg);
		p += n;
		if (*p == ',' && !*++p)
			return bad(e, f, arg, "a comma with nothing after it");
	}
	return 0;
}

static int check_key(struct edit *e, const struct field *f, const char *arg, const char *key,
		     const char *what)
{
	struct vs_err err = { { 0 } };

	if (vs_check_label_key(key, strlen(key), what, &err))
		return bad(e, f, arg, "%s", err.msg);
	return 0;
}

static int check_value(struct edit *e, const struct field *f, const char *arg, const char *v,
		       const char *what)
{
	struct vs_err err = { { 0 } };

	if (v && vs_check_label_value(v, strlen(v), what, &err))
		return bad(e, f, arg, "%s", err.msg);
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
	if (check_key(e, f, arg, key, "label key") ||
	    check_value(e, f, arg, eq ? eq + 1 : NULL, "label value"))
		return -EINVAL;
	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->items[i].key, key))
			break;
	if (del) {
		if (i < s->nr)
			item_del(s, i);
		return 0;
	}
	it = i < s->nr ? &s->items[i] : item_add(e, s);
	if (!it)
		return -ENOMEM;
	it->key = key;
	it->value = eq + 1;
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
	const char *colon, *eq;
	enum vs_taint_effect effect = VS_TAINT_EFFECT_ALL;
	struct vs_err err = { { 0 } };
	char *text, *key, *value = NULL;
	struct item *it;
	u32 i;

	if (del && !e->set)
		return bad(e, f, arg, "KEY[:EFFECT]- takes a taint off a node: it is for set");
	text = dup_n(e, arg, del ? len - 1 : len);
	if (!text)
		return -ENOMEM;
	colon = strrchr(text, ':');
	if (colon) {
		text[colon - text] = '\0';
		if (vs_taint_effect_parse(colon + 1, false, &effect, &err))
			return bad(e, f, arg, "%s", err.msg);
	} else if (!del) {
		return bad(e, f, arg, "expected KEY[=VALUE]:EFFECT");
	}
	key = text;
	eq = strchr(text, '=');
	if (eq) {
		if (del)
			return bad(e, f, arg, "expected KEY[:EFFECT]- to take a taint off");
		text[eq - text] = '\0';
		value = text + (eq - text) + 1;
	}
	if (check_key(e, f, arg, key, "taint key") || check_value(e, f, arg, value, "taint value"))
		return -EINVAL;
	for (i = 0; i < s->nr; i++) {
		bool same = !strcmp(s->items[i].key, key) &&
			    (effect == VS_TAINT_EFFECT_ALL || s->items[i].effect == effect);

		if (!same)
			continue;
		if (del) {
			item_del(s, i--);
			continue;
		}
		s->items[i].value = value;
		return 0;
	}
	if (del)
		return 0;
	it = item_add(e, s);
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
	struct vs_err err = { { 0 } };
	struct item *it = item_add(e, s);
	char *text = dup_n(e, arg, strlen(arg)), *colon, *eq;
	enum vs_taint_effect effect = VS_TAINT_EFFECT_ALL;

	if (!it || !text)
		return -ENOMEM;
	colon = strrchr(text, ':');
	if (colon) {
		*colon = '\0';
		if (vs_taint_effect_parse(colon + 1, false, &effect, &err))
			return bad(e, f, arg, "%s", err.msg);
	}
	eq = strchr(text, '=');
	if (eq)
		*eq = '\0';
	if (!*text && eq)
		return bad(e, f, arg, "a toleration of every key takes no value");
	if ((*text && check_key(e, f, arg, text, "toleration key")) ||
	    check_value(e, f, arg, eq ? eq + 1 : NULL, "toleration value"))
		return -EINVAL;
	it->key = text;
	it->value = eq ? eq + 1 : NULL;
	it->op = eq ? VS_TOLERATION_OP_EQUAL : VS_TOLERATION_OP_EXISTS;
	it->effect = effect;
	return 0;
}

/* A whole decimal number in @min..@max. */
static bool number_in(const char *s, long long min, long long max, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(s, &end, 10);
	return !errno && end != s && !*end && *out >= min && *out <= max;
}

/* NAME:REPLICAS[:RES] */
static int apply_vtask(struct edit *e, const struct field *f, const char *arg, struct slot *s)
{
	struct vs_err err = { { 0 } };
	struct item *it = item_add(e, s);
	char *text = dup_n(e, arg, strlen(arg)), *num, *res;
	long long n;

	if (!it || !text)
		return -ENOMEM;
	num = strchr(text, ':');
	if (!num)
		return bad(e, f, arg, "expected NAME:REPLICAS[:RES]");
	*num++ = '\0';
	res = strchr(num, ':');
	if (res)
		*res++ = '\0';
	if (vs_check_dns_label(text, strlen(text), "task name", &err))
		return bad(e, f, arg, "%s", err.msg);
	for (u32 i = 0; i + 1 < s->nr; i++)
		if (!strcmp(s->items[i].key, text))
			return bad(e, f, arg, "a second task group \"%s\"", text);
	if (!number_in(num, 1, S32_MAX, &n))
		return bad(e, f, arg, "replicas \"%s\": not a number in 1..%lld", num, S32_MAX);
	it->key = text;
	it->replicas = (u32)n;
	it->has_res = res != NULL;
	return res ? parse_reslist(e, f, res, &it->res) : 0;
}

/* EVENT=ACTION, each as Volcano names them. */
static int apply_policy(struct edit *e, const struct field *f, const char *arg, struct slot *s)
{
	struct vs_err err = { { 0 } };
	struct item *it = item_add(e, s);
	char *text = dup_n(e, arg, strlen(arg)), *eq;
	enum vs_vjob_event event;
	enum vs_vjob_action action;

	if (!it || !text)
		return -ENOMEM;
	eq = strchr(text, '=');
	if (!eq)
		return bad(e, f, arg, "expected EVENT=ACTION");
	*eq = '\0';
	if (vs_vjob_event_parse(text, &event, &err) || vs_vjob_action_parse(eq + 1, &action, &err))
		return bad(e, f, arg, "%s", err.msg);
	it->key = text;
	it->value = eq + 1;
	return 0;
}

/* Read @arg for @f into its attribute's slot. */
static int apply(struct edit *e, const struct field *f, const char *arg)
{
	struct slot *s = &e->slot[f->attr];
	struct vs_err err = { { 0 } };
	long long n;
	u32 v;

	s->shape = shape_of[f->type];
	switch (f->type) {
	case F_RES:
		if (f->dim) {
			if (vs_res_set_quantity(&e->dims, &s->res, f->dim, strlen(f->dim), arg,
						strlen(arg), &err))
				return bad(e, f, arg, "%s", err.msg);
			return 0;
		}
		if (!strchr(arg, '=') || strchr(arg, ','))
			return bad(e, f, arg, "expected NAME=QUANTITY");
		return parse_reslist(e, f, arg, &s->res);
	case F_RESLIST:
		return parse_reslist(e, f, arg, &s->res);
	case F_LABEL:
		return apply_label(e, f, arg, s);
	case F_TAINT:
		return apply_taint(e, f, arg, s);
	case F_TOLERATION:
		return apply_toleration(e, f, arg, s);
	case F_VTASK:
		return apply_vtask(e, f, arg, s);
	case F_POLICY:
		return apply_policy(e, f, arg, s);
	case F_NAME:
		if (vs_check_dns_subdomain(arg, strlen(arg), "name", &err))
			return bad(e, f, arg, "%s", err.msg);
		s->str = arg;
		return 0;
	case F_VALUE:
		if (!*arg || vs_check_label_value(arg, strlen(arg), f->opt, &err))
			return bad(e, f, arg, "%s", *arg ? err.msg : "empty");
		s->str = arg;
		return 0;
	case F_U32:
	case F_S32:
		if (!number_in(arg, f->min, f->max, &n))
			return bad(e, f, arg, "not a number in %lld..%lld", f->min, f->max);
		s->num = (u32)n;
		return 0;
	case F_BOOL:
		if (strcmp(arg, "true") && strcmp(arg, "false"))
			return bad(e, f, arg, "not true or false");
		s->num = !strcmp(arg, "true");
		return 0;
	case F_FLAG:
		s->num = (u64)f->min;
		return 0;
	case F_ENUM:
		if (f->parse(arg, &v, &err))
			return bad(e, f, arg, "%s", err.msg);
		s->num = v;
		return 0;
	}
	return -EINVAL;
}

/* ---- the object as it is (set) ---- */

static int keep_object(const struct nlmsghdr *nlh, struct nlattr **tb, void *arg)
{
	struct edit *e = arg;
	const struct nlattr *a = tb[e->k->attr];
	void *copy;

	if (!a)
		return 0;
	copy = vs_arena_alloc(&e->arena, a->nla_len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, a, a->nla_len);
	e->cur = copy;
	return 0;
}

static const char *str_attr(const struct nlattr *a)
{
	return a && mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0 ? mnl_attr_get_str(a) : NULL;
}

static u32 u32_attr(const struct nlattr *a)
{
	return a && mnl_attr_validate(a, MNL_TYPE_U32) == 0 ? mnl_attr_get_u32(a) : 0;
}

/* The labels of the nest @a. */
static int seed_labels(struct edit *e, const struct nlattr *a, struct slot *s)
{
	const struct nlattr *label, *kv;

	mnl_attr_for_each_nested(label, a) {
		const char *key = NULL, *value = "";
		struct item *it;

		mnl_attr_for_each_nested(kv, label) {
			if (mnl_attr_get_type(kv) == VS_KV_A_KEY)
				key = str_attr(kv);
			else if (mnl_attr_get_type(kv) == VS_KV_A_VALUE && str_attr(kv))
				value = str_attr(kv);
		}
		if (!key)
			continue;
		it = item_add(e, s);
		if (!it)
			return -ENOMEM;
		it->key = key;
		it->value = value;
	}
	return 0;
}

/* Every taint (attribute @type, repeated) of the object. */
static int seed_taints(struct edit *e, u16 type, struct slot *s)
{
	const struct nlattr *a, *t;

	mnl_attr_for_each_nested(a, e->cur) {
		struct item *it;

		if (mnl_attr_get_type(a) != type)
			continue;
		it = item_add(e, s);
		if (!it)
			return -ENOMEM;
		mnl_attr_for_each_nested(t, a) {
			if (mnl_attr_get_type(t) == VS_TAINT_A_KEY)
				it->key = str_attr(t);
			else if (mnl_attr_get_type(t) == VS_TAINT_A_VALUE)
				it->value = str_attr(t);
			else if (mnl_attr_get_type(t) == VS_TAINT_A_EFFECT)
				it->effect = u32_attr(t);
		}
		if (!it->key)
			s->nr--;
	}
	return 0;
}

/*
 * Start the attributes the options replace whole from the object's own:
 * what the options then say is a change to them. 0, or a negative errno
 * (said when it is not a lack of memory).
 */
static int seed(struct edit *e, const struct field *fields)
{
	const struct nlattr *tb[NR_SLOTS] = { NULL };
	struct vs_err err = { { 0 } };
	int ret = 0;

	vs_nl_nest_tb(e->cur, tb, NR_SLOTS - 1);
	for (const struct field *f = fields; f->opt && !ret; f++) {
		struct slot *s = &e->slot[f->attr];

		if (s->shape == SH_NONE)	/* no option names it, or seeded already */
			continue;
		switch (s->shape) {
		case SH_RES:
			if (tb[f->attr] &&
			    (ret = vs_nl_parse_res_names(&e->dims, tb[f->attr], &s->res, &err)))
				fprintf(stderr, "vsctl: error: the %s read back: %s\n", e->k->what,
					err.msg);
			break;
		case SH_LABELS:
			ret = tb[f->attr] ? seed_labels(e, tb[f->attr], s) : 0;
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

static bool put_items(struct nl_msg *m, const struct vs_res_dims *dims, u16 attr,
		      const struct slot *s)
{
	struct nlattr *outer = NULL, *nest;

	if (s->shape == SH_LABELS && !(outer = nla_nest_start(m, attr)))
		return false;
	for (u32 i = 0; i < s->nr; i++) {
		const struct item *it = &s->items[i];

		nest = nla_nest_start(m, s->shape == SH_LABELS ? VS_LABELS_A_ITEM : attr);
		if (!nest)
			return false;
		switch (s->shape) {
		case SH_LABELS:
			if (nla_put_string(m, VS_KV_A_KEY, it->key) ||
			    nla_put_string(m, VS_KV_A_VALUE, it->value))
				return false;
			break;
		case SH_TAINTS:
			if (nla_put_string(m, VS_TAINT_A_KEY, it->key) ||
			    (it->value && nla_put_string(m, VS_TAINT_A_VALUE, it->value)) ||
			    nla_put_u32(m, VS_TAINT_A_EFFECT, it->effect))
				return false;
			break;
		case SH_TOLS:
			if ((*it->key && nla_put_string(m, VS_TOL_A_KEY, it->key)) ||
			    nla_put_u32(m, VS_TOL_A_OPERATOR, it->op) ||
			    (it->value && nla_put_string(m, VS_TOL_A_VALUE, it->value)) ||
			    nla_put_u32(m, VS_TOL_A_EFFECT, it->effect))
				return false;
			break;
		case SH_VTASKS:
			if (nla_put_string(m, VS_VTASK_A_NAME, it->key) ||
			    nla_put_u32(m, VS_VTASK_A_REPLICAS, it->replicas) ||
			    (it->has_res &&
			     !vs_nl_put_res(nlmsg_hdr(m), nlmsg_get_max_size(m), dims,
					    VS_VTASK_A_REQUEST, &it->res)))
				return false;
			break;
		case SH_POLICIES:
			if (nla_put_string(m, VS_POLICY_A_EVENT, it->key) ||
			    nla_put_string(m, VS_POLICY_A_ACTION, it->value))
				return false;
			break;
		default:
			return false;
		}
		nla_nest_end(m, nest);
	}
	if (outer)
		nla_nest_end(m, outer);
	return true;
}

static bool put_slot(struct nl_msg *m, const struct vs_res_dims *dims, u16 attr,
		     const struct slot *s)
{
	switch (s->shape) {
	case SH_NONE:
		return true;
	case SH_U8:
		return !nla_put_u8(m, attr, (u8)s->num);
	case SH_U32:
		return !nla_put_u32(m, attr, (u32)s->num);
	case SH_STR:
		return !nla_put_string(m, attr, s->str);
	case SH_RES:
		return vs_nl_put_res(nlmsg_hdr(m), nlmsg_get_max_size(m), dims, attr, &s->res);
	default:
		return put_items(m, dims, attr, s);
	}
}

/*
 * Replacing an object: the rest of its spec, as it was read back (every
 * attribute a request may carry that no option changed).
 */
static bool put_rest(struct nl_msg *m, const struct edit *e)
{
	const struct vs_nla_policy *top = &vs_genl_reply_policy[e->k->attr];
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, e->cur) {
		u16 type = mnl_attr_get_type(a);

		if (type == e->k->a_ns || type == e->k->a_name || type > top->maxattr ||
		    (top->nested[type].flags & VS_NLA_F_RO) ||
		    (type < NR_SLOTS && e->slot[type].shape != SH_NONE))
			continue;
		if (nla_put(m, a->nla_type, (int)mnl_attr_get_payload_len(a),
			    mnl_attr_get_payload(a)))
			return false;
	}
	return true;
}

/*
 * @cmd with the key and every slot an option filled, in the kind's nest;
 * with @replace, a NEW that replaces the object: the rest of its spec too.
 */
static struct nl_msg *object_msg(const struct edit *e, u8 cmd, const struct vsctl_key *key,
				 bool replace)
{
	struct nl_msg *m = vsnl_msg_new(cmd, replace ? NLM_F_REPLACE : 0);
	struct nlattr *nest = m ? vsctl_key_put(m, e->k, key) : NULL;

	if (!nest)
		goto fail;
	for (u16 a = 1; a < NR_SLOTS; a++)
		if (!put_slot(m, &e->dims, a, &e->slot[a]))
			goto fail;
	if (replace && !put_rest(m, e))
		goto fail;
	nla_nest_end(m, nest);
	return m;
fail:
	nlmsg_free(m);
	return NULL;
}

/* ---- the commands ---- */

/* What a command takes besides its options: the key and, for some, one word more. */
struct verb {
	const char *what;		/* for --help: what it does, of_kind: then the kind */
	bool of_kind;
	const struct field *fields;	/* NULL: the kind's */
	const char *extra;		/* a second operand, "EVENT" */
	bool set;
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
		if (fields[i].def && apply(e, &fields[i], fields[i].def))
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
			int ret = apply(e, f, f->type == F_FLAG ? "" : optarg);

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
	vs_arena_init(&e->arena, 0);
	vs_res_dims_init(&e->dims);
}

static int edit_done(struct edit *e, int ret)
{
	vs_arena_destroy(&e->arena);
	return ret < 0 ? 0 : ret;	/* --help */
}

/* GET the object and start from it; then the options again, over it. */
static int read_back(struct edit *e, int argc, char **argv, const struct verb *v,
		     const struct vsctl_key *key)
{
	struct nl_msg *m = vsnl_msg_new(e->k->cmd_get, 0);
	struct nlattr *nest = m ? vsctl_key_put(m, e->k, key) : NULL;
	struct vsctl_key again;
	int ret;

	if (nest) {
		nla_nest_end(m, nest);
	} else {
		nlmsg_free(m);
		m = NULL;
	}
	ret = vsctl_request(e->socket, m, keep_object, e);
	if (ret)
		return ret;
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
	ret = vsctl_request(e.socket, object_msg(&e, v->set && !replace ? e.k->cmd_set :
						 e.k->cmd_new, &key, replace), NULL, NULL);
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
	e.slot[VS_NODE_A_UNSCHEDULABLE] = (struct slot){ .shape = SH_U8, .num = on };
	ret = vsctl_request(e.socket, object_msg(&e, e.k->cmd_set, &key, false), NULL, NULL);
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
	struct vsctl_key key;
	struct nlattr *nest;
	struct nl_msg *m;
	struct edit e;
	bool vjob;
	int ret;

	edit_init(&e, argv[0], true);
	ret = parse(argc, argv, &e, v, &key, NULL);
	if (ret)
		return edit_done(&e, ret);
	vjob = e.k->attr == VS_A_VJOB;
	m = vsnl_msg_new(vjob ? VS_CMD_VJOB_COMMAND : VS_CMD_QUEUE_COMMAND, 0);
	nest = m ? nla_nest_start(m, VS_A_COMMAND) : NULL;
	if (!nest || (vjob && nla_put_string(m, VS_COMMAND_A_NAMESPACE, key.ns)) ||
	    nla_put_string(m, VS_COMMAND_A_NAME, key.name) ||
	    nla_put_u32(m, VS_COMMAND_A_ACTION, action)) {
		nlmsg_free(m);
		m = NULL;
	} else {
		nla_nest_end(m, nest);
	}
	return edit_done(&e, vsctl_request(e.socket, m, NULL, NULL));
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

/* What the outside world reports of a pod: running, succeeded, failed, deleting, deleted. */
int vsctl_task_status(int argc, char **argv)
{
	static const struct verb v = {
		.what = "Report what became of the task's pod, as the kubelet would: EVENT is "
			"running, succeeded, failed, deleting or deleted.",
		.fields = exit_code_fields, .extra = "EVENT",
	};
	struct vs_err err = { { 0 } };
	struct vsctl_key key;
	const char *event;
	struct edit e;
	int ret, ev;

	edit_init(&e, argv[0], true);
	ret = parse(argc, argv, &e, &v, &key, &event);
	if (ret)
		return edit_done(&e, ret);
	ev = vs_enum_parse(vsnl_task_event_names, VSNL_NR_TASK_EVENT, event, "task event", &err);
	if (ev < 0) {
		fprintf(stderr, "%s: %s\n", e.prog, err.msg);
		return edit_done(&e, 2);
	}
	if (e.slot[VS_TASK_A_EXIT_CODE].shape && ev != VS_TASK_EVENT_FAILED) {
		fprintf(stderr, "%s: --exit-code goes with failed only\n", e.prog);
		return edit_done(&e, 2);
	}
	e.slot[VS_TASK_A_EVENT] = (struct slot){ .shape = SH_U32, .num = (u32)ev };
	ret = vsctl_request(e.socket, object_msg(&e, VS_CMD_TASK_STATUS, &key, false), NULL, NULL);
	return edit_done(&e, ret);
}
