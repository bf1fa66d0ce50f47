// SPDX-License-Identifier: Apache-2.0
/*
 * Fuzz target: the scheduler configuration (volcano-scheduler.conf: actions,
 * tiers, plugins, their flags and arguments, configurations, metrics), as
 * vschedd reads it with vs_conf_parse(), the framework's names and
 * Volcano's flag defaults. The input is the file's text.
 *
 * What must hold whatever the bytes: a refusal says why, names the file
 * and a line of it, and leaves nothing; an accepted configuration keeps the
 * text it was read from, has at least one action and names every action
 * and plugin, and prints back (vs_conf_format()) as YAML that reads again,
 * with either flag default, to a configuration that prints the same and
 * that the framework takes as it takes the first. A scheduler is then
 * built on it over an empty cluster (vs_sched_init(), which takes the
 * configuration whether it accepts it or not): a refusal says why and
 * where, what it accepts runs a cycle, and the cluster is whole after it.
 */
#include <string.h>

#include "core/cluster.h"
#include "fuzz.h"
#include "registry/builtin.h"
#include "sched/conf.h"
#include "sched/framework.h"
#include "sched/session.h"

#define SOURCE	"fuzz.conf"

/*
 * The last line a message about @data may name: one after the last line
 * break, where libyaml ends a text that lacks its final one.
 */
static unsigned long last_line(const uint8_t *data, size_t size)
{
	return 2 + fuzz_line_breaks(data, size, false);
}

/* A refusal names the file, and the line it names is one of the file's. */
static void check_where(const char *msg, const uint8_t *data, size_t size)
{
	const char *at = strstr(msg, SOURCE ":");
	unsigned long line;
	char *end;

	FUZZ_ASSERT(at, "a refusal that does not name the file: %s", msg);
	at += strlen(SOURCE ":");
	if (*at < '0' || *at > '9')
		return;		/* "FILE: out of memory" */
	line = strtoul(at, &end, 10);
	FUZZ_ASSERT(*end == ':' && line >= 1 && line <= last_line(data, size),
		    "line %lu of %lu: %s", line, last_line(data, size), msg);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* What the loader promises of what it accepted. */
static void check_conf(const struct vs_conf *conf, const uint8_t *data, size_t size)
{
	FUZZ_ASSERT(!strcmp(conf->source, SOURCE), "source \"%s\"", conf->source);
	FUZZ_ASSERT(conf->text && conf->text_len == size, "%zu bytes kept of %zu",
		    conf->text_len, size);
	FUZZ_ASSERT(!memcmp(conf->text, data, size) && !conf->text[size], "the text kept differs");
	FUZZ_ASSERT(conf->nr_actions > 0, "accepted without an action");
	for (u32 i = 0; i < conf->nr_actions; i++) {
		const char *a = conf->actions[i];
		size_t n = strlen(a);

		FUZZ_ASSERT(n && !blank(a[0]) && !blank(a[n - 1]) && !strchr(a, ','),
			    "action %u \"%s\"", i, a);
	}
	for (u32 t = 0; t < conf->nr_tiers; t++)
		for (u32 i = 0; i < conf->tiers[t].nr; i++)
			FUZZ_ASSERT(conf->tiers[t].plugins[i].name[0], "tier %u plugin %u", t, i);
	for (u32 i = 0; i < conf->nr_configurations; i++)
		FUZZ_ASSERT(conf->configurations[i].name[0], "configuration %u", i);
}

/* @conf as vs_conf_format() writes it, NUL-terminated; free() it. */
static char *format(const struct vs_conf *conf, size_t *len)
{
	size_t n = vs_conf_format(conf, NULL, 0);
	char *text = malloc(n + 1);

	FUZZ_ASSERT(text, "out of memory");
	FUZZ_ASSERT(vs_conf_format(conf, text, n + 1) == n, "two lengths for one configuration");
	FUZZ_ASSERT(strlen(text) == n, "%zu bytes written, %zu said", strlen(text), n);
	*len = n;
	return text;
}

/*
 * Printed, read again with flags defaulting @def, printed again: the same
 * text, and a configuration the framework takes if it took @conf.
 */
static void round_trip(const struct vs_conf_names *names, const struct vs_conf *conf,
		       const char *text, size_t len, enum vs_conf_flag_default def)
{
	const struct vs_registry *reg = vs_builtin_registry();
	struct vs_err err = { { 0 } };
	struct vs_conf *again;
	size_t n;
	char *text2;

	FUZZ_ASSERT(!vs_conf_parse(text, len, "again", names, def, &again, &err),
		    "what was printed does not read again: %s\n%s", err.msg, text);
	text2 = format(again, &n);
	FUZZ_ASSERT(n == len && !memcmp(text, text2, n), "printed again differently:\n%s\n%s",
		    text, text2);
	FUZZ_ASSERT(!vs_registry_check_conf(reg, conf, &err) == !vs_registry_check_conf(reg, again, &err),
		    "the framework takes only one of two equal configurations: %s\n%s", err.msg,
		    text);
	free(text2);
	vs_conf_free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vs_err err = { { 0 } };
	struct vs_conf_names names;
	struct vs_conf *conf = (void *)1;
	struct vs_cluster cl;
	struct vs_sched sched;
	size_t len;
	char *text;
	int ret;

	vs_registry_names(vs_builtin_registry(), &names);
	ret = vs_conf_parse((const char *)data, size, SOURCE, &names, VS_CONF_FLAGS_DEFAULT_ON,
			    &conf, &err);
	if (ret) {
		FUZZ_ASSERT(ret < 0, "%d", ret);
		FUZZ_ASSERT(!conf, "refused, and yet a configuration");
		FUZZ_ASSERT(err.msg[0], "refused (%d) without a reason", ret);
		check_where(err.msg, data, size);
		return 0;
	}
	FUZZ_ASSERT(conf, "accepted, and no configuration");
	check_conf(conf, data, size);
	text = format(conf, &len);
	round_trip(&names, conf, text, len, VS_CONF_FLAGS_DEFAULT_ON);
	round_trip(&names, conf, text, len, VS_CONF_FLAGS_DEFAULT_OFF);
	free(text);

	FUZZ_ASSERT(!vs_cluster_init(&cl), "cluster");
	/* the scheduler owns the configuration from here, accepted or not */
	ret = vs_sched_init(&sched, &cl, vs_builtin_registry(), conf, &err);
	if (ret) {
		FUZZ_ASSERT(ret < 0 && err.msg[0], "refused (%d) without a reason", ret);
		check_where(err.msg, data, size);
	} else {
		FUZZ_ASSERT(!vs_sched_run_cycle(&sched, &err), "a cycle on nothing: %s", err.msg);
		FUZZ_ASSERT(!vs_cluster_check(&cl, &err), "%s", err.msg);
	}
	vs_sched_destroy(&sched);
	vs_cluster_destroy(&cl);
	return 0;
}
