// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the configuration loader (sched/conf.h). Volcano's default and a
 * file writing every flag; the flag defaults of ApplyPluginConfDefaults; the
 * typing of arguments as gopkg.in/yaml.v2 decodes them into interface{}, case
 * by case from its resolve(); the getters after Arguments.Get*; every kind
 * of refusal with its exact "FILE:LINE: reason"; the drf hierarchy conflict
 * of UnmarshalSchedulerConf; the format round trip; files; and malformed
 * input of every sort returning an error without crashing or leaking (run
 * these under SANITIZE=1 and valgrind, which is where leaks show).
 */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <criterion/criterion.h>

#include "sched/conf.h"

static const char *const actions[] = { "enqueue", "allocate", "backfill", "preempt", "reclaim" };
static const char *const plugins[] = { "priority", "gang", "conformance", "overcommit", "drf",
				       "predicates", "proportion", "nodeorder", "binpack" };
static const struct vs_conf_names names = {
	.actions = actions, .nr_actions = ARRAY_SIZE(actions),
	.plugins = plugins, .nr_plugins = ARRAY_SIZE(plugins),
};

#define KNOWN_ACTIONS	"(known: enqueue, allocate, backfill, preempt, reclaim)"
#define KNOWN_PLUGINS	"(known: priority, gang, conformance, overcommit, drf, predicates, " \
			"proportion, nodeorder, binpack)"

/* Lines 1-3 and 1-4 of most small files here. */
#define PLUGINS		"actions: allocate\ntiers:\n- plugins:\n"
#define GANG		PLUGINS "  - name: gang\n"

#define ALL_FLAGS	((1u << VS_EN_NR) - 1)
#define VOLCANO_ON	(ALL_FLAGS & ~((1u << VS_EN_HIERARCHY) | (1u << VS_EN_CLUSTER_ORDER)))

static struct vs_conf *parse_ok(const char *text, enum vs_conf_flag_default def)
{
	struct vs_conf *conf = NULL;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names, def, &conf, &e), 0,
		     "refused: %s\n%s", e.msg, text);
	cr_assert_not_null(conf);
	return conf;
}

/* The parse must fail with exactly @msg, and leave nothing behind. */
static void parse_bad_len(const char *text, size_t len, const char *msg)
{
	struct vs_conf *conf = (void *)1;
	struct vs_err e = { { 0 } };

	cr_assert_lt(vs_conf_parse(text, len, "t.conf", &names, VS_CONF_FLAGS_DEFAULT_ON,
				   &conf, &e), 0, "accepted:\n%s", text);
	cr_assert_null(conf);
	cr_assert_str_eq(e.msg, msg, "for:\n%s", text);
}

static void parse_bad(const char *text, const char *msg)
{
	parse_bad_len(text, strlen(text), msg);
}

/* A file whose first plugin (binpack, line 4) has @args as its arguments, from line 5. */
static char *with_args(const char *args)
{
	char *text;

	cr_assert_geq(asprintf(&text, PLUGINS "  - name: binpack\n"
			       "    arguments:\n%s", args), 0);
	return text;
}

/* The value of argument "v" written as @yaml. */
static struct vs_arg value_of(const char *yaml, struct vs_conf **conf)
{
	char *args, *text;
	const struct vs_arg *a;

	cr_assert_geq(asprintf(&args, "      v: %s\n", yaml), 0);
	text = with_args(args);
	*conf = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	free(args);
	free(text);
	a = vs_args_find(&(*conf)->tiers[0].plugins[0].args, "v");
	cr_assert_not_null(a, "no v for %s", yaml);
	cr_assert_eq(a->line, 6, "line of %s", yaml);
	return *a;
}

static void expect_int(const char *yaml, s64 want)
{
	struct vs_conf *c;
	struct vs_arg a = value_of(yaml, &c);

	cr_assert_eq(a.type, VS_ARG_INT, "%s: type %d, want an int", yaml, a.type);
	cr_assert_eq(a.i, want, "%s: %lld, want %lld", yaml, (long long)a.i, (long long)want);
	vs_conf_free(c);
}

static void expect_float(const char *yaml, double want)
{
	struct vs_conf *c;
	struct vs_arg a = value_of(yaml, &c);

	cr_assert_eq(a.type, VS_ARG_FLOAT, "%s: type %d, want a float", yaml, a.type);
	if (isnan(want))
		cr_assert(isnan(a.f), "%s: %g, want nan", yaml, a.f);
	else
		cr_assert(a.f == want && signbit(a.f) == signbit(want), "%s: %.17g, want %.17g",
			  yaml, a.f, want);
	vs_conf_free(c);
}

static void expect_bool(const char *yaml, bool want)
{
	struct vs_conf *c;
	struct vs_arg a = value_of(yaml, &c);

	cr_assert_eq(a.type, VS_ARG_BOOL, "%s: type %d, want a bool", yaml, a.type);
	cr_assert_eq(a.b, want, "%s", yaml);
	vs_conf_free(c);
}

static void expect_null(const char *yaml)
{
	struct vs_conf *c;
	struct vs_arg a = value_of(yaml, &c);

	cr_assert_eq(a.type, VS_ARG_NULL, "%s: type %d, want null", yaml, a.type);
	vs_conf_free(c);
}

static void expect_string(const char *yaml, const char *want)
{
	struct vs_conf *c;
	struct vs_arg a = value_of(yaml, &c);

	cr_assert_eq(a.type, VS_ARG_STRING, "%s: type %d, want a string", yaml, a.type);
	cr_assert_str_eq(a.s, want, "%s", yaml);
	vs_conf_free(c);
}

/* Argument "v" written as @yaml must be refused with "t.conf:6: " @msg. */
static void expect_refused(const char *yaml, const char *msg)
{
	char *args, *text, *full;

	cr_assert_geq(asprintf(&args, "      v: %s\n", yaml), 0);
	cr_assert_geq(asprintf(&full, "t.conf:6: %s", msg), 0);
	text = with_args(args);
	parse_bad(text, full);
	free(args);
	free(text);
	free(full);
}

/* ---- deep equality, for the round trip ---- */

static bool args_equal(const struct vs_args *a, const struct vs_args *b);

static bool arg_equal(const struct vs_arg *a, const struct vs_arg *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case VS_ARG_NULL:
		return true;
	case VS_ARG_BOOL:
		return a->b == b->b;
	case VS_ARG_INT:
		return a->i == b->i;
	case VS_ARG_FLOAT:
		return (isnan(a->f) && isnan(b->f)) ||
		       (a->f == b->f && signbit(a->f) == signbit(b->f));
	case VS_ARG_STRING:
		return !strcmp(a->s, b->s);
	case VS_ARG_MAP:
		return args_equal(a->map, b->map);
	case VS_ARG_SEQ:
		if (a->seq.nr != b->seq.nr)
			return false;
		for (u32 i = 0; i < a->seq.nr; i++)
			if (!arg_equal(&a->seq.items[i], &b->seq.items[i]))
				return false;
		return true;
	}
	return false;
}

static bool args_equal(const struct vs_args *a, const struct vs_args *b)
{
	if (a->nr != b->nr)
		return false;
	for (u32 i = 0; i < a->nr; i++)
		if (strcmp(a->kv[i].key, b->kv[i].key) || !arg_equal(&a->kv[i].val, &b->kv[i].val))
			return false;
	return true;
}

/* Equal as a scheduler sees them: flags_set and lines may differ. */
static void expect_conf_equal(const struct vs_conf *a, const struct vs_conf *b)
{
	cr_assert_eq(a->nr_actions, b->nr_actions);
	for (u32 i = 0; i < a->nr_actions; i++)
		cr_assert_str_eq(a->actions[i], b->actions[i]);
	cr_assert_eq(a->nr_tiers, b->nr_tiers);
	for (u32 t = 0; t < a->nr_tiers; t++) {
		cr_assert_eq(a->tiers[t].nr, b->tiers[t].nr);
		for (u32 i = 0; i < a->tiers[t].nr; i++) {
			const struct vs_conf_plugin *x = &a->tiers[t].plugins[i];
			const struct vs_conf_plugin *y = &b->tiers[t].plugins[i];

			cr_assert_str_eq(x->name, y->name);
			cr_assert_eq(x->flags_on, y->flags_on, "%s: %#x vs %#x", x->name,
				     x->flags_on, y->flags_on);
			cr_assert(args_equal(&x->args, &y->args), "arguments of %s", x->name);
		}
	}
	cr_assert_eq(a->nr_configurations, b->nr_configurations);
	for (u32 i = 0; i < a->nr_configurations; i++) {
		cr_assert_str_eq(a->configurations[i].name, b->configurations[i].name);
		cr_assert(args_equal(&a->configurations[i].args, &b->configurations[i].args));
	}
	cr_assert(args_equal(&a->metrics, &b->metrics));
}

