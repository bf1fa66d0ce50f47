// SPDX-License-Identifier: Apache-2.0
/*
 * "vsctl scenario run FILE...": each file against a fresh in-process core,
 * or with --socket against a running vschedd that is reset for each file.
 * This file owns the command's options and its two outputs: the text one
 * (PASS, FAIL or SKIP per file, the differences indented below, a closing
 * "N passed, N failed"), and with -o json one JSON array holding, per file,
 * the decisions in the shape of "expect" and the verdict. A file that cannot
 * be loaded or run counts as failed and the run goes on with the next one;
 * one the daemon cannot check entirely is skipped (scenario_remote_limits()).
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vsctl/scenario.h"
#include "vsctl/vsctl.h"

enum output { OUT_TEXT, OUT_JSON };

struct run_opts {
	enum output output;
	bool verbose;
	const char *socket;		/* --socket: run against this vschedd */
};

enum { OPT_SOCKET = 0x100 };

static void usage(FILE *out)
{
	fprintf(out,
		"usage: vsctl scenario run [OPTIONS] FILE...\n"
		"\n"
		"Run each scenario file against a fresh in-process core and check what\n"
		"its cycles decide against the file's expect: section.\n"
		"\n"
		"  -o, --output FORMAT  text (default) or json: per file, the decisions\n"
		"                       in the shape of expect\n"
		"  -v, --verbose        text output: show the decisions of every file\n"
		"      --socket PATH    run against the vschedd at PATH instead, which is\n"
		"                       reset (every object forgotten) and given each\n"
		"                       file's configuration; it must run cycles only on\n"
		"                       request (vschedd --period 0). A file with what\n"
		"                       the socket cannot carry (nodeScores,\n"
		"                       pipelinedTo...) is skipped (SKIP). $VSCHED_SOCKET\n"
		"                       is not read: a daemon to reset is named here\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 when every file passes or is skipped, 1 when one fails or\n"
		"cannot be run, 2 on a usage error.\n");
}

/* 0 to run, 1 when --help was answered, -1 on a usage error. */
static int parse_opts(int argc, char **argv, struct run_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*o = (struct run_opts){ .output = OUT_TEXT };
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!strcmp(optarg, "json")) {
				o->output = OUT_JSON;
			} else if (!strcmp(optarg, "text")) {
				o->output = OUT_TEXT;
			} else {
				fprintf(stderr, "%s: unknown output format \"%s\" (text, json)\n",
					argv[0], optarg);
				return -1;
			}
			break;
		case 'v':
			o->verbose = true;
			break;
		case OPT_SOCKET:
			if (!*optarg) {
				fprintf(stderr, "%s: --socket: the path is empty\n", argv[0]);
				return -1;
			}
			o->socket = optarg;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "%s: no scenario file given\n", argv[0]);
		usage(stderr);
		return -1;
	}
	return 0;
}

/* ---- one file ---- */

struct verdict {
	bool ok;
	bool ran;			/* the decisions in @res are meaningful */
	const char *skip;		/* ok, but not checked entirely: why (static) */
	struct vs_err err;		/* set when the file could not be loaded or run */
	char *diffs;			/* the differences, one indented line each */
	size_t diffs_len;
};

/*
 * Against the daemon: what it cannot check is taken out of the expectations
 * (so that neither the comparison nor the JSON shows it) and said in @v.
 */
static int run_remote(struct scn_remote *remote, struct scenario *scn, struct scn_result *res,
		      struct verdict *v)
{
	u32 unchecked;
	bool runnable;

	v->skip = scenario_remote_limits(scn, &unchecked, &runnable);
	if (!runnable)
		return 1;
	scn->expect.has &= ~unchecked;
	return scenario_run_remote(remote, scn, res, &v->err);
}

static void run_file(const char *file, struct scn_remote *remote, struct scenario *scn,
		     struct scn_result *res, struct verdict *v)
{
	FILE *out;
	int ret;

