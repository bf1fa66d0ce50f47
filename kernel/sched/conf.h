/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduler configuration: Volcano's volcano-scheduler.conf, parsed.
 *
 *   actions: "enqueue, allocate, backfill"
 *   tiers:
 *   - plugins:
 *     - name: gang
 *       enableJobReady: false
 *       arguments: {gang.weight: 2}
 *   configurations:
 *   - name: allocate
 *     arguments: {enablePredicateErrorCache: true}
 *   metrics: {...}
 *
 * The file is read with libyaml. Every key, action and plugin name is
 * checked: an unknown one, a wrong type or a YAML syntax error refuses the
 * whole file with "FILE:LINE: reason", and the caller keeps the previous
 * configuration. Argument values keep YAML's types as Go's yaml decoder
 * gives them to Volcano's plugins (int, float, bool, string, map, list) and
 * the line they were written on, so that a plugin refusing an argument can
 * point at it.
 */
#ifndef VS_SCHED_CONF_H
#define VS_SCHED_CONF_H

#include <stddef.h>
#include "core/compiler.h"
#include "core/err.h"

/* A plugin's enable flags, in the order of Volcano's PluginOption. */
enum vs_en_flag {
	VS_EN_JOB_ORDER,		/* enableJobOrder */
	VS_EN_HIERARCHY,		/* enableHierarchy */
	VS_EN_JOB_READY,		/* enableJobReady */
	VS_EN_JOB_PIPELINED,		/* enableJobPipelined */
	VS_EN_TASK_ORDER,		/* enableTaskOrder */
	VS_EN_PREEMPTABLE,		/* enablePreemptable */
	VS_EN_RECLAIMABLE,		/* enableReclaimable */
	VS_EN_PREEMPTIVE,		/* enablePreemptive */
	VS_EN_QUEUE_ORDER,		/* enableQueueOrder */
	VS_EN_CLUSTER_ORDER,		/* enabledClusterOrder */
	VS_EN_PREDICATE,		/* enablePredicate */
	VS_EN_BEST_NODE,		/* enableBestNode */
	VS_EN_NODE_ORDER,		/* enableNodeOrder */
	VS_EN_TARGET_JOB,		/* enableTargetJob */
	VS_EN_RESERVED_NODES,		/* enableReservedNodes */
	VS_EN_JOB_ENQUEUED,		/* enableJobEnqueued */
	VS_EN_VICTIM,			/* enabledVictim */
	VS_EN_JOB_STARVING,		/* enableJobStarving */
	VS_EN_OVERUSED,			/* enabledOverused */
	VS_EN_ALLOCATABLE,		/* enabledAllocatable */
	VS_EN_HYPERNODE_ORDER,		/* enabledHyperNodeOrder */
	VS_EN_SUBJOB_READY,		/* enabledSubJobReady */
	VS_EN_SUBJOB_PIPELINED,		/* enabledSubJobPipelined */
	VS_EN_SUBJOB_ORDER,		/* enabledSubJobOrder */
	VS_EN_HYPERNODE_GRADIENT,	/* enabledHyperNodeGradient */
	VS_EN_NR
};

/* The YAML key of each flag, with Volcano's spelling ("enabledVictim"...). */
const char *vs_en_flag_name(enum vs_en_flag flag);

enum vs_arg_type {
	VS_ARG_NULL,
	VS_ARG_BOOL,
	VS_ARG_INT,
	VS_ARG_FLOAT,
	VS_ARG_STRING,
	VS_ARG_MAP,
	VS_ARG_SEQ,
};

struct vs_args;

/* One value from the file, typed as Go's YAML decoder types it. */
struct vs_arg {
	enum vs_arg_type type;
	u32 line;			/* 1-based line it was written on */
	union {
		bool b;
		s64 i;
		double f;
		char *s;
		struct vs_args *map;
		struct {
			struct vs_arg *items;
			u32 nr;
		} seq;
	};
};

struct vs_arg_kv {
	char *key;
	u32 line;			/* the line the key was written on */
	struct vs_arg val;
};

/* A map of arguments in file order; keys are unique. */
struct vs_args {
	struct vs_arg_kv *kv;
	u32 nr;
	const char *source;		/* the file name, for messages; not owned */
};

/* The value of @key, or NULL. */
const struct vs_arg *vs_args_find(const struct vs_args *args, const char *key);

/*
 * Typed getters, after Volcano's Arguments.Get*: an absent key leaves *@out
 * untouched and returns 0 (the plugin's default stays). A present key of the
 * wrong type is -EINVAL with "FILE:LINE: argument KEY: ..." in @err:
 * vsched refuses what Volcano would only log and ignore. As in Volcano, an
 * int is accepted where a float is asked for, and a string "true"/"false"
 * (strconv.ParseBool's spellings) where a bool is.
 */
int vs_args_get_int(const struct vs_args *args, const char *key, s64 *out,
		    struct vs_err *err);
int vs_args_get_float(const struct vs_args *args, const char *key, double *out,
		      struct vs_err *err);