/* Format @a, read it back with either default, format again: all equal. */
static void expect_round_trip(const struct vs_conf *a)
{
	size_t n = vs_conf_format(a, NULL, 0);
	char *t1 = malloc(n + 1), *t2 = malloc(n + 1);
	struct vs_conf *b, *c;
	struct vs_err e = { { 0 } };

	cr_assert(t1 && t2);
	cr_assert_eq(vs_conf_format(a, t1, n + 1), n);
	cr_assert_eq(strlen(t1), n);
	cr_assert_eq(vs_conf_parse(t1, n, "again", &names, VS_CONF_FLAGS_DEFAULT_OFF, &b, &e), 0,
		     "%s\n%s", e.msg, t1);
	cr_assert_eq(vs_conf_parse(t1, n, "again", &names, VS_CONF_FLAGS_DEFAULT_ON, &c, &e), 0,
		     "%s", e.msg);
	expect_conf_equal(a, b);
	expect_conf_equal(a, c);	/* every flag is written: the default is moot */
	cr_assert_eq(vs_conf_format(b, t2, n + 1), n);
	cr_assert_str_eq(t1, t2);
	vs_conf_free(b);
	vs_conf_free(c);
	free(t1);
	free(t2);
}

/* ------------------------------------------------------------------ */
/* Volcano's default and full files */

Test(conf, default_text_is_volcanos_default_scheduler_conf)
{
	/* DefaultSchedulerConf in pkg/scheduler/util.go: a raw string from "`\n" to "\n`" */
	cr_assert_str_eq(vs_conf_default_text,
			 "\n"
			 "actions: \"enqueue, allocate, backfill\"\n"
			 "tiers:\n"
			 "- plugins:\n"
			 "  - name: priority\n"
			 "  - name: gang\n"
			 "  - name: conformance\n"
			 "- plugins:\n"
			 "  - name: overcommit\n"
			 "  - name: drf\n"
			 "  - name: predicates\n"
			 "  - name: proportion\n"
			 "  - name: nodeorder\n");
}

Test(conf, default_parses_to_its_actions_tiers_and_volcanos_flag_defaults)
{
	static const char *const tier1[] = { "priority", "gang", "conformance" };
	static const char *const tier2[] = { "overcommit", "drf", "predicates", "proportion",
					     "nodeorder" };
	struct vs_conf *c = parse_ok(vs_conf_default_text, VS_CONF_FLAGS_DEFAULT_ON);

	cr_assert_str_eq(c->source, "t.conf");
	cr_assert_eq(c->nr_actions, 3);
	cr_assert_str_eq(c->actions[0], "enqueue");
	cr_assert_str_eq(c->actions[1], "allocate");
	cr_assert_str_eq(c->actions[2], "backfill");
	cr_assert_eq(c->nr_tiers, 2);
	cr_assert_eq(c->tiers[0].nr, 3);
	cr_assert_eq(c->tiers[1].nr, 5);
	for (u32 i = 0; i < 3; i++)
		cr_assert_str_eq(c->tiers[0].plugins[i].name, tier1[i]);
	for (u32 i = 0; i < 5; i++)
		cr_assert_str_eq(c->tiers[1].plugins[i].name, tier2[i]);
	cr_assert_eq(c->tiers[0].plugins[0].line, 5);
	cr_assert_eq(c->tiers[1].plugins[4].line, 13);
	cr_assert_eq(c->nr_configurations, 0);
	cr_assert_eq(c->metrics.nr, 0);
	/*
	 * util_test.go's TestLoadSchedulerConf: ApplyPluginConfDefaults turns 23
	 * flags on and leaves enableHierarchy and enabledClusterOrder nil (off).
	 */
	for (u32 t = 0; t < c->nr_tiers; t++) {
		for (u32 i = 0; i < c->tiers[t].nr; i++) {
			const struct vs_conf_plugin *p = &c->tiers[t].plugins[i];

			cr_assert_eq(p->flags_set, 0);
			cr_assert_eq(p->flags_on, VOLCANO_ON, "%s: %#x", p->name, p->flags_on);
			cr_assert_not(vs_conf_plugin_enabled(p, VS_EN_HIERARCHY));
			cr_assert_not(vs_conf_plugin_enabled(p, VS_EN_CLUSTER_ORDER));
			cr_assert(vs_conf_plugin_enabled(p, VS_EN_HYPERNODE_GRADIENT));
			cr_assert_eq(p->args.nr, 0);
			cr_assert_str_eq(p->args.source, "t.conf");
		}
	}
	vs_conf_free(c);
}

Test(conf, flag_names_keep_volcanos_spellings)
{
	static const char *const want[VS_EN_NR] = {
		"enableJobOrder", "enableHierarchy", "enableJobReady", "enableJobPipelined",
		"enableTaskOrder", "enablePreemptable", "enableReclaimable", "enablePreemptive",
		"enableQueueOrder", "enabledClusterOrder", "enablePredicate", "enableBestNode",
		"enableNodeOrder", "enableTargetJob", "enableReservedNodes", "enableJobEnqueued",
		"enabledVictim", "enableJobStarving", "enabledOverused", "enabledAllocatable",
		"enabledHyperNodeOrder", "enabledSubJobReady", "enabledSubJobPipelined",
		"enabledSubJobOrder", "enabledHyperNodeGradient",
	};

	cr_assert_eq(VS_EN_NR, 25);
	for (int f = 0; f < VS_EN_NR; f++)
		cr_assert_str_eq(vs_en_flag_name((enum vs_en_flag)f), want[f]);
	cr_assert_str_eq(vs_en_flag_name(VS_EN_NR), "?");
}

Test(conf, full_file_with_every_flag_configurations_and_metrics)
{
	/* every YAML 1.1 spelling of a boolean that yaml.v2 takes, in turn */
	static const char *const spell[] = {
		"true", "false", "yes", "no", "on", "off", "True", "False", "YES", "NO",
		"On", "Off", "y", "n", "Y", "N", "TRUE", "FALSE", "Yes", "No", "ON", "OFF",
		"!!bool true", "!!bool \"no\"", "yes",
	};
	char *text, *p;
	size_t size = 8192;
	struct vs_conf *c;
	const struct vs_conf_plugin *gang;
	const struct vs_args *alloc;
	u32 want_on = 0;

	cr_assert_eq(ARRAY_SIZE(spell), VS_EN_NR);
	text = p = malloc(size);
	p += sprintf(p, "actions: \"enqueue, allocate, preempt, backfill\"\n"	/* 1 */
		     "tiers:\n"							/* 2 */
		     "- plugins:\n"						/* 3 */
		     "  - name: gang\n");					/* 4 */
	for (int f = 0; f < VS_EN_NR; f++) {					/* 5..29 */
		p += sprintf(p, "    %s: %s\n", vs_en_flag_name((enum vs_en_flag)f), spell[f]);
		if (!(f & 1))		/* the even spellings are the true ones */
			want_on |= 1u << f;
	}
	p += sprintf(p, "    arguments:\n"					/* 30 */
		     "      gang.weight: 2\n"					/* 31 */
		     "  - name: priority\n"					/* 32 */
		     "- plugins:\n"						/* 33 */
		     "  - name: drf\n"						/* 34 */
		     "    enableHierarchy: true\n"				/* 35 */
		     "  - name: binpack\n"					/* 36 */
		     "    arguments: {binpack.weight: 10, binpack.cpu: 2}\n"	/* 37 */
		     "configurations:\n"					/* 38 */
		     "- name: allocate\n"					/* 39 */
		     "  arguments:\n"						/* 40 */
		     "    enablePredicateErrorCache: false\n"			/* 41 */
		     "- name: preempt\n"					/* 42 */
		     "  arguments: {preemptTasksNum: 5}\n"			/* 43 */
		     "metrics:\n"						/* 44 */
		     "  address: http://prometheus:9090\n"			/* 45 */
		     "  interval: 30s\n");					/* 46 */
	cr_assert_lt((size_t)(p - text), size);

	c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	cr_assert_eq(c->nr_actions, 4);
	cr_assert_str_eq(c->actions[3], "backfill");
	gang = &c->tiers[0].plugins[0];
	cr_assert_str_eq(gang->name, "gang");
	cr_assert_eq(gang->line, 4);
	cr_assert_eq(gang->flags_set, ALL_FLAGS);
	cr_assert_eq(gang->flags_on, want_on, "%#x, want %#x", gang->flags_on, want_on);
	cr_assert_eq(vs_args_find(&gang->args, "gang.weight")->i, 2);
	cr_assert_eq(vs_args_find(&gang->args, "gang.weight")->line, 31);
	cr_assert_eq(c->tiers[0].plugins[1].flags_on, VOLCANO_ON);
	cr_assert_eq(c->tiers[1].plugins[0].flags_set, 1u << VS_EN_HIERARCHY);
	cr_assert_eq(c->tiers[1].plugins[0].flags_on, VOLCANO_ON | 1u << VS_EN_HIERARCHY);
	cr_assert_eq(c->tiers[1].plugins[1].args.nr, 2);
	cr_assert_eq(vs_args_find(&c->tiers[1].plugins[1].args, "binpack.cpu")->i, 2);

	cr_assert_eq(c->nr_configurations, 2);
	cr_assert_eq(c->configurations[0].line, 39);
	cr_assert_eq(c->configurations[1].line, 42);
	alloc = vs_conf_action_args(c, "allocate");
	cr_assert_eq(alloc, &c->configurations[0].args);
	cr_assert_eq(vs_args_find(alloc, "enablePredicateErrorCache")->type, VS_ARG_BOOL);
	cr_assert_eq(vs_args_find(alloc, "enablePredicateErrorCache")->line, 41);
	cr_assert_eq(vs_args_find(vs_conf_action_args(c, "preempt"), "preemptTasksNum")->i, 5);
	cr_assert_null(vs_conf_action_args(c, "backfill"));
	cr_assert_null(vs_conf_action_args(NULL, "backfill"));

	cr_assert_eq(c->metrics.nr, 2);
	cr_assert_str_eq(vs_args_find(&c->metrics, "address")->s, "http://prometheus:9090");
	cr_assert_eq(vs_args_find(&c->metrics, "interval")->line, 46);
	expect_round_trip(c);
	vs_conf_free(c);
	free(text);
}