	memset(v, 0, sizeof(*v));
	memset(res, 0, sizeof(*res));
	if (scenario_load(scn, file, &v->err))
		return;
	ret = remote ? run_remote(remote, scn, res, v) : scenario_run(scn, res, &v->err);
	if (ret > 0)
		v->ok = true;		/* skipped without a run */
	if (ret)
		return;
	v->ran = true;
	out = open_memstream(&v->diffs, &v->diffs_len);
	if (!out) {
		vs_err_set(&v->err, ENOMEM, "out of memory");
		return;
	}
	v->ok = !scenario_compare(scn, res, out);
	if (fclose(out)) {
		vs_err_set(&v->err, ENOMEM, "out of memory");
		v->ok = false;
	}
}

static const char *verdict_name(const struct verdict *v, bool json)
{
	if (!v->ok)
		return json ? "fail" : "FAIL";
	if (v->skip)
		return json ? "skip" : "SKIP";
	return json ? "pass" : "PASS";
}

/* ---- text ---- */

static void print_decisions(const char *name, const struct scn_set *set, bool map)
{
	printf("    %s:", name);
	if (!set->nr)
		printf(" none");
	for (u32 i = 0; i < set->nr; i++) {
		printf(" %s", set->e[i].key);
		if (map)
			printf(" -> %s", set->e[i].val);
		if (i + 1 < set->nr)
			putchar(',');
	}
	putchar('\n');
}

static void print_text(const char *file, const struct scn_result *res, const struct verdict *v,
		       const struct run_opts *o)
{
	if (v->ok && v->skip)
		printf("SKIP %s (%s)\n", file, v->skip);
	else
		printf("%s %s\n", verdict_name(v, false), file);
	if (vs_err_is_set(&v->err))
		printf("    %s\n", v->err.msg);
	if (v->diffs)
		fputs(v->diffs, stdout);
	if (!o->verbose || !v->ran)
		return;
	print_decisions(scn_key_name(SCN_BINDS), &res->binds, true);
	print_decisions(scn_key_name(SCN_EVICTS), &res->evicts, false);
	print_decisions(scn_key_name(SCN_PIPELINED), &res->pipelined, true);
	print_decisions(scn_key_name(SCN_PHASES), &res->phases, true);
}

/* ---- json ---- */

/* The json_t helpers return NULL on allocation failure; json_object_set_new() takes NULL. */
static json_t *json_map(const struct scn_set *set)
{
	json_t *obj = json_object();

	for (u32 i = 0; obj && i < set->nr; i++)
		json_object_set_new(obj, set->e[i].key, json_string(set->e[i].val));
	return obj;
}

static json_t *json_list(const struct scn_set *set)
{
	json_t *arr = json_array();

	for (u32 i = 0; arr && i < set->nr; i++)
		json_array_append_new(arr, json_string(set->e[i].key));
	return arr;
}

/* {task: {node: score}}, the nodes in listing order. */
static json_t *json_scores(const struct scn_set *set)
{
	json_t *obj = json_object();

	for (u32 i = 0; obj && i < set->nr; i++) {
		json_t *task = json_object_get(obj, set->e[i].key);

		if (!task) {
			task = json_object();
			if (json_object_set_new(obj, set->e[i].key, task))
				continue;
		}
		json_object_set_new(task, set->e[i].val, json_real(set->e[i].score));
	}
	return obj;
}

/* {hypernode: {parent: P, nodeCount: N, leaves: [...]}}, the fields the run read. */
static json_t *json_hypernodes(const struct scn_set *set)
{
	json_t *obj = json_object();

	for (u32 i = 0; obj && i < set->nr; i++) {
		const struct scn_entry *e = &set->e[i];
		const char *sp = strchr(e->key, ' ');
		char name[320];
		json_t *hn, *v;

		snprintf(name, sizeof(name), "%.*s", (int)(sp - e->key), e->key);
		hn = json_object_get(obj, name);
		if (!hn) {
			hn = json_object();
			if (json_object_set_new(obj, name, hn))
				continue;
		}
		if (!strcmp(sp + 1, "nodeCount")) {
			v = json_integer(strtoll(e->val, NULL, 10));
		} else if (!strcmp(sp + 1, "leaves")) {
			v = json_array();
			for (const char *p = e->val; v && *p;) {
				const char *c = strstr(p, ", ");
				size_t n = c ? (size_t)(c - p) : strlen(p);

				json_array_append_new(v, json_stringn(p, n));
				p += n + (c ? 2 : 0);
			}
		} else {
			v = json_string(e->val);
		}
		json_object_set_new(hn, sp + 1, v);
	}
	return obj;
}

