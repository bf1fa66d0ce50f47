// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for the configuration loader (sched/conf.h): Volcano's default, the
 * flags and their defaults, yaml.v2's typing of arguments, the typed
 * getters, every kind of refusal with its FILE:LINE message, the format
 * round trip, files, and malformed input of every sort returning an error
 * without crashing or leaking.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>

#include "sched/conf.h"

static const char *const actions[] = { "enqueue", "allocate", "backfill", "preempt", "reclaim" };
static const char *const plugins[] = { "priority", "gang", "conformance", "overcommit", "drf",
				       "predicates", "proportion", "nodeorder", "binpack" };
static const struct vs_conf_names names = {
	.actions = actions, .nr_actions = 5, .plugins = plugins, .nr_plugins = 9,
};

static struct vs_conf *parse_ok(const char *text, enum vs_conf_flag_default def)
{
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names, def, &conf, &e), 0,
		     "%s", e.msg);
	return conf;
}

/* Parse must fail with exactly @msg. */
static void parse_bad(const char *text, const char *msg)
{
	struct vs_conf *conf = (void *)1;
	struct vs_err e = { { 0 } };

	cr_assert_lt(vs_conf_parse(text, strlen(text), "t.conf", &names,
				   VS_CONF_FLAGS_DEFAULT_ON, &conf, &e), 0, "accepted: %s", text);
	cr_assert_null(conf);
	cr_assert_str_eq(e.msg, msg);
}

Test(conf, volcano_default_has_its_actions_tiers_and_flags_on)
{
	struct vs_conf *c = parse_ok(vs_conf_default_text, VS_CONF_FLAGS_DEFAULT_ON);

	cr_assert_eq(c->nr_actions, 3);
	cr_assert_str_eq(c->actions[0], "enqueue");
	cr_assert_str_eq(c->actions[2], "backfill");
	cr_assert_eq(c->nr_tiers, 2);
	cr_assert_eq(c->tiers[0].nr, 3);
	cr_assert_eq(c->tiers[1].nr, 5);
	cr_assert_str_eq(c->tiers[0].plugins[2].name, "conformance");
	cr_assert_str_eq(c->tiers[1].plugins[4].name, "nodeorder");
	for (int f = 0; f < VS_EN_NR; f++)
		cr_assert(vs_conf_plugin_enabled(&c->tiers[1].plugins[1], (enum vs_en_flag)f));
	cr_assert_eq(c->tiers[1].plugins[1].flags_set, 0);
	vs_conf_free(c);
}

Test(conf, written_flags_win_and_unwritten_follow_the_default)
{
	static const char text[] =
		"actions: \"allocate\"\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"    enableJobReady: false\n"
		"    enabledVictim: yes\n";
	struct vs_conf *on = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	struct vs_conf *off = parse_ok(text, VS_CONF_FLAGS_DEFAULT_OFF);
	const struct vs_conf_plugin *a = &on->tiers[0].plugins[0], *b = &off->tiers[0].plugins[0];

	cr_assert_not(vs_conf_plugin_enabled(a, VS_EN_JOB_READY));
	cr_assert(vs_conf_plugin_enabled(a, VS_EN_JOB_ORDER));
	cr_assert(vs_conf_plugin_enabled(a, VS_EN_VICTIM));
	cr_assert_not(vs_conf_plugin_enabled(b, VS_EN_JOB_READY));
	cr_assert_not(vs_conf_plugin_enabled(b, VS_EN_JOB_ORDER));
	cr_assert(vs_conf_plugin_enabled(b, VS_EN_VICTIM));
	cr_assert_eq(a->flags_set, (1u << VS_EN_JOB_READY) | (1u << VS_EN_VICTIM));
	cr_assert_eq(a->line, 4);
	cr_assert_str_eq(vs_en_flag_name(VS_EN_OVERUSED), "enabledOverused");
	vs_conf_free(on);
	vs_conf_free(off);
}