/* ------------------------------------------------------------------ */
/* flags */

Test(conf, unwritten_flags_follow_the_default_and_written_ones_win)
{
	static const char text[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"    enableJobReady: false\n"
		"    enabledVictim: yes\n"
		"    enabledClusterOrder: on\n";
	struct vs_conf *on = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	struct vs_conf *off = parse_ok(text, VS_CONF_FLAGS_DEFAULT_OFF);
	const struct vs_conf_plugin *a = &on->tiers[0].plugins[0], *b = &off->tiers[0].plugins[0];
	u32 set = 1u << VS_EN_JOB_READY | 1u << VS_EN_VICTIM | 1u << VS_EN_CLUSTER_ORDER;

	cr_assert_eq(a->flags_set, set);
	cr_assert_eq(b->flags_set, set);
	cr_assert_eq(a->flags_on, (VOLCANO_ON & ~(1u << VS_EN_JOB_READY)) |
		     1u << VS_EN_CLUSTER_ORDER);
	cr_assert_eq(b->flags_on, 1u << VS_EN_VICTIM | 1u << VS_EN_CLUSTER_ORDER);
	cr_assert_not(vs_conf_plugin_enabled(a, VS_EN_JOB_READY));
	cr_assert(vs_conf_plugin_enabled(a, VS_EN_JOB_ORDER));
	cr_assert_not(vs_conf_plugin_enabled(a, VS_EN_HIERARCHY));
	cr_assert_not(vs_conf_plugin_enabled(b, VS_EN_JOB_ORDER));
	vs_conf_free(on);
	vs_conf_free(off);
}

Test(conf, a_null_flag_is_unset_as_yaml_v2_leaves_the_pointer_nil)
{
	static const char text[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"    enableJobReady: ~\n"
		"    enableJobOrder:\n"
		"    enableTaskOrder: null\n";
	struct vs_conf *c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);

	cr_assert_eq(c->tiers[0].plugins[0].flags_set, 0);
	cr_assert_eq(c->tiers[0].plugins[0].flags_on, VOLCANO_ON);
	vs_conf_free(c);
}

Test(conf, a_flag_written_Null_or_NULL_is_off_as_yaml_v2_sets_it)
{
	/* prepare() allocates the bool for these two spellings, then stores null: false */
	struct vs_conf *c = parse_ok(GANG "    enableJobReady: Null\n    enableJobOrder: NULL\n",
				     VS_CONF_FLAGS_DEFAULT_ON);
	u32 both = 1u << VS_EN_JOB_READY | 1u << VS_EN_JOB_ORDER;

	cr_assert_eq(c->tiers[0].plugins[0].flags_set, both);
	cr_assert_eq(c->tiers[0].plugins[0].flags_on, VOLCANO_ON & ~both);
	vs_conf_free(c);
}

Test(conf, flags_refuse_anything_but_a_yaml_boolean)
{
	static const char *const bad[] = {
		"maybe", "\"true\"", "'yes'", "1", "0", "t", "tRUE", "!!str true", "! true",
		"[true]", "{a: b}", "!!int 1", "18446744073709551616",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *text;

		cr_assert_geq(asprintf(&text, GANG "    enableJobReady: %s\n", bad[i]), 0);
		parse_bad(text, "t.conf:5: enableJobReady must be true or false");
		free(text);
	}
}

/* ------------------------------------------------------------------ */
/* arguments typed as yaml.v2 types them into interface{} */

Test(conf, plain_integers_resolve_as_strconv_parse_int_base_0)
{
	expect_int("10", 10);
	expect_int("-3", -3);
	expect_int("+7", 7);
	expect_int("0", 0);
	expect_int("-0", 0);
	expect_int("0x1F", 31);
	expect_int("0X1f", 31);
	expect_int("-0x10", -16);
	expect_int("0o17", 15);
	expect_int("0O17", 15);
	expect_int("017", 15);
	expect_int("-017", -15);
	expect_int("0b101", 5);
	expect_int("-0b101", -5);
	expect_int("1_000", 1000);		/* yaml.v2 drops every underscore */
	expect_int("1__0_", 10);
	expect_int("0x_1F", 31);
	expect_int("9223372036854775807", INT64_MAX);
	expect_int("-9223372036854775808", INT64_MIN);
	expect_int("0x7fffffffffffffff", INT64_MAX);
	expect_int("0b-1", -1);			/* its "0b" fallback: ParseInt("-1", 2) */
	expect_int("0b+11", 3);
	expect_int("!!int \"12\"", 12);		/* a tag resolves even quoted text */
}

Test(conf, plain_floats_resolve_as_yaml_style_float_and_parse_float)
{
	expect_float("1.5", 1.5);
	expect_float("-2.25", -2.25);
	expect_float(".5", 0.5);
	expect_float("-.5", -0.5);
	expect_float("+.5", 0.5);
	expect_float("1.", 1.0);
	expect_float("1e3", 1000.0);
	expect_float("1E-2", 0.01);
	expect_float("-0.0", -0.0);
	expect_float("08", 8.0);		/* not octal, so ParseInt fails; a float */
	expect_float("09.5", 9.5);
	expect_float("1_000.5", 1000.5);
	expect_float(".5_0", 0.5);		/* Go's ParseFloat takes '_' between digits */
	expect_float("99999999999999999999", 1e20);	/* beyond uint64 */
	expect_float("1e-400", 0.0);		/* underflow is no error in Go */
	expect_float(".inf", (double)INFINITY);
	expect_float(".Inf", (double)INFINITY);
	expect_float("+.INF", (double)INFINITY);
	expect_float("-.inf", -(double)INFINITY);
	expect_float(".nan", (double)NAN);
	expect_float(".NaN", (double)NAN);
	expect_float("!!float 1", 1.0);
	expect_float("!!float \"2.5\"", 2.5);
}

Test(conf, plain_booleans_and_nulls_are_yaml_1_1s)
{
	static const char *const yes[] = { "y", "Y", "yes", "Yes", "YES", "true", "True",
					   "TRUE", "on", "On", "ON", "!!bool yes" };
	static const char *const no[] = { "n", "N", "no", "No", "NO", "false", "False",
					  "FALSE", "off", "Off", "OFF", "!!bool 'off'" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
		expect_bool(yes[i], true);
	for (size_t i = 0; i < ARRAY_SIZE(no); i++)
		expect_bool(no[i], false);
	expect_null("~");
	expect_null("null");
	expect_null("Null");
	expect_null("NULL");
	expect_null("");
}

Test(conf, everything_else_and_anything_quoted_is_a_string)
{
	expect_string("hello world", "hello world");
	expect_string("\"10\"", "10");
	expect_string("'true'", "true");
	expect_string("\"~\"", "~");
	expect_string("''", "");
	expect_string("!!str 10", "10");
	expect_string("! 1.5", "1.5");
	expect_string("tRUE", "tRUE");
	expect_string("nan", "nan");
	expect_string("inf", "inf");
	expect_string("-inf", "-inf");
	expect_string("1e400", "1e400");	/* ParseFloat's range error */
	expect_string("-1e400", "-1e400");
	expect_string(".5e999", ".5e999");
	expect_string("0x 1", "0x 1");
	expect_string("0x", "0x");
	expect_string("0b", "0b");
	expect_string("0b2", "0b2");
	expect_string("0o8", "0o8");
	expect_string("1e", "1e");
	expect_string("._5", "._5");
	expect_string(".5_", ".5_");
	expect_string("_1", "_1");
	expect_string("+", "+");
	expect_string("1.2.3", "1.2.3");
	expect_string("2001-12-14", "2001-12-14");	/* a timestamp: a string in interface{} */
	expect_string("1:20", "1:20");			/* no base 60 in yaml.v2 */
	expect_string("0x1p-2", "0x1p-2");
	expect_string("\"tab\\there\"", "tab\there");
	expect_string("\"\\u00e9t\\u00e9\"", "\xc3\xa9t\xc3\xa9");
}

Test(conf, collections_nest_with_their_lines)
{
	char *text = with_args("      m:\n"			/* 6 */
			       "        a: 1\n"			/* 7 */
			       "        b: [x, 2.5, {c: ~}]\n"	/* 8 */
			       "        1: int key\n"		/* 9 */
			       "        ~: null key\n"		/* 10 */
			       "      e: {}\n"			/* 11 */
			       "      l: []\n");			/* 12 */
	struct vs_conf *c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	const struct vs_args *args = &c->tiers[0].plugins[0].args;
	const struct vs_arg *m = vs_args_find(args, "m"), *b;

	cr_assert_eq(args->nr, 3);
	cr_assert_eq(m->type, VS_ARG_MAP);
	cr_assert_eq(m->line, 7);
	cr_assert_eq(m->map->nr, 4);
	cr_assert_str_eq(m->map->source, "t.conf");
	cr_assert_eq(vs_args_find(m->map, "a")->i, 1);
	b = vs_args_find(m->map, "b");
	cr_assert_eq(b->type, VS_ARG_SEQ);
	cr_assert_eq(b->line, 8);
	cr_assert_eq(b->seq.nr, 3);
	cr_assert_str_eq(b->seq.items[0].s, "x");
	cr_assert_eq(b->seq.items[1].type, VS_ARG_FLOAT);
	cr_assert_eq(b->seq.items[2].type, VS_ARG_MAP);
	cr_assert_eq(vs_args_find(b->seq.items[2].map, "c")->type, VS_ARG_NULL);
	cr_assert_str_eq(vs_args_find(m->map, "1")->s, "int key");	/* keys are text */
	cr_assert_str_eq(vs_args_find(m->map, "")->s, "null key");	/* a null key is "" */
	cr_assert_eq(vs_args_find(args, "e")->type, VS_ARG_MAP);
	cr_assert_eq(vs_args_find(args, "e")->map->nr, 0);
	cr_assert_eq(vs_args_find(args, "l")->type, VS_ARG_SEQ);
	cr_assert_eq(vs_args_find(args, "l")->seq.nr, 0);
	cr_assert_null(vs_args_find(args, "absent"));
	cr_assert_null(vs_args_find(NULL, "m"));
	vs_conf_free(c);
	free(text);
}

Test(conf, values_struct_vs_arg_cannot_hold_are_refused)
{
	expect_refused("9223372036854775808",
		       "integer 9223372036854775808 does not fit in 64 signed bits");
	expect_refused("0xffffffffffffffff",
		       "integer 0xffffffffffffffff does not fit in 64 signed bits");
	expect_refused("\"a\\0b\"", "a string holds a NUL byte");
	expect_refused("!!int abc", "\"abc\" is not a valid !!int");
	expect_refused("!!int 1.5", "\"1.5\" is not a valid !!int");
	expect_refused("!!float yes", "\"yes\" is not a valid !!float");
	expect_refused("!!bool 1", "\"1\" is not a valid !!bool");
	expect_refused("!!binary aGk=", "tag !!binary is not supported here");
	expect_refused("!!null ~", "tag !!null is not supported here");
	expect_refused("!!map [1]", "tag !!map is not supported here");
	expect_refused("!custom x", "tag !custom is not supported");
}

/* ------------------------------------------------------------------ */
/* the getters */

Test(conf, getters_take_what_volcanos_arguments_get_take)
{
	char *text = with_args("      w: 3\n"				/* 6 */
			       "      f: 1.5\n"				/* 7 */
			       "      b: false\n"			/* 8 */
			       "      s: hello\n");			/* 9 */
	struct vs_conf *c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	const struct vs_args *a = &c->tiers[0].plugins[0].args;
	s64 i = 7;
	double f = 0.25;
	bool b = true;
	const char *s = "default";

	/* an absent key leaves the plugin's default */
	cr_assert_eq(vs_args_get_int(a, "absent", &i, NULL), 0);
	cr_assert_eq(vs_args_get_float(a, "absent", &f, NULL), 0);
	cr_assert_eq(vs_args_get_bool(a, "absent", &b, NULL), 0);
	cr_assert_eq(vs_args_get_string(a, "absent", &s, NULL), 0);
	cr_assert_eq(vs_args_get_int(NULL, "w", &i, NULL), 0);
	cr_assert_eq(i, 7);
	cr_assert_float_eq(f, 0.25, 0);
	cr_assert(b);
	cr_assert_str_eq(s, "default");

	cr_assert_eq(vs_args_get_int(a, "w", &i, NULL), 0);
	cr_assert_eq(i, 3);
	cr_assert_eq(vs_args_get_float(a, "f", &f, NULL), 0);
	cr_assert_float_eq(f, 1.5, 0);
	cr_assert_eq(vs_args_get_float(a, "w", &f, NULL), 0);	/* GetFloat64 takes an int */
	cr_assert_float_eq(f, 3.0, 0);
	cr_assert_eq(vs_args_get_bool(a, "b", &b, NULL), 0);
	cr_assert_not(b);
	cr_assert_eq(vs_args_get_string(a, "s", &s, NULL), 0);
	cr_assert_str_eq(s, "hello");
	cr_assert_eq(s, vs_args_find(a, "s")->s, "the string stays owned by the arguments");
	vs_conf_free(c);
	free(text);
}

Test(conf, get_bool_takes_strconv_parse_bool_spellings_in_a_string)
{
	static const char *const t[] = { "1", "t", "T", "TRUE", "true", "True" };
	static const char *const f[] = { "0", "f", "F", "FALSE", "false", "False" };
	struct vs_err e = { { 0 } };
	char args[512], *text;
	size_t n = 0;
	struct vs_conf *c;
	const struct vs_args *a;
	bool b;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++)
		n += (size_t)snprintf(args + n, sizeof(args) - n,
				      "      t%zu: \"%s\"\n      f%zu: '%s'\n", i, t[i], i, f[i]);
	snprintf(args + n, sizeof(args) - n, "      yes: \"yes\"\n      one: 1\n");
	text = with_args(args);
	c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	a = &c->tiers[0].plugins[0].args;
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		char key[8];

		snprintf(key, sizeof(key), "t%zu", i);
		b = false;
		cr_assert_eq(vs_args_get_bool(a, key, &b, NULL), 0);
		cr_assert(b, "%s", t[i]);
		snprintf(key, sizeof(key), "f%zu", i);
		cr_assert_eq(vs_args_get_bool(a, key, &b, NULL), 0);
		cr_assert_not(b, "%s", f[i]);
	}
	/* ParseBool does not know "yes"; GetBool does not take an int */
	b = true;
	cr_assert_eq(vs_args_get_bool(a, "yes", &b, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:18: argument \"yes\": expected true or false, got \"yes\"");
	vs_err_clear(&e);
	cr_assert_eq(vs_args_get_bool(a, "one", &b, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:19: argument \"one\": expected true or false, got 1");
	cr_assert(b, "a refused value leaves the default");
	vs_conf_free(c);
	free(text);
}

Test(conf, getters_refuse_a_wrong_type_with_file_and_line)
{
	char *text = with_args("      binpack.weight: abc\n"	/* 6 */
			       "      f: 1.5\n"			/* 7 */
			       "      n: 10\n"			/* 8 */
			       "      m: {a: 1}\n"		/* 9 */
			       "      l: [1]\n"			/* 10 */
			       "      z: ~\n"			/* 11 */
			       "      b: true\n");		/* 12 */
	struct vs_conf *c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	const struct vs_args *a = &c->tiers[0].plugins[0].args;
	static const struct {
		int getter;		/* 0 int, 1 float, 2 bool, 3 string */
		const char *key, *msg;
	} cases[] = {
		{ 0, "binpack.weight",
		  "t.conf:6: argument \"binpack.weight\": expected an integer, got \"abc\"" },
		{ 0, "f", "t.conf:7: argument \"f\": expected an integer, got 1.5" },
		{ 0, "b", "t.conf:12: argument \"b\": expected an integer, got true" },
		{ 1, "binpack.weight",
		  "t.conf:6: argument \"binpack.weight\": expected a number, got \"abc\"" },
		{ 1, "z", "t.conf:11: argument \"z\": expected a number, got null" },
		{ 2, "m", "t.conf:9: argument \"m\": expected true or false, got a mapping" },
		{ 2, "f", "t.conf:7: argument \"f\": expected true or false, got 1.5" },
		{ 3, "n", "t.conf:8: argument \"n\": expected a string, got 10" },
		{ 3, "l", "t.conf:10: argument \"l\": expected a string, got a list" },
		{ 3, "b", "t.conf:12: argument \"b\": expected a string, got true" },
	};

	for (size_t k = 0; k < ARRAY_SIZE(cases); k++) {
		struct vs_err e = { { 0 } };
		s64 i = 1;
		double f = 1;
		bool b = true;
		const char *s = "x";
		int ret;

		switch (cases[k].getter) {
		case 0:
			ret = vs_args_get_int(a, cases[k].key, &i, &e);
			break;
		case 1:
			ret = vs_args_get_float(a, cases[k].key, &f, &e);
			break;
		case 2:
			ret = vs_args_get_bool(a, cases[k].key, &b, &e);
			break;
		default:
			ret = vs_args_get_string(a, cases[k].key, &s, &e);
			break;
		}
		cr_assert_eq(ret, -EINVAL, "%s", cases[k].msg);
		cr_assert_str_eq(e.msg, cases[k].msg);
		cr_assert(i == 1 && f == 1 && b && !strcmp(s, "x"), "the default stays");
	}
	cr_assert_eq(vs_args_get_int(a, "f", &(s64){ 0 }, NULL), -EINVAL, "a NULL err is fine");
	vs_conf_free(c);
	free(text);
}

/* ------------------------------------------------------------------ */
/* the schema, the names, and what is refused */

Test(conf, actions_split_on_commas_and_trimmed_and_may_repeat)
{
	struct vs_conf *c = parse_ok("actions: \" enqueue ,allocate,\tbackfill ,allocate\"\n",
				     VS_CONF_FLAGS_DEFAULT_ON);

	cr_assert_eq(c->nr_actions, 4);
	cr_assert_str_eq(c->actions[0], "enqueue");
	cr_assert_str_eq(c->actions[1], "allocate");
	cr_assert_str_eq(c->actions[2], "backfill");
	cr_assert_str_eq(c->actions[3], "allocate");
	cr_assert_eq(c->nr_tiers, 0, "tiers may be absent");
	vs_conf_free(c);
}

Test(conf, a_null_name_list_accepts_any_name)
{
	static const char text[] =
		"actions: shuffle, allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: my-plugin\n"
		"configurations:\n"
		"- name: shuffle\n";
	const char *const only_allocate[] = { "allocate" };
	struct vs_conf_names some = { .actions = NULL, .plugins = only_allocate, .nr_plugins = 1 };
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_conf_parse(text, strlen(text), NULL, NULL, VS_CONF_FLAGS_DEFAULT_ON, &c,
				   &e), 0, "%s", e.msg);
	cr_assert_str_eq(c->source, "configuration");
	cr_assert_str_eq(c->tiers[0].plugins[0].name, "my-plugin");
	vs_conf_free(c);
	/* a NULL action list with a plugin list: only the plugins are checked */
	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &some, VS_CONF_FLAGS_DEFAULT_ON,
				   &c, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:4: unknown plugin \"my-plugin\" (known: allocate)");
}