static json_t *json_diffs(const char *diffs)
{
	json_t *arr = json_array();

	while (arr && diffs && *diffs) {
		const char *nl = strchr(diffs, '\n');
		size_t len = nl ? (size_t)(nl - diffs) : strlen(diffs);
		const char *line = diffs;

		while (len && *line == ' ')
			line++, len--;
		json_array_append_new(arr, json_stringn(line, len));
		diffs += (size_t)(line - diffs) + len + (nl ? 1 : 0);
	}
	return arr;
}

static json_t *json_file(const char *file, const struct scenario *scn,
			 const struct scn_result *res, const struct verdict *v, bool remote)
{
	json_t *obj = json_object();

	if (!obj)
		return NULL;
	json_object_set_new(obj, "file", json_string(file));
	json_object_set_new(obj, "result", json_string(verdict_name(v, true)));
	if (v->ok && v->skip)
		json_object_set_new(obj, "skipped", json_string(v->skip));
	if (vs_err_is_set(&v->err))
		json_object_set_new(obj, "error", json_string(v->err.msg));
	if (!v->ran)
		return obj;
	json_object_set_new(obj, "differences", json_diffs(v->diffs));
	json_object_set_new(obj, scn_key_name(SCN_BINDS), json_map(&res->binds));
	json_object_set_new(obj, scn_key_name(SCN_BIND_COUNT), json_integer(res->binds.nr));
	json_object_set_new(obj, scn_key_name(SCN_EVICTS), json_list(&res->evicts));
	json_object_set_new(obj, scn_key_name(SCN_EVICT_COUNT), json_integer(res->evicts.nr));
	json_object_set_new(obj, scn_key_name(SCN_PIPELINED), json_map(&res->pipelined));
	json_object_set_new(obj, scn_key_name(SCN_PHASES), json_map(&res->phases));
	if (scn->expect.has & (1u << SCN_SCORES))
		json_object_set_new(obj, scn_key_name(SCN_SCORES), json_scores(&res->scores));
	if (scn->expect.has & (1u << SCN_HYPERNODES))
		json_object_set_new(obj, scn_key_name(SCN_HYPERNODES),
				    json_hypernodes(&res->hypernodes));
	return obj;
}

int vsctl_scenario_run(int argc, char **argv)
{
	struct run_opts o;
	unsigned int passed = 0, failed = 0, skipped = 0;
	struct scn_remote *remote = NULL;
	struct vs_err err = { { 0 } };
	json_t *all = NULL;
	int ret;

	ret = parse_opts(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	/* a daemon that cannot be reached or watched fails the run, as any command's request */
	if (o.socket && scn_remote_open(&remote, o.socket, &err)) {
		fprintf(stderr, "vsctl: error: %s\n", err.msg);
		return 1;
	}
	if (o.output == OUT_JSON) {
		all = json_array();
		if (!all) {
			fprintf(stderr, "%s: out of memory\n", argv[0]);
			scn_remote_close(remote);
			return 1;
		}
	}
	for (int i = optind; i < argc; i++) {
		struct scenario scn;
		struct scn_result res;
		struct verdict v;

		run_file(argv[i], remote, &scn, &res, &v);
		if (!v.ok)
			failed++;
		else if (v.skip)
			skipped++;
		else
			passed++;
		if (all)
			json_array_append_new(all, json_file(argv[i], &scn, &res, &v, remote));
		else
			print_text(argv[i], &res, &v, &o);
		free(v.diffs);
		scenario_result_free(&res);
		scenario_free(&scn);
		fflush(stdout);
	}
	scn_remote_close(remote);
	if (all) {
		ret = json_dumpf(all, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
		json_decref(all);
		putchar('\n');
		if (ret) {
			fprintf(stderr, "%s: cannot write the JSON output\n", argv[0]);
			return 1;
		}
	} else if (skipped) {
		printf("%u passed, %u failed, %u skipped\n", passed, failed, skipped);
	} else {
		printf("%u passed, %u failed\n", passed, failed);
	}
	return failed ? 1 : 0;
}