Test(conf, arguments_are_typed_as_yaml_v2_types_them)
{
	static const char text[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: binpack\n"
		"    arguments:\n"
		"      i: 10\n"
		"      neg: -3\n"
		"      hex: 0x1F\n"
		"      oct: 0o17\n"
		"      under: 1_000\n"
		"      f: 1.5\n"
		"      e: 2e3\n"
		"      inf: .inf\n"
		"      b1: yes\n"
		"      b2: Off\n"
		"      s: hello\n"
		"      q: \"10\"\n"
		"      n: ~\n"
		"      map: {a: 1}\n"
		"      seq: [1, two]\n";
	struct vs_conf *c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	const struct vs_args *a = &c->tiers[0].plugins[0].args;

	cr_assert_eq(vs_args_find(a, "i")->type, VS_ARG_INT);
	cr_assert_eq(vs_args_find(a, "i")->i, 10);
	cr_assert_eq(vs_args_find(a, "neg")->i, -3);
	cr_assert_eq(vs_args_find(a, "hex")->i, 31);
	cr_assert_eq(vs_args_find(a, "oct")->i, 15);
	cr_assert_eq(vs_args_find(a, "under")->i, 1000);
	cr_assert_eq(vs_args_find(a, "f")->type, VS_ARG_FLOAT);
	cr_assert_float_eq(vs_args_find(a, "e")->f, 2000.0, 1e-9);
	cr_assert_eq(vs_args_find(a, "inf")->type, VS_ARG_FLOAT);
	cr_assert_eq(vs_args_find(a, "b1")->type, VS_ARG_BOOL);
	cr_assert(vs_args_find(a, "b1")->b);
	cr_assert_not(vs_args_find(a, "b2")->b);
	cr_assert_str_eq(vs_args_find(a, "s")->s, "hello");
	cr_assert_eq(vs_args_find(a, "q")->type, VS_ARG_STRING, "a quoted number is a string");
	cr_assert_eq(vs_args_find(a, "n")->type, VS_ARG_NULL);
	cr_assert_eq(vs_args_find(a, "map")->type, VS_ARG_MAP);
	cr_assert_eq(vs_args_find(a, "seq")->seq.nr, 2);
	cr_assert_eq(vs_args_find(a, "seq")->seq.items[1].type, VS_ARG_STRING);
	cr_assert_eq(vs_args_find(a, "s")->line, 16);
	vs_conf_free(c);
}

Test(conf, getters_follow_volcano_and_refuse_wrong_types_with_the_line)
{
	static const char text[] =
		"actions: allocate\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: binpack\n"
		"    arguments: {binpack.weight: abc, w: 3, f: 1.5, sb: \"true\", b: false}\n";
	struct vs_conf *c = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON);
	const struct vs_args *a = &c->tiers[0].plugins[0].args;
	struct vs_err e = { { 0 } };
	s64 i = 7;
	double f = 0;
	bool b = true;
	const char *s = NULL;

	cr_assert_eq(vs_args_get_int(a, "absent", &i, NULL), 0);
	cr_assert_eq(i, 7, "an absent key keeps the default");
	cr_assert_eq(vs_args_get_int(a, "w", &i, NULL), 0);
	cr_assert_eq(i, 3);
	cr_assert_eq(vs_args_get_float(a, "w", &f, NULL), 0);
	cr_assert_float_eq(f, 3.0, 1e-12);	/* an int where a float is asked for */
	cr_assert_eq(vs_args_get_bool(a, "sb", &b, NULL), 0);
	cr_assert(b);				/* a string ParseBool takes */
	cr_assert_eq(vs_args_get_bool(a, "b", &b, NULL), 0);
	cr_assert_not(b);
	cr_assert_eq(vs_args_get_int(a, "binpack.weight", &i, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "t.conf:5: argument \"binpack.weight\": expected an integer, got \"abc\"");
	vs_err_clear(&e);
	cr_assert_eq(vs_args_get_int(a, "f", &i, &e), -EINVAL);
	cr_assert(strstr(e.msg, "expected an integer, got a number"), "%s", e.msg);
	cr_assert_eq(vs_args_get_string(a, "binpack.weight", &s, NULL), 0);
	cr_assert_str_eq(s, "abc");
	vs_conf_free(c);
}

Test(conf, every_kind_of_mistake_is_refused_with_file_and_line)
{
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - name: gangg\n",
		  "t.conf:4: unknown plugin \"gangg\" (known: priority, gang, conformance, overcommit, "
		  "drf, predicates, proportion, nodeorder, binpack)");
	parse_bad("actions: \"enqueue, alocate\"\n",
		  "t.conf:1: unknown action \"alocate\" (known: enqueue, allocate, backfill, preempt, "
		  "reclaim)");
	parse_bad("actions: \"enqueue,,allocate\"\n", "t.conf:1: empty action in \"enqueue,,allocate\"");
	parse_bad("actions: \"enqueue,\"\n", "t.conf:1: empty action in \"enqueue,\"");
	parse_bad("tiers: []\n", "t.conf:1: no actions");
	parse_bad("actions: allocate\nactoins: x\n", "t.conf:2: unknown key \"actoins\"");
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n    enableJobReddy: true\n",
		  "t.conf:5: unknown key \"enableJobReddy\" in plugin gang");
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n    enableJobReady: maybe\n",
		  "t.conf:5: enableJobReady must be true or false");
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n    enableJobReady: \"true\"\n",
		  "t.conf:5: enableJobReady must be true or false");
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - enableJobReady: true\n",
		  "t.conf:4: a plugin has no name");
	parse_bad("actions: allocate\ntiers:\n- plugin:\n  - name: gang\n",
		  "t.conf:3: unknown key \"plugin\" in a tier");
	parse_bad("actions: allocate\nconfigurations:\n- name: allocate\n- name: allocate\n",
		  "t.conf:4: a second configuration for action allocate");
	parse_bad("actions: allocate\nconfigurations:\n- name: shuffle\n",
		  "t.conf:3: unknown action \"shuffle\" (known: enqueue, allocate, backfill, preempt, "
		  "reclaim)");
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - name: drf\n    enableHierarchy: true\n"
		  "  - name: proportion\n",
		  "t.conf:4: proportion and drf with hierarchy enabled conflict");
	parse_bad("actions: allocate\ntiers: {a: 1}\n", "t.conf:2: tiers must be a list");
	parse_bad("- a\n- b\n", "t.conf:1: expected a mapping with actions and tiers");
	parse_bad("", "t.conf: the file is empty");
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - name: gang\n    arguments: {a: 1, a: 2}\n",
		  "t.conf:5: argument \"a\" given twice");
}