Test(conf, empty_and_null_sections_are_allowed)
{
	static const char *const ok[] = {
		"actions: allocate\ntiers:\n",
		"actions: allocate\ntiers: []\n",
		PLUGINS,
		"actions: allocate\ntiers:\n- plugins: []\n",
		"actions: allocate\ntiers:\n- ~\n- {}\n",
		GANG "    arguments:\n",
		GANG "    arguments: {}\n",
		"actions: allocate\nconfigurations:\n",
		"actions: allocate\nconfigurations:\n- name: allocate\n",
		"actions: allocate\nconfigurations:\n- name: allocate\n  arguments: ~\n",
		"actions: allocate\nmetrics:\n",
		"actions: allocate\nmetrics: {}\n",
		"---\nactions: allocate\n...\n",
		"%YAML 1.1\n---\n\"actions\": !!str allocate\n",
		"{actions: allocate, tiers: [{plugins: [{name: gang, enableJobReady: false}]}]}",
	};

	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		vs_conf_free(parse_ok(ok[i], VS_CONF_FLAGS_DEFAULT_ON));
}

Test(conf, metrics_are_a_map_of_strings_as_volcano_declares_them)
{
	struct vs_conf *c = parse_ok("actions: allocate\n"
				     "metrics:\n"
				     "  address: http://x:9090\n"
				     "  interval: 30\n"
				     "  enable: true\n"
				     "  empty: ~\n"
				     "  quoted: \"q\"\n", VS_CONF_FLAGS_DEFAULT_ON);

	cr_assert_eq(c->metrics.nr, 5);
	for (u32 i = 0; i < c->metrics.nr; i++)
		cr_assert_eq(c->metrics.kv[i].val.type, VS_ARG_STRING);
	cr_assert_str_eq(vs_args_find(&c->metrics, "interval")->s, "30");
	cr_assert_str_eq(vs_args_find(&c->metrics, "enable")->s, "true");
	cr_assert_str_eq(vs_args_find(&c->metrics, "empty")->s, "");
	cr_assert_eq(vs_args_find(&c->metrics, "quoted")->line, 7);
	cr_assert_str_eq(c->metrics.source, "t.conf");
	vs_conf_free(c);
}

