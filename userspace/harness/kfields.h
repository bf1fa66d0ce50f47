/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes-shaped fields read from YAML (or JSON) into the core's specs,
 * for the scenario loader (scenario_load.c), which builds a scenario's
 * cluster in-process. Manifests are read without the core, into protocol
 * requests, by kube/kread.h.
 *
 * A file is parsed by the configuration loader's reader (vs_yaml_parse():
 * every value typed and carrying its line); an object is then a mapping
 * walked against a table of its keys, each key with a parser that checks
 * the value's type and stores it into the spec being built. The parsers
 * here read what both formats share, in Kubernetes' shape: quantities and
 * resource lists, string maps (labels, node selectors), taints,
 * tolerations, affinity, a PodGroup's minTaskMember, the core's enums.
 *
 * Errors are "FILE:LINE: message" in the walk's buffer. A scenario names a
 * field by its key ("allocatable: ..."), a manifest by its path from the
 * document's root and after the document ("document 3 (Pod ns/p1):
 * spec.containers[0].resources.requests.cpu: ..."): kf_name() gives the
 * one the walk was set up for. Specs are built in the walk's scratch arena.
 */
#ifndef KUBE_KFIELDS_H
#define KUBE_KFIELDS_H

#include <stddef.h>

#include "core/arena.h"
#include "core/cluster.h"
#include "sched/conf.h"

#define KF_PATH_MAX	512

/* A walk over one file's objects. */
struct kf {
	const char *file;
	char *msg;			/* where the error goes: set once */
	size_t msg_size;
	struct vs_arena scratch;	/* the specs of the object being built */
	bool paths;			/* name fields by their path (manifests) */
	struct vs_res_dims *dims;	/* the cluster's table the scalars' names go in */
	const char *doc;		/* manifests: "document 3 (Pod ns/p1)", or NULL */
	char path[KF_PATH_MAX];		/* where the walk is: "spec.containers[0]" */
	size_t path_len;
	char name[KF_PATH_MAX + 64];	/* kf_name()'s answer */
};

/*
 * One key of an object: its parser stores the value at @off in the object
 * being filled. A null value is skipped (the default stays); bit i of the
 * walk's @seen tells that field i was written. A NULL parser takes the key
 * and ignores it; the key KF_ANY_OTHER (with a NULL parser, last) takes
 * every key the table does not name: the open objects of Kubernetes, whose
 * fields a reader need not know all of.
 */
struct kf_field {
	const char *key;
	int (*parse)(struct kf *kf, struct vs_arg_kv *kv, void *slot);
	size_t off;
};

#define KF_ANY_OTHER	"*"

#define KF_FIELD(k, fn, type, member) { .key = k, .parse = fn, .off = offsetof(type, member) }
#define KF_IGNORE(k)	{ .key = k }
#define KF_OPEN		{ .key = KF_ANY_OTHER }

/* "FILE:LINE: [DOC: ]message" into the walk's buffer, unless one is there; -EINVAL. */
__printf(3, 4)
int kf_err(struct kf *kf, u32 line, const char *fmt, ...);
/* "FILE: out of memory"; -ENOMEM. */
int kf_oom(struct kf *kf);

/* "null", "a string"...: a value's type in messages. */
const char *kf_type_name(const struct vs_arg *v);

/*
 * How messages name @kv, the key at the walk's place: its key (scenarios)
 * or its path. kf_sub() names the entry @key of the map @kv ("labels: zone"
 * or "metadata.labels.zone", "requests[nvidia.com/gpu]" when the key holds
 * a dot or a slash). The answer lives until the next call.
 */
const char *kf_name(struct kf *kf, const struct vs_arg_kv *kv);
const char *kf_sub(struct kf *kf, const struct vs_arg_kv *kv, const char *key);

/* Move the walk's place down (a key, an index); kf_pop() back to what they returned. */
size_t kf_push(struct kf *kf, const char *key);
size_t kf_push_idx(struct kf *kf, u32 idx);
void kf_pop(struct kf *kf, size_t len);

/* 0 if @kv holds @type, else "NAME must be WHAT, not TYPE". */
int kf_want(struct kf *kf, const struct vs_arg_kv *kv, enum vs_arg_type type, const char *what);

