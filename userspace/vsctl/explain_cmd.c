// SPDX-License-Identifier: Apache-2.0
/*
 * vsctl explain: why a PodGroup, a task or a node is where it is.
 *
 *	vsctl explain job NS/NAME	a PodGroup (or the one of a VolcanoJob)
 *	vsctl explain podgroup NS/NAME	the same
 *	vsctl explain task NS/NAME
 *	vsctl explain node NAME
 *
 * The daemon composes the explanation from what
 * the last cycle that considered the object found; this prints it as
 * "kubectl describe" prints an object, or as JSON with -j.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <netlink/msg.h>

#include "lib/codec_gen.h"
#include "lib/render.h"
#include "lib/vsnl.h"
#include "vsctl/objects.h"
#include "vsctl/request.h"
#include "vsctl/vsctl.h"

enum { OPT_SOCKET = 0x100, OPT_SCORES };

/* --scores without a number: the best ten nodes. */
#define SCORES_DEFAULT	10

static int usage(const char *prog, bool help)
{
	FILE *out = help ? stdout : stderr;

	fprintf(out, "usage: %s job|podgroup NS/NAME [--socket PATH] [-o json | -j]\n"
		"       %s task NS/NAME [--scores[=N]] [--socket PATH] [-o json | -j]\n"
		"       %s node NAME [--socket PATH] [-o json | -j]\n", prog, prog, prog);
	if (!help)
		return 2;
	fprintf(out, "\nWhy the object is where it is, from the last cycle that considered it.\n"
		"A NAME without NS/ is in the \"default\" namespace.\n\noptions:\n");
	vsctl_print_option(out, "--socket PATH", "the daemon's socket (default $"
			   VSCHED_SOCKET_ENV ", else " VSCHED_SOCKET_DEFAULT ")");
	vsctl_print_option(out, "--scores[=N]", "a task: also where allocate would put it now, "
			   "the best N nodes (default 10) with each plugin's score");
	vsctl_print_option(out, "-o, --output json", "JSON instead of text");
	vsctl_print_option(out, "-j, --json", "the same as -o json");
	return 0;
}

int vsctl_explain(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "socket", required_argument, NULL, OPT_SOCKET },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "scores", optional_argument, NULL, OPT_SCORES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *socket = NULL, *what, *arg, *kind;
	struct vsctl_key key;
	const struct vsctl_kind *k;
	json_t *reply = NULL;
	bool json = false;
	long scores = 0;
	struct vsnl_err err = { 0 };
	struct nlattr *nest;
	struct nl_msg *m;
	size_t cap;
	u16 attr;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:jh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SOCKET:
			socket = optarg;
			break;
		case OPT_SCORES: {
			char *end;

			scores = SCORES_DEFAULT;
			if (!optarg)
				break;
			errno = 0;
			scores = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || scores < 1 ||
			    scores > VS_EXPLAIN_SCORES_MAX) {
				fprintf(stderr, "%s: --scores: \"%s\" is not a number from 1 to %d\n",
					argv[0], optarg, VS_EXPLAIN_SCORES_MAX);
				return 2;
			}
			break;
		}
		case 'o':
			if (vsctl_json_output(argv[0], optarg))
				return 2;
			fallthrough;
		case 'j':
			json = true;
			break;
		case 'h':
			return usage(argv[0], true);
		default:
			return usage(argv[0], false);
		}
	}
	if (argc - optind != 2)
		return usage(argv[0], false);
	what = argv[optind];
	arg = argv[optind + 1];
	if (!strcmp(what, "job") || !strcmp(what, "podgroup")) {
		k = vsctl_kind_of("vsctl podgroup show");
		attr = VS_EXPLAIN_A_PODGROUP;
		kind = "PodGroup:";
	} else if (!strcmp(what, "task")) {
		k = vsctl_kind_of("vsctl task show");
		attr = VS_EXPLAIN_A_TASK;
		kind = "Task:";
	} else if (!strcmp(what, "node")) {
		k = vsctl_kind_of("vsctl node show");
		attr = VS_EXPLAIN_A_NODE;
		kind = "Node:";
	} else {
		fprintf(stderr, "%s: \"%s\": explain a job, podgroup, task or node\n", argv[0],
			what);
		return 2;
	}
	if (!k || vsctl_key_parse(argv[0], k, NULL, arg, &key))
		return 2;
	if (scores && attr != VS_EXPLAIN_A_TASK) {
		fprintf(stderr, "%s: --scores: only a task is scored\n", argv[0]);
		return 2;
	}

	m = vsnl_msg_new(VS_CMD_EXPLAIN, 0);
	if (m) {
		struct nlmsghdr *nlh = vsnl_msg_hdr(m, &cap);

		nest = vsnl_vsched_start_explain(nlh, cap, &err);
		if (!nest ||
		    (*key.ns && vsnl_explain_put_namespace(nlh, cap, key.ns, &err)) ||
		    vsnl_codec_put_str(nlh, cap, &vsnl_codec_explain, attr, key.name, &err) ||
		    (scores && vsnl_explain_put_scores(nlh, cap, (u32)scores, &err))) {
			nlmsg_free(m);
			return vsctl_fail(err.err, &err);
		}
		mnl_attr_nest_end(nlh, nest);
	}
	ret = vsctl_request(socket, m, vsnl_render_keep, &reply);
	if (ret)
		goto out;
	if (json) {
		ret = vsctl_print_json(json_object_get(reply, "explain"));
	} else {
		char name[2 * VS_NAME_MAX];

		snprintf(name, sizeof(name), "%s%s%s", key.ns, *key.ns ? "/" : "", key.name);
		vsnl_render_explain(stdout, kind, name, json_object_get(reply, "explain"));
	}
out:
	json_decref(reply);
	return ret;
}