Test(conf, unknown_keys_are_refused_at_every_level)
{
	parse_bad("actions: allocate\n\nactoins: x\n", "t.conf:3: unknown key \"actoins\"");
	parse_bad(GANG "    enableJobReddy: true\n",
		  "t.conf:5: unknown key \"enableJobReddy\" in plugin gang");
	/* the plugin is named even when its name comes after the mistake */
	parse_bad(PLUGINS "  - enableJobReddy: true\n    name: gang\n",
		  "t.conf:4: unknown key \"enableJobReddy\" in plugin gang");
	parse_bad(GANG "    argument: {}\n",
		  "t.conf:5: unknown key \"argument\" in plugin gang");
	parse_bad("actions: allocate\ntiers:\n- plugin:\n  - name: gang\n",
		  "t.conf:3: unknown key \"plugin\" in a tier");
	parse_bad("actions: allocate\nconfigurations:\n- args: {}\n  name: allocate\n",
		  "t.conf:3: unknown key \"args\" in configuration allocate");
	parse_bad("actions: allocate\n~: x\n", "t.conf:2: unknown key \"\"");
	parse_bad("actions: allocate\n\"a\\x01b\": x\n", "t.conf:2: unknown key \"a?b\"");
}

Test(conf, wrong_types_are_refused_with_the_line_of_the_value)
{
	parse_bad("actions: [allocate]\n", "t.conf:1: actions must be a string");
	parse_bad("actions: allocate\ntiers: {a: 1}\n", "t.conf:2: tiers must be a list");
	parse_bad("actions: allocate\ntiers: gang\n", "t.conf:2: tiers must be a list");
	parse_bad("actions: allocate\ntiers:\n- gang\n", "t.conf:3: a tier must be a mapping");
	parse_bad("actions: allocate\ntiers:\n- plugins: gang\n",
		  "t.conf:3: plugins must be a list");
	parse_bad(PLUGINS "  - gang\n",
		  "t.conf:4: a plugin must be a mapping");
	parse_bad(PLUGINS "  - name: [gang]\n",
		  "t.conf:4: name must be a string");
	parse_bad(GANG "    arguments: [1]\n",
		  "t.conf:5: arguments must be a mapping");
	parse_bad(GANG "    arguments: 1\n",
		  "t.conf:5: arguments must be a mapping");
	parse_bad("actions: allocate\nconfigurations: {name: allocate}\n",
		  "t.conf:2: configurations must be a list");
	parse_bad("actions: allocate\nconfigurations:\n- allocate\n",
		  "t.conf:3: a configuration must be a mapping");
	parse_bad("actions: allocate\nconfigurations:\n- name: allocate\n  arguments: x\n",
		  "t.conf:4: arguments must be a mapping");
	parse_bad("actions: allocate\nmetrics: [a]\n", "t.conf:2: metrics must be a mapping");
	parse_bad("actions: allocate\nmetrics:\n  a: b\n  c: {d: e}\n",
		  "t.conf:4: metrics value \"c\" must be a string");
	parse_bad("- a\n- b\n", "t.conf:1: expected a mapping with actions and tiers");
	parse_bad("hello\n", "t.conf:1: expected a mapping with actions and tiers");
}

Test(conf, actions_and_names_are_checked_against_the_registry)
{
	parse_bad("actions: \"enqueue, alocate\"\n",
		  "t.conf:1: unknown action \"alocate\" " KNOWN_ACTIONS);
	parse_bad("tiers: []\nactions: \"enqueue,\n  allocat\"\n",
		  "t.conf:2: unknown action \"allocat\" " KNOWN_ACTIONS);
	parse_bad(PLUGINS "  - enableJobOrder: true\n    name: gangg\n",
		  "t.conf:5: unknown plugin \"gangg\" " KNOWN_PLUGINS);
	parse_bad("actions: allocate\nconfigurations:\n- name: enqueue\n- name: shuffle\n",
		  "t.conf:4: unknown action \"shuffle\" " KNOWN_ACTIONS);
	parse_bad("actions: allocate\nconfigurations:\n- name: allocate\n- arguments: {}\n"
		  "  name: allocate\n",
		  "t.conf:5: a second configuration for action allocate (first on line 3)");
}