/*
 * Walk the mapping @map against @fields: each key to its parser, in file
 * order. An unknown key is refused (unless the table is open); @what names
 * the mapping in messages when the walk is at the document's root.
 */
int kf_walk(struct kf *kf, struct vs_arg *map, const char *what, const struct kf_field *fields,
	    u32 nr, void *obj, u64 *seen);
/* kf_walk() of the value of @kv, one level down. */
int kf_walk_kv(struct kf *kf, struct vs_arg_kv *kv, const struct kf_field *fields, u32 nr,
	       void *obj, u64 *seen);

/*
 * A parser of a nested object: the mapping of the field, walked against
 * @fields into the struct at the slot; with _SEEN, that struct (@type)
 * keeps the walk's mask in its member "seen".
 */
#define KF_NESTED(fn, fields)							\
int fn(struct kf *kf, struct vs_arg_kv *kv, void *slot)				\
{										\
	return kf_walk_kv(kf, kv, fields, ARRAY_SIZE(fields), slot, NULL);	\
}

#define KF_NESTED_SEEN(fn, fields, type)					\
int fn(struct kf *kf, struct vs_arg_kv *kv, void *slot)				\
{										\
	type *in = slot;							\
										\
	return kf_walk_kv(kf, kv, fields, ARRAY_SIZE(fields), in, &in->seen);	\
}

/* ---- parsers: int (*)(struct kf *, struct vs_arg_kv *, void *slot) ---- */

int kf_str(struct kf *kf, struct vs_arg_kv *kv, void *slot);	/* const char * */
int kf_bool(struct kf *kf, struct vs_arg_kv *kv, void *slot);	/* bool */
int kf_u32(struct kf *kf, struct vs_arg_kv *kv, void *slot);	/* u32 */
int kf_s32(struct kf *kf, struct vs_arg_kv *kv, void *slot);	/* s32 */
int kf_s64(struct kf *kf, struct vs_arg_kv *kv, void *slot);	/* s64 */
int kf_keep(struct kf *kf, struct vs_arg_kv *kv, void *slot);	/* struct vs_arg_kv * */
/* A metav1.Time ("2026-01-01T00:00:00Z", RFC 3339) into a u64 of seconds since 1970. */
int kf_time(struct kf *kf, struct vs_arg_kv *kv, void *slot);
int kf_get_int(struct kf *kf, struct vs_arg_kv *kv, s64 min, s64 max, s64 *out);

/* A resource list: {cpu: "2", memory: 4Gi, nvidia.com/gpu: 1}, into a struct vs_res. */
int kf_res(struct kf *kf, struct vs_arg_kv *kv, void *slot);

/* A string map (labels, nodeSelector, annotations); the core checks keys and values. */
struct kf_kvs {
	struct vs_kv_spec *kv;
	u32 nr;
};