int vs_args_get_bool(const struct vs_args *args, const char *key, bool *out,
		     struct vs_err *err);
/* The string stays owned by @args. */
int vs_args_get_string(const struct vs_args *args, const char *key, const char **out,
		       struct vs_err *err);
/*
 * Call @fn with each name of the comma-separated list at @key (a string),
 * blanks trimmed, empty names and names past 255 bytes skipped, as Volcano
 * splits "binpack.resources". The first error @fn returns ends the walk.
 */
int vs_args_for_each_name(const struct vs_args *args, const char *key,
			  int (*fn)(const char *name, void *ctx), void *ctx);

/* One plugin in a tier. */
struct vs_conf_plugin {
	char *name;
	u32 line;
	u32 flags_set;			/* bit f: flag f was written in the file */
	u32 flags_on;			/* bit f: flag f is on (after defaults) */
	struct vs_args args;
};

static inline bool vs_conf_plugin_enabled(const struct vs_conf_plugin *p, enum vs_en_flag f)
{
	return p->flags_on & (1u << f);
}

struct vs_conf_tier {
	struct vs_conf_plugin *plugins;
	u32 nr;
};

/* "configurations": arguments for one action. */
struct vs_conf_action {
	char *name;
	u32 line;
	struct vs_args args;
};

struct vs_conf {
	char *source;			/* the file name given to the parser */
	/*
	 * The text it was parsed from, NUL-terminated, so that what was set
	 * is what is shown (comments and layout included); NULL for a
	 * configuration built in code (vs_conf_format() writes one).
	 */
	char *text;
	size_t text_len;
	char **actions;			/* in order, trimmed */
	u32 nr_actions;
	struct vs_conf_tier *tiers;
	u32 nr_tiers;
	struct vs_conf_action *configurations;
	u32 nr_configurations;
	struct vs_args metrics;		/* accepted and kept, unused so far */
};

/* The names a configuration may use; a NULL list accepts any name. */
struct vs_conf_names {
	const char *const *actions;
	u32 nr_actions;
	const char *const *plugins;
	u32 nr_plugins;
};

/*
 * How flags that the file does not write are set: on, as Volcano's
 * ApplyPluginConfDefaults does for a configuration file, or off, as for tiers
 * that tests build in code (the scenario format's explicit "plugins").
 */
enum vs_conf_flag_default {
	VS_CONF_FLAGS_DEFAULT_ON,
	VS_CONF_FLAGS_DEFAULT_OFF,
};

/*
 * Parse @len bytes of YAML text. @source names it in messages ("FILE:LINE:
 * reason"). Refuses, besides malformed YAML: unknown keys at any level, a
 * value of the wrong type for a known key, an empty or unknown action, an
 * unknown plugin, a plugin without a name, two configurations for one action,
 * and drf with enableHierarchy together with proportion in one tier (as
 * Volcano does). On error *@out is NULL and nothing is allocated. The
 * configuration keeps a copy of @text (vs_conf.text).
 */
int vs_conf_parse(const char *text, size_t len, const char *source,
		  const struct vs_conf_names *names, enum vs_conf_flag_default def,
		  struct vs_conf **out, struct vs_err *err);

/*
 * Read @path and parse it with flags defaulting on. Errors name the path.
 * A configuration is a regular file: a FIFO or a device is refused at once
 * (vs_read_regular_file()), never waited on.
 */
int vs_conf_load_file(const char *path, const struct vs_conf_names *names,
		      struct vs_conf **out, struct vs_err *err);

/*
 * The deepest a YAML file read by vs_yaml_parse() may nest: Volcano's files
 * nest 7 deep at most, and 64 leaves arguments plenty of room. Readers that
 * walk libyaml's events for themselves stop at it too, since libyaml's
 * scanner takes time quadratic in the depth of flow collections.
 */
#define VS_YAML_DEPTH_MAX	64

/*
 * Parse one YAML document of @len bytes into @out, every value typed as
 * "arguments" are (yaml.v2 into interface{}) and carrying its line, with the
 * loader's refusals (aliases, merge keys, duplicate keys, a second
 * document...). For tools that read other YAML files by the same rules, as
 * vsctl reads scenarios. An empty document is VS_ARG_NULL. Every map's
 * vs_args.source is @source, which must outlive @out. Free with
 * vs_arg_free(), also after an error.
 */
int vs_yaml_parse(const char *text, size_t len, const char *source, struct vs_arg *out,
		  struct vs_err *err);
void vs_arg_free(struct vs_arg *arg);

/* Volcano's built-in default configuration text (pkg/scheduler/util.go). */
extern const char vs_conf_default_text[];

void vs_conf_free(struct vs_conf *conf);

/* The "configurations" arguments of @action, or NULL. */
const struct vs_args *vs_conf_action_args(const struct vs_conf *conf, const char *action);

/*
 * Write @conf as YAML that vs_conf_parse() reads back to an equal
 * configuration (every flag written). Returns the length snprintf would.
 */
size_t vs_conf_format(const struct vs_conf *conf, char *buf, size_t len);

#endif /* VS_SCHED_CONF_H */