Test(conf, missing_and_empty_actions_and_names_are_refused)
{
	parse_bad("tiers: []\n", "t.conf:1: no actions");
	parse_bad("\n\ntiers: []\n", "t.conf:3: no actions");
	parse_bad("actions:\n", "t.conf:1: no actions");
	parse_bad("actions: \" \"\n", "t.conf:1: no actions");
	parse_bad("actions: \"enqueue,,allocate\"\n",
		  "t.conf:1: empty action in \"enqueue,,allocate\"");
	parse_bad("actions: \"enqueue,\"\n", "t.conf:1: empty action in \"enqueue,\"");
	parse_bad("actions: \", enqueue\"\n", "t.conf:1: empty action in \", enqueue\"");
	parse_bad("actions: \"enqueue, ,allocate\"\n",
		  "t.conf:1: empty action in \"enqueue, ,allocate\"");
	parse_bad("", "t.conf:1: no actions (the file is empty)");
	parse_bad("# nothing but a comment\n", "t.conf:1: no actions (the file is empty)");
	parse_bad("~\n", "t.conf:1: no actions (the file is empty)");
	parse_bad_len(NULL, 0, "t.conf:1: no actions (the file is empty)");
	parse_bad(PLUGINS "  - enableJobReady: true\n",
		  "t.conf:4: a plugin without a name");
	parse_bad(PLUGINS "  - name: \"\"\n",
		  "t.conf:4: a plugin without a name");
	parse_bad(PLUGINS "  - ~\n", "t.conf:4: a plugin without a name");
	parse_bad("actions: allocate\nconfigurations:\n- arguments: {a: 1}\n",
		  "t.conf:3: a configuration without a name");
}

Test(conf, duplicate_keys_are_refused_at_every_level)
{
	parse_bad("actions: allocate\ntiers: []\nactions: enqueue\n",
		  "t.conf:3: duplicate key \"actions\" (first on line 1)");
	parse_bad(GANG "    enableJobReady: true\n"
		  "    enableJobReady: false\n",
		  "t.conf:6: duplicate key \"enableJobReady\" (first on line 5)");
	parse_bad(GANG "    arguments:\n"
		  "    arguments: {a: 1}\n",
		  "t.conf:6: duplicate key \"arguments\" (first on line 5)");
	parse_bad(GANG "    name: drf\n",
		  "t.conf:5: duplicate key \"name\" (first on line 4)");
	parse_bad(GANG "    arguments: {a: 1, a: 2}\n",
		  "t.conf:5: duplicate key \"a\" (first on line 5)");
	parse_bad("actions: allocate\nmetrics:\n  x: {b: 1, c: 2}\n  y: 1\n  x: 2\n",
		  "t.conf:5: duplicate key \"x\" (first on line 3)");
	/* the earliest repetition in the file is the one reported */
	parse_bad("actions: allocate\nmetrics:\n  a: 1\n  b: 1\n  b: 2\n  a: 2\n",
		  "t.conf:5: duplicate key \"b\" (first on line 4)");
	/* null keys are all "" */
	parse_bad("actions: allocate\nmetrics:\n  ~: 1\n  null: 2\n",
		  "t.conf:4: duplicate key \"\" (first on line 3)");
	/* but a quoted "~" is the string "~" */
	vs_conf_free(parse_ok("actions: allocate\nmetrics:\n  ~: 1\n  \"~\": 2\n",
			      VS_CONF_FLAGS_DEFAULT_ON));
}

Test(conf, yaml_syntax_errors_carry_line_and_column)
{
	parse_bad("actions: allocate\ntiers:\n- plugins: [\n",
		  "t.conf:4:1: did not find expected node content "
		  "(while parsing a flow node on line 4)");
	parse_bad("actions: allocate\ntiers:\n  - plugins:\n - name: x\n",
		  "t.conf:4:2: did not find expected key "
		  "(while parsing a block mapping on line 1)");
	parse_bad("actions: \"allocate\n",
		  "t.conf:2:1: found unexpected end of stream "
		  "(while scanning a quoted scalar on line 1)");
	parse_bad("actions: allocate\n\tfoo: 1\n",
		  "t.conf:2:1: found a tab character that violates indentation "
		  "(while scanning a plain scalar on line 1)");
	/* the reader knows only a byte offset: the line is counted from it */
	parse_bad(GANG "    arguments: {a: \xff}\n",
		  "t.conf:5: invalid leading UTF-8 octet (0xff at byte 70)");
	parse_bad("actions: allocate\nx\x01: 1\n",
		  "t.conf:2: control characters are not allowed (0x01 at byte 19)");
	parse_bad_len("actions: allocate\n\0x: 1\n", 24,
		      "t.conf:2: control characters are not allowed (0x00 at byte 18)");
}

Test(conf, yaml_features_the_loader_does_not_take_are_refused)
{
	parse_bad(PLUGINS "  - &g {name: gang}\n  - *g\n",
		  "t.conf:5: aliases (*g) are not supported");
	parse_bad("actions: &a allocate\nmetrics: {x: *a}\n",
		  "t.conf:2: aliases (*a) are not supported");
	parse_bad("actions: allocate\nmetrics:\n  <<: {a: b}\n",
		  "t.conf:3: merge keys (<<) are not supported");
	parse_bad("actions: allocate\nmetrics: {? [a]: b}\n",
		  "t.conf:2: a mapping key must be a string");
	parse_bad("actions: allocate\n---\nactions: enqueue\n", "t.conf:2: a second YAML document");
	parse_bad("actions: allocate\ntiers: !!set {a: b}\n",
		  "t.conf:2: tag !!set is not supported here");
	/* anchors alone are harmless and allowed */
	vs_conf_free(parse_ok("actions: &a allocate\n", VS_CONF_FLAGS_DEFAULT_ON));
	/* a quoted "<<" is an ordinary key */
	vs_conf_free(parse_ok("actions: allocate\nmetrics: {\"<<\": b}\n",
			      VS_CONF_FLAGS_DEFAULT_ON));
}

Test(conf, nesting_is_capped_at_64_levels)
{
	char *text = with_args(""), *p;
	size_t base = strlen(text);
	struct vs_conf *c;

	/* the arguments mapping is level 6: 58 more levels are fine, 59 are not */
	text = realloc(text, base + 512);
	p = text + base;
	p += sprintf(p, "      v: ");
	for (int i = 0; i < 58; i++)
		*p++ = '[';
	*p++ = '1';
	for (int i = 0; i < 58; i++)
		*p++ = ']';
	strcpy(p, "\n");
	c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	expect_round_trip(c);
	vs_conf_free(c);

	p = text + base;
	p += sprintf(p, "      v: ");
	for (int i = 0; i < 59; i++)
		*p++ = '[';
	*p++ = '1';
	for (int i = 0; i < 59; i++)
		*p++ = ']';
	strcpy(p, "\n");
	parse_bad(text, "t.conf:6: nested more than 64 levels deep");
	free(text);
}

Test(conf, drf_with_hierarchy_beside_proportion_in_one_tier_is_refused)
{
	static const char conflict[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: proportion\n"
		"  - name: drf\n"
		"    enableHierarchy: true\n";
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	parse_bad(conflict, "t.conf:5: proportion and drf with hierarchy enabled conflict");
	cr_assert_eq(vs_conf_parse(conflict, strlen(conflict), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_OFF, &c, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:5: proportion and drf with hierarchy enabled conflict");
	/* in separate tiers, hierarchy off, or unset (which stays off): accepted */
	vs_conf_free(parse_ok(PLUGINS "  - name: drf\n"
			      "    enableHierarchy: true\n- plugins:\n  - name: proportion\n",
			      VS_CONF_FLAGS_DEFAULT_ON));
	vs_conf_free(parse_ok(PLUGINS "  - name: drf\n"
			      "    enableHierarchy: false\n  - name: proportion\n",
			      VS_CONF_FLAGS_DEFAULT_ON));
	c = parse_ok(PLUGINS "  - name: drf\n  - name: proportion\n",
		     VS_CONF_FLAGS_DEFAULT_ON);
	cr_assert_not(vs_conf_plugin_enabled(&c->tiers[0].plugins[0], VS_EN_HIERARCHY));
	vs_conf_free(c);
}

Test(conf, a_refused_file_leaves_out_null_and_a_null_err_is_fine)
{
	struct vs_conf *c = (void *)1;

	cr_assert_eq(vs_conf_parse("actions: x\n", 11, "t.conf", &names, VS_CONF_FLAGS_DEFAULT_ON,
				   &c, NULL), -EINVAL);
	cr_assert_null(c);
	vs_conf_free(NULL);
}

/* ------------------------------------------------------------------ */
/* formatting */

Test(conf, format_reads_back_to_an_equal_configuration)
{
	static const char text[] =
		"actions: \"enqueue, allocate\"\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"    enableJobReady: false\n"
		"    arguments:\n"
		"      s: \"a \\\"q\\\" \\\\ b\"\n"
		"      ctl: \"\\x01\\t\\n\\x7f\\u0085\\u2028\\ufeff\\uffff\"\n"
		"      utf8: \"\\u00e9\\u4e2d\\U0001F600\"\n"
		"      looks: [\"10\", \"yes\", \"~\", \"\", \"1.5\", \".inf\", \"- x\", \"#c\",\n"
		"              \"a: b\"]\n"
		"      ints: [0, -1, 9223372036854775807, -9223372036854775808]\n"
		"      floats: [2.0, 0.1, -0.0, 1e15, 1e300, 5e-324, .inf, -.inf, .nan,\n"
		"               123456789.125]\n"
		"      misc: {t: true, f: false, z: null, e: {}, l: [], n: {\"k \\\"\": [{}]}}\n"
		"      ? \"key\\nwith newline\"\n"
		"      : 1\n"
		"  - name: drf\n"
		"- plugins: []\n"
		"- plugins:\n"
		"  - name: priority\n"
		"    enableHierarchy: yes\n"
		"configurations:\n"
		"- name: allocate\n"
		"  arguments: {enablePredicateErrorCache: false}\n"
		"- name: enqueue\n"
		"metrics: {address: \"http://x\", interval: 30}\n";
	struct vs_conf *a = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);

	expect_round_trip(a);
	vs_conf_free(a);
	a = parse_ok(text, VS_CONF_FLAGS_DEFAULT_OFF);
	expect_round_trip(a);
	vs_conf_free(a);
	a = parse_ok(vs_conf_default_text, VS_CONF_FLAGS_DEFAULT_ON);
	expect_round_trip(a);
	vs_conf_free(a);
}

Test(conf, format_writes_every_flag_and_reports_the_length_it_needs)
{
	struct vs_conf *c = parse_ok(GANG,
				     VS_CONF_FLAGS_DEFAULT_ON);
	size_t n = vs_conf_format(c, NULL, 0);
	char *full = malloc(n + 1), small[16];

	cr_assert_eq(vs_conf_format(c, full, n + 1), n);
	cr_assert_eq(strlen(full), n);
	for (int f = 0; f < VS_EN_NR; f++)
		cr_assert(strstr(full, vs_en_flag_name((enum vs_en_flag)f)), "flag %d", f);
	cr_assert(strstr(full, "    enableHierarchy: false\n"));
	cr_assert(strstr(full, "    enableJobOrder: true\n"));
	cr_assert_eq(strncmp(full, "actions: \"allocate\"\ntiers:\n- plugins:\n"
			     "  - name: \"gang\"\n", 55), 0, "%s", full);
	/* a short buffer gets a terminated prefix; the return still says how much */
	cr_assert_eq(vs_conf_format(c, small, sizeof(small)), n);
	cr_assert_eq(strlen(small), sizeof(small) - 1);
	cr_assert_eq(strncmp(small, full, sizeof(small) - 1), 0);
	cr_assert_eq(vs_conf_format(c, small, 0), n);
	free(full);
	vs_conf_free(c);
}

/* ------------------------------------------------------------------ */
/* files */

static void write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, len), (ssize_t)len);
	close(fd);
}