int kf_kvs(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* The value of @key in @kvs, or NULL. */
const char *kf_kvs_get(const struct kf_kvs *kvs, const char *key);

/* A string list. */
struct kf_strs {
	const char **s;
	u32 nr;
};

int kf_strs(struct kf *kf, struct vs_arg_kv *kv, void *slot);

/* Enums, by the core's own parsers (whose messages list the names); "" keeps the default. */
int kf_queue_state(struct kf *kf, struct vs_arg_kv *kv, void *slot);
int kf_pg_phase(struct kf *kf, struct vs_arg_kv *kv, void *slot);
int kf_task_status(struct kf *kf, struct vs_arg_kv *kv, void *slot);
int kf_preemption_policy(struct kf *kf, struct vs_arg_kv *kv, void *slot);

/*
 * Lists of objects: each item a mapping of fields, @size bytes in the
 * scratch arena, set up by @init (or zeroed) and checked by @done.
 */
struct kf_items {
	void *v;
	u32 nr;
};

struct kf_list {
	const char *what;		/* "a taint", in a scenario's messages */
	const struct kf_field *fields;
	u32 nr_fields;
	size_t size;
	void (*init)(void *item);
	int (*done)(struct kf *kf, struct vs_arg *item_arg, void *item, u64 seen);
};

/* Parse the list @kv into @out, items described by @d. */
int kf_list(struct kf *kf, struct vs_arg_kv *kv, const struct kf_list *d, struct kf_items *out);

/* A parser of a list of @desc, for a field table. */
#define KF_LIST_PARSER(fn, desc)						\
int fn(struct kf *kf, struct vs_arg_kv *kv, void *slot)				\
{										\
	return kf_list(kf, kv, &desc, slot);					\
}

/*
 * The core takes arrays of specs: the @size bytes at @off of each of
 * @items' wrappers (@stride bytes apart), copied into one array of the
 * scratch arena, a zeroed spec past the last. NULL when out of memory
 * (kf_oom() said so).
 */
void *kf_specs(struct kf *kf, const struct kf_items *items, size_t stride, size_t off,
	       size_t size);

/* kf_specs() of a list whose wrappers @type hold their spec in @member. */
#define KF_SPECS(kf, items, type, member)					\
	kf_specs(kf, items, sizeof(type), offsetof(type, member), sizeof(((type *)0)->member))

/* A function giving the specs of @type's list as kf_specs() does, and their number. */
#define KF_SPECS_FN(fn, type, spec_type)					\
int fn(struct kf *kf, const struct kf_items *items, const spec_type **out, u32 *nr)	\
{										\
	*out = KF_SPECS(kf, items, type, spec);					\
	*nr = *out ? items->nr : 0;						\
	return *out ? 0 : -ENOMEM;						\
}

/* A LabelSelector: {matchLabels, matchExpressions}; set once parsed. */
struct kf_label_sel {
	struct vs_label_selector_spec spec;
	struct kf_kvs labels;
	struct kf_items exprs;
	bool set;
};

int kf_label_selector(struct kf *kf, struct vs_arg_kv *kv, void *slot);

/* Taints ({key, value, effect}; timeAdded ignored) into a kf_items of vs_taint_spec. */
int kf_taints(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* Tolerations into a kf_items of vs_toleration_spec. */
int kf_tolerations(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* A container's ports ({containerPort, hostPort, protocol, hostIP, name}). */
struct kf_port {
	struct vs_host_port_spec host;	/* port 0: no hostPort */
	u32 container_port;
	const char *name;
};

int kf_ports(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* The host ports among @ports (those with a hostPort), in the scratch arena. */
int kf_host_ports(struct kf *kf, const struct kf_items *ports,
		  const struct vs_host_port_spec **out, u32 *nr);
/* A node's status.images: {names, sizeBytes}, each checked. */
struct kf_image {
	struct vs_image_spec spec;
	struct kf_strs names;
};

int kf_node_images(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* The specs of @items (kf_node_images()'s), in the scratch arena. */
int kf_image_specs(struct kf *kf, const struct kf_items *items, const struct vs_image_spec **out,
		   u32 *nr);
/* spec.schedulingGates ({name}) into a kf_items of const char *. */
int kf_sched_gates(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* spec.topologySpreadConstraints, each its Kubernetes fields, the names checked. */
struct kf_spread {
	struct vs_spread_constraint_spec spec;
	struct kf_label_sel selector;
	struct kf_strs match_label_keys;
	const char *when, *affinity_policy, *taints_policy;
};

int kf_spreads(struct kf *kf, struct vs_arg_kv *kv, void *slot);
/* The specs of @items (kf_spreads()'s), in the scratch arena. */
int kf_spread_specs(struct kf *kf, const struct kf_items *items,
		    const struct vs_spread_constraint_spec **out, u32 *nr);
/* A Kubernetes Affinity into a const struct vs_affinity_spec *. */
int kf_affinity(struct kf *kf, struct vs_arg_kv *kv, void *slot);

/* minTaskMember: {role: min} ("" for tasks without a role). */
struct kf_role_mins {
	struct vs_role_min_spec *v;
	u32 nr;
};

int kf_role_mins(struct kf *kf, struct vs_arg_kv *kv, void *slot);

/* strconv.ParseBool's spellings: 1 t T TRUE true True, 0 f F FALSE false False. */
int kf_parse_bool(const char *s, bool *out);

#endif /* KUBE_KFIELDS_H */