Test(conf, yaml_syntax_errors_name_line_and_column)
{
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };
	static const char text[] = "actions: allocate\ntiers:\n- plugins: [\n";

	cr_assert_eq(vs_conf_parse(text, strlen(text), "t.conf", &names, VS_CONF_FLAGS_DEFAULT_ON,
				   &conf, &e), -EINVAL);
	cr_assert_eq(strncmp(e.msg, "t.conf:4:", 9), 0, "%s", e.msg);
}

Test(conf, aliases_are_refused)
{
	parse_bad("actions: allocate\ntiers:\n- plugins:\n  - &g {name: gang}\n  - *g\n",
		  "t.conf:4: aliases (*name) are not supported");
}

Test(conf, format_reads_back_to_an_equal_configuration)
{
	static const char text[] =
		"actions: \"enqueue, allocate\"\n"
		"tiers:\n"
		"- plugins:\n"
		"  - name: gang\n"
		"    enableJobReady: false\n"
		"    arguments: {x: \"a \\\"q\\\"\", n: 3, f: 2.0, l: [1, {k: v}], z: null}\n"
		"configurations:\n"
		"- name: allocate\n"
		"  arguments: {enablePredicateErrorCache: false}\n";
	struct vs_conf *a = parse_ok(text, VS_CONF_FLAGS_DEFAULT_ON), *b;
	char buf1[8192], buf2[8192];
	size_t n1 = vs_conf_format(a, buf1, sizeof(buf1));

	cr_assert_lt(n1, sizeof(buf1));
	b = parse_ok(buf1, VS_CONF_FLAGS_DEFAULT_OFF);	/* every flag is written */
	vs_conf_format(b, buf2, sizeof(buf2));
	cr_assert_str_eq(buf1, buf2);
	cr_assert_eq(b->tiers[0].plugins[0].flags_on, a->tiers[0].plugins[0].flags_on);
	cr_assert_str_eq(vs_args_find(&b->tiers[0].plugins[0].args, "x")->s, "a \"q\"");
	cr_assert_eq(vs_args_find(&b->tiers[0].plugins[0].args, "f")->type, VS_ARG_FLOAT);
	cr_assert_not_null(vs_conf_action_args(b, "allocate"));
	cr_assert_null(vs_conf_action_args(b, "enqueue"));
	cr_assert_eq(vs_conf_format(a, NULL, 0), n1, "the length without a buffer");
	vs_conf_free(a);
	vs_conf_free(b);
}

Test(conf, files_are_read_and_their_errors_name_the_path)
{
	char path[] = "/tmp/vsched-conf-XXXXXX";
	int fd = mkstemp(path);
	struct vs_conf *conf;
	struct vs_err e = { { 0 } };

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, vs_conf_default_text, strlen(vs_conf_default_text)),
		     (ssize_t)strlen(vs_conf_default_text));
	close(fd);
	cr_assert_eq(vs_conf_load_file(path, &names, &conf, &e), 0, "%s", e.msg);
	cr_assert_str_eq(conf->source, path);
	vs_conf_free(conf);
	unlink(path);
	cr_assert_eq(vs_conf_load_file(path, &names, &conf, &e), -ENOENT);
	cr_assert(strstr(e.msg, "No such file"), "%s", e.msg);
}

Test(conf, mangled_files_never_crash_or_leak)
{
	const char *base = vs_conf_default_text;
	size_t len = strlen(base);
	char *buf = malloc(len * 2 + 16);
	u64 rng = 0x1234567;
	int accepted = 0;

	for (int round = 0; round < 3000; round++) {
		struct vs_conf *conf;
		size_t n = len;

		memcpy(buf, base, len);
		for (int k = 0; k < 1 + round % 5; k++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			switch (rng % 4) {
			case 0:		/* flip a byte */
				buf[rng % n] = (char)(rng >> 8);
				break;
			case 1:		/* truncate */
				n = rng % n + 1;
				break;
			case 2:		/* duplicate a chunk */
				if (n + 16 < len * 2) {
					size_t at = rng % n;

					memmove(buf + at + 8, buf + at, n - at);
					n += 8;
				}
				break;
			default:	/* a structural character */
				buf[rng % n] = "{}[]:-&*!\n'\""[rng % 12];
				break;
			}
		}
		if (!vs_conf_parse(buf, n, "fuzz", &names, VS_CONF_FLAGS_DEFAULT_ON, &conf, NULL)) {
			accepted++;
			vs_conf_free(conf);
		}
	}
	free(buf);
	cr_assert_lt(accepted, 3000, "mutations were expected to break some files");
}