Test(conf, load_file_reads_a_file_with_flags_defaulting_on)
{
	char path[] = "/tmp/vsched-conf-XXXXXX";
	int fd = mkstemp(path);
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	cr_assert_geq(fd, 0);
	close(fd);
	write_file(path, vs_conf_default_text, strlen(vs_conf_default_text));
	cr_assert_eq(vs_conf_load_file(path, &names, &c, &e), 0, "%s", e.msg);
	cr_assert_str_eq(c->source, path);
	cr_assert_str_eq(c->tiers[1].plugins[0].args.source, path);
	cr_assert_eq(c->tiers[0].plugins[0].flags_on, VOLCANO_ON);
	vs_conf_free(c);

	/* a refusal names the file and the line */
	write_file(path, "tiers: []\nactions: allocat\n", 27);
	cr_assert_eq(vs_conf_load_file(path, &names, &c, &e), -EINVAL);
	cr_assert_null(c);
	cr_assert(!strncmp(e.msg, path, strlen(path)) &&
		  !strcmp(e.msg + strlen(path), ":2: unknown action \"allocat\" " KNOWN_ACTIONS),
		  "%s", e.msg);
	unlink(path);
}

Test(conf, load_file_errors_name_the_path_and_the_reason)
{
	struct vs_conf *c = (void *)1;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_conf_load_file("/nonexistent/vsched.conf", &names, &c, &e), -ENOENT);
	cr_assert_null(c);
	cr_assert_str_eq(e.msg, "/nonexistent/vsched.conf: No such file or directory");
	vs_err_clear(&e);
	cr_assert_eq(vs_conf_load_file("/", &names, &c, &e), -EISDIR);
	cr_assert_str_eq(e.msg, "/: a directory, not a regular file");
}

/*
 * What is not a regular file is refused at once, never waited on: opened
 * to be read, a FIFO nobody writes holds the reader (the daemon on SIGHUP,
 * with every client) until a writer comes. The test's timeout bounds a
 * loader that waits.
 */
Test(conf, load_file_refuses_a_fifo_or_a_device_at_once, .timeout = 10)
{
	char dir[] = "/tmp/vsched-conf-XXXXXX", fifo[64], want[96];
	struct vs_conf *c = (void *)1;
	struct vs_err e = { { 0 } };

	cr_assert_not_null(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/volcano-scheduler.conf", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	cr_assert_eq(vs_conf_load_file(fifo, &names, &c, &e), -EINVAL);
	cr_assert_null(c);
	snprintf(want, sizeof(want), "%s: a FIFO, not a regular file", fifo);
	cr_assert_str_eq(e.msg, want);
	vs_err_clear(&e);
	cr_assert_eq(vs_conf_load_file("/dev/null", &names, &c, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "/dev/null: a character device, not a regular file");
	unlink(fifo);
	rmdir(dir);
}

Test(conf, load_file_takes_4_mib_and_refuses_a_byte_more)
{
	char path[] = "/tmp/vsched-conf-XXXXXX";
	int fd = mkstemp(path);
	size_t max = 4u << 20, head = strlen(vs_conf_default_text);
	char *text = malloc(max + 1), *want;
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	cr_assert_geq(fd, 0);
	close(fd);
	/* exactly 4 MiB: the default, then one long comment */
	memcpy(text, vs_conf_default_text, head);
	text[head] = '#';
	memset(text + head + 1, 'x', max - head - 2);
	text[max - 1] = '\n';
	write_file(path, text, max);
	cr_assert_eq(vs_conf_load_file(path, &names, &c, &e), 0, "%s", e.msg);
	cr_assert_eq(c->nr_tiers, 2);
	vs_conf_free(c);

	text[max - 1] = 'x';
	text[max] = '\n';
	write_file(path, text, max + 1);
	cr_assert_eq(vs_conf_load_file(path, &names, &c, &e), -EFBIG);
	cr_assert_null(c);
	cr_assert_geq(asprintf(&want, "%s: larger than 4194304 bytes", path), 0);
	cr_assert_str_eq(e.msg, want);
	unlink(path);
	free(want);
	free(text);
}

/* ------------------------------------------------------------------ */
/* robustness: any input returns, refused or accepted, and frees cleanly */

static u64 rng_next(u64 *s)
{
	/* xorshift64: fixed seed, the same mutations on every run */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char fuzz_base[] =
	"actions: \"enqueue, allocate, backfill\"\n"
	"tiers:\n"
	"- plugins:\n"
	"  - name: priority\n"
	"  - name: gang\n"
	"    enableJobReady: false\n"
	"    enabledVictim: yes\n"
	"- plugins:\n"
	"  - name: drf\n"
	"    enableHierarchy: false\n"
	"  - name: binpack\n"
	"    arguments:\n"
	"      binpack.weight: 10\n"
	"      binpack.resources: nvidia.com/gpu\n"
	"      f: [1.5, .inf, 0x1F, ~, {a: \"q\\\"\"}]\n"
	"configurations:\n"
	"- name: allocate\n"
	"  arguments: {enablePredicateErrorCache: true}\n"
	"metrics: {address: \"http://x\"}\n";

/* Mutate @buf (of @n bytes, room for @cap) once; returns the new length. */
static size_t mutate(char *buf, size_t n, size_t cap, u64 *rng)
{
	u64 r = rng_next(rng);
	size_t at = n ? (size_t)(r >> 16) % n : 0;

	switch (r % 8) {
	case 0:		/* a random byte */
		if (n)
			buf[at] = (char)(r >> 40);
		return n;
	case 1:		/* a flipped bit */
		if (n)
			buf[at] ^= (char)(1u << ((r >> 8) % 8));
		return n;
	case 2:		/* truncate */
		return n ? at : 0;
	case 3: {	/* duplicate the line at @at */
		size_t b = at, e = at;

		while (b && buf[b - 1] != '\n')
			b--;
		while (e < n && buf[e] != '\n')
			e++;
		if (e < n)
			e++;
		if (n + (e - b) > cap)
			return n;
		memmove(buf + e + (e - b), buf + e, n - e);
		memcpy(buf + e, buf + b, e - b);
		return n + (e - b);
	}
	case 4: {	/* delete the line at @at */
		size_t b = at, e = at;

		while (b && buf[b - 1] != '\n')
			b--;
		while (e < n && buf[e] != '\n')
			e++;
		if (e < n)
			e++;
		memmove(buf + b, buf + e, n - e);
		return n - (e - b);
	}
	case 5:		/* a YAML indicator */
		if (n)
			buf[at] = "{}[]:-&*!|>'\"%@`#,?~\n\t "[(r >> 8) % 24];
		return n;
	case 6:		/* insert a byte, shifting the indentation */
		if (n + 1 > cap)
			return n;
		memmove(buf + at + 1, buf + at, n - at);
		buf[at] = (r >> 8) & 1 ? ' ' : (char)(r >> 40);
		return n + 1;
	default: {	/* swap two bytes */
		size_t to = n ? (size_t)(r >> 40) % n : 0;
		char t;

		if (!n)
			return n;
		t = buf[at];
		buf[at] = buf[to];
		buf[to] = t;
		return n;
	}
	}
}

Test(conf, mangled_files_never_crash_or_leak, .timeout = 120)
{
	size_t len = strlen(fuzz_base), cap = 4 * len;
	char *buf = malloc(cap);
	u64 rng = 0x9e3779b97f4a7c15ull;
	int accepted = 0, rounds = 4000;

	for (int round = 0; round < rounds; round++) {
		struct vs_conf *conf = (void *)1;
		struct vs_err e = { { 0 } };
		size_t n = len;
		int ret;

		memcpy(buf, fuzz_base, len);
		for (int k = 0; k < 1 + round % 6; k++)
			n = mutate(buf, n, cap, &rng);
		ret = vs_conf_parse(buf, n, "fuzz", &names, round & 1 ? VS_CONF_FLAGS_DEFAULT_ON :
				    VS_CONF_FLAGS_DEFAULT_OFF, &conf, &e);
		if (ret) {
			cr_assert_lt(ret, 0);
			cr_assert_null(conf);
			cr_assert(!strncmp(e.msg, "fuzz:", 5), "round %d: \"%s\"", round, e.msg);
			continue;
		}
		/* whatever was accepted must also survive the round trip */
		accepted++;
		expect_round_trip(conf);
		vs_conf_free(conf);
	}
	free(buf);
	cr_log_info("%d of %d mangled files accepted and round-tripped", accepted, rounds);
	cr_assert_lt(accepted, rounds, "mutations were expected to break some files");
	cr_assert_gt(accepted, 0, "some mutations were expected to keep the file valid");
}

Test(conf, garbage_and_pathological_input_is_refused_cleanly, .timeout = 120)
{
	size_t big = 1u << 20;
	char *buf = malloc(big + 64);
	u64 rng = 42;
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	/* random bytes, printable or not */
	for (int round = 0; round < 500; round++) {
		size_t n = rng_next(&rng) % 512;

		for (size_t i = 0; i < n; i++)
			buf[i] = (char)(round & 1 ? rng_next(&rng) : 0x20 + rng_next(&rng) % 95);
		if (!vs_conf_parse(buf, n, "junk", NULL, VS_CONF_FLAGS_DEFAULT_ON, &c, NULL))
			vs_conf_free(c);
	}

	/* a megabyte of '[' stops at the depth cap, not at the end of the stack */
	memset(buf, '[', big);
	cr_assert_eq(vs_conf_parse(buf, big, "deep", NULL, VS_CONF_FLAGS_DEFAULT_ON, &c, &e),
		     -EINVAL);
	cr_assert_str_eq(e.msg, "deep:1: nested more than 64 levels deep");
	vs_err_clear(&e);
	for (size_t i = 0; i < big; i += 4)
		memcpy(buf + i, "{a: ", 4);
	cr_assert_eq(vs_conf_parse(buf, big, "deep", NULL, VS_CONF_FLAGS_DEFAULT_ON, &c, &e),
		     -EINVAL);
	cr_assert_str_eq(e.msg, "deep:1: nested more than 64 levels deep");
	vs_err_clear(&e);
	/* the block form: "- - - - ..." */
	for (size_t i = 0; i < big; i += 2) {
		buf[i] = '-';
		buf[i + 1] = ' ';
	}
	cr_assert_eq(vs_conf_parse(buf, big, "deep", NULL, VS_CONF_FLAGS_DEFAULT_ON, &c, &e),
		     -EINVAL);
	cr_assert_str_eq(e.msg, "deep:1: nested more than 64 levels deep");
	vs_err_clear(&e);

	/* a billion laughs stops at the first alias */
	strcpy(buf, "a: &a [x, x, x, x, x, x, x, x, x]\n"
		    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
		    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n");
	cr_assert_eq(vs_conf_parse(buf, strlen(buf), "lol", NULL, VS_CONF_FLAGS_DEFAULT_ON, &c, &e),
		     -EINVAL);
	cr_assert_str_eq(e.msg, "lol:2: aliases (*a) are not supported");
	vs_err_clear(&e);

	/* a megabyte-long scalar */
	memcpy(buf, "actions: ", 9);
	memset(buf + 9, 'a', big - 9);
	cr_assert_eq(vs_conf_parse(buf, big, "long", NULL, VS_CONF_FLAGS_DEFAULT_ON, &c, &e), 0,
		     "%s", e.msg);
	cr_assert_eq(strlen(c->actions[0]), big - 9);
	vs_conf_free(c);
	free(buf);
}

Test(conf, a_mapping_of_many_keys_is_checked_for_duplicates_quickly, .timeout = 60)
{
	size_t nr = 50000, size = nr * 24 + 128;
	char *text = malloc(size), *p = text;
	struct vs_conf *c;
	struct vs_err e = { { 0 } };

	p += sprintf(p, "actions: allocate\nmetrics:\n");
	for (size_t i = 0; i < nr; i++)
		p += sprintf(p, "  k%zu: %zu\n", (i * 7919) % nr, i);
	cr_assert_eq(vs_conf_parse(text, (size_t)(p - text), "many", NULL, VS_CONF_FLAGS_DEFAULT_ON,
				   &c, &e), 0, "%s", e.msg);
	cr_assert_eq(c->metrics.nr, nr);
	vs_conf_free(c);
	p += sprintf(p, "  k17: again\n");
	cr_assert_eq(vs_conf_parse(text, (size_t)(p - text), "many", NULL, VS_CONF_FLAGS_DEFAULT_ON,
				   &c, &e), -EINVAL);
	cr_assert(strstr(e.msg, "many:50003: duplicate key \"k17\" (first on line "), "%s", e.msg);
	free(text);
}

/* ---- vs_yaml_parse: other documents read by the same rules ---- */

Test(conf, yaml_parse_types_values_and_keeps_key_and_value_lines)
{
	static const char text[] =
		"nodes:\n"
		"  - {name: n1, cpu: 2, share: 0.5, ready: true, memory: \"4Gi\"}\n"
		"expect:\n"
		"  binds:\n"
		"    ns/p1: n1\n";
	struct vs_err err = { { 0 } };
	const struct vs_arg *nodes, *n1, *expect, *binds;
	struct vs_arg root;

	cr_assert_eq(vs_yaml_parse(text, strlen(text), "s.yaml", &root, &err), 0, "%s", err.msg);
	cr_assert_eq(root.type, VS_ARG_MAP);
	cr_assert_str_eq(root.map->source, "s.yaml");
	nodes = vs_args_find(root.map, "nodes");
	cr_assert(nodes && nodes->type == VS_ARG_SEQ && nodes->seq.nr == 1);
	n1 = &nodes->seq.items[0];
	cr_assert_eq(n1->type, VS_ARG_MAP);
	cr_assert_eq(n1->line, 2);
	cr_assert_eq(vs_args_find(n1->map, "cpu")->type, VS_ARG_INT);
	cr_assert_eq(vs_args_find(n1->map, "share")->type, VS_ARG_FLOAT);
	cr_assert_eq(vs_args_find(n1->map, "ready")->type, VS_ARG_BOOL);
	cr_assert_str_eq(vs_args_find(n1->map, "memory")->s, "4Gi");
	cr_assert_eq(root.map->kv[0].line, 1);
	/* a block mapping starts on the line after its key: the key keeps its own */
	expect = vs_args_find(root.map, "expect");
	binds = vs_args_find(expect->map, "binds");
	cr_assert_eq(expect->map->kv[0].line, 4);
	cr_assert_eq(binds->line, 5);
	cr_assert_eq(binds->map->kv[0].line, 5);
	vs_arg_free(&root);
}

Test(conf, yaml_parse_refuses_with_the_loaders_rules)
{
	static const char dup[] = "a: 1\nb: 2\na: 3\n";
	static const char alias[] = "a: &x 1\nb: *x\n";
	struct vs_err err = { { 0 } };
	struct vs_arg root;

	cr_assert_eq(vs_yaml_parse(dup, strlen(dup), "d.yaml", &root, &err), -EINVAL);
	cr_assert_str_eq(err.msg, "d.yaml:3: duplicate key \"a\" (first on line 1)");
	vs_arg_free(&root);
	vs_err_clear(&err);
	cr_assert_eq(vs_yaml_parse(alias, strlen(alias), "a.yaml", &root, &err), -EINVAL);
	cr_assert_str_eq(err.msg, "a.yaml:2: aliases (*x) are not supported");
	vs_arg_free(&root);
}

Test(conf, yaml_parse_of_an_empty_document_is_null)
{
	struct vs_err err = { { 0 } };
	struct vs_arg root;

	cr_assert_eq(vs_yaml_parse("", 0, "e.yaml", &root, &err), 0);
	cr_assert_eq(root.type, VS_ARG_NULL);
	vs_arg_free(&root);
	cr_assert_eq(vs_yaml_parse("# nothing\n", 10, "e.yaml", &root, &err), 0);
	cr_assert_eq(root.type, VS_ARG_NULL);
	vs_arg_free(&root);
}
