// SPDX-License-Identifier: Apache-2.0
/*
 * The controllers' configuration (netlink/ctlconf.h): Volcano's
 * volcano-controller.conf read and checked whole, each refusal with the
 * file, the line and why, leaving nothing; and label discovery at its
 * sync points as a client sees it: nodes sent as requests, a cycle, a
 * HyperNode of ours through the protocol with its labels, and a checkpoint
 * restored exactly, after which discovery changes nothing.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/log.h"
#include "ctltest.h"
#include "netlink/checkpoint.h"
#include "netlink/ctlconf.h"
#include "netlink/events.h"
#include "netlink/fill.h"
#include "netlink/parse.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/vs-ctlconf-test-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/state", dir);
	ct_setup_sched();
	vs_log_file = tmpfile();
}

static void teardown(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&ct.cl, &e), 0, "%s", e.msg);
	if (vs_log_file)
		fclose(vs_log_file);
	vs_log_file = NULL;
	vs_nl_topology_release(&ct.core);
	vs_nl_events_release(&ct.core.events);
	ct_teardown();
	unlink(path);
	rmdir(dir);
}

TestSuite(ctlconf, .init = setup, .fini = teardown);

/* Volcano's api/example.yaml, with a ufm source that is off. */
static const char example[] =
	"networkTopologyDiscovery:\n"
	"  - source: ufm\n"
	"    enabled: false\n"
	"    interval: 10m\n"
	"    credentials:\n"
	"      secretRef:\n"
	"        name: ufm-credentials\n"
	"        namespace: volcano-system\n"
	"    config:\n"
	"      endpoint: https://ufm-server:8080\n"
	"  - source: label\n"
	"    enabled: true\n"
	"    config:\n"
	"      networkTopologyTypes:\n"
	"        topologyA2:\n"
	"          - nodeLabel: \"volcano.sh/tor\"\n"
	"          - nodeLabel: \"kubernetes.io/hostname\"\n"
	"        topologyA3:\n"
	"          - nodeLabel: \"volcano.sh/hypercluster\"\n"
	"          - nodeLabel: \"volcano.sh/hypernode\"\n"
	"          - nodeLabel: \"kubernetes.io/hostname\"\n";

static int parse(const char *text, struct vs_hnctl_conf *c, struct vs_err *e)
{
	memset(c, 0, sizeof(*c));
	return vs_nl_ctlconf_parse(text, strlen(text), "ctl.conf", c, e);
}

Test(ctlconf, volcanos_example_reads_into_types_tier_one_first)
{
	struct vs_hnctl_conf c;
	struct vs_err e = { { 0 } };

	cr_assert_eq(parse(example, &c, &e), 0, "%s", e.msg);
	cr_assert_eq(c.nr_types, 2);
	cr_assert_str_eq(c.types[0].name, "topologyA2");
	cr_assert_eq(c.types[0].nr_keys, 1, "kubernetes.io/hostname is the nodes themselves");
	cr_assert_str_eq(c.types[0].keys[0], "volcano.sh/tor");
	cr_assert_str_eq(c.types[1].name, "topologyA3");
	cr_assert_eq(c.types[1].nr_keys, 2);
	cr_assert_str_eq(c.types[1].keys[0], "volcano.sh/hypernode");
	cr_assert_str_eq(c.types[1].keys[1], "volcano.sh/hypercluster");
	vs_hnctl_conf_free(&c);
}

Test(ctlconf, no_source_enabled_or_nothing_written_discovers_nothing)
{
	static const char *const texts[] = {
		"",
		"networkTopologyDiscovery:\n",
		"networkTopologyDiscovery: []\n",
		"networkTopologyDiscovery:\n- source: label\n  enabled: false\n"
		"  config: {networkTopologyTypes: {a: [{nodeLabel: x/y}, {nodeLabel: kubernetes.io/hostname}]}}\n",
		"networkTopologyDiscovery:\n- source: label\n",
	};
	struct vs_hnctl_conf c;
	struct vs_err e = { { 0 } };

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++) {
		cr_assert_eq(parse(texts[i], &c, &e), 0, "text %zu: %s", i, e.msg);
		cr_assert_eq(c.nr_types, 0, "text %zu", i);
	}
}

Test(ctlconf, bad_files_are_refused_with_file_line_and_why)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
		{ "networkTopologyDiscover: []\n",
		  "ctl.conf:1: unknown key \"networkTopologyDiscover\" in the controller configuration" },
		{ "networkTopologyDiscovery: {source: label}\n",
		  "ctl.conf:1: networkTopologyDiscovery must be a list, not a map" },
		{ "networkTopologyDiscovery:\n- source: label\n  enable: true\n",
		  "ctl.conf:3: unknown key \"enable\" in a discovery source" },
		{ "networkTopologyDiscovery:\n- enabled: true\n",
		  "ctl.conf:2: a discovery source needs a source name" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: \"yes\"\n",
		  "ctl.conf:3: enabled must be a boolean, not a string" },
		{ "networkTopologyDiscovery:\n- source: label\n  interval: 5x\n",
		  "ctl.conf:3: interval \"5x\": " },
		{ "networkTopologyDiscovery:\n- source: ufm\n  enabled: true\n",
		  "ctl.conf:2: discovery source \"ufm\" is not supported" },
		{ "networkTopologyDiscovery:\n- source: label\n- source: label\n",
		  "ctl.conf:3: a second discovery source \"label\" (first on line 2)" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      t:\n      - nodeLabel: a/b\n      - nodeLabel: a/b\n"
		  "      - nodeLabel: kubernetes.io/hostname\n",
		  "ctl.conf:6: network topology type \"t\": nodeLabel \"a/b\" twice" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      t:\n      - nodeLabel: a/b\n      - nodeLabel: c/d\n",
		  "ctl.conf:6: network topology type \"t\": the last nodeLabel is \"c/d\"" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      t:\n      - nodeLabel: kubernetes.io/hostname\n",
		  "ctl.conf:6: network topology type \"t\": at least one node label above" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      averyveryverylongtypename:\n"
		  "      - nodeLabel: a/b\n      - nodeLabel: kubernetes.io/hostname\n",
		  "ctl.conf:6: network topology type \"averyveryverylongtypename\": a name of 25 bytes" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      t:\n      - nodeLabel: 7\n",
		  "ctl.conf:7: nodeLabel must be a string, not an integer" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      t:\n      - label: a/b\n",
		  "ctl.conf:7: unknown key \"label\" in a tier" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    endpoint: x\n",
		  "ctl.conf:5: unknown key \"endpoint\" in the label source's config" },
		{ "networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
		  "    networkTopologyTypes:\n      ok:\n      - nodeLabel: a/b\n"
		  "      - nodeLabel: kubernetes.io/hostname\n      bad: x\n",
		  "ctl.conf:9: network topology type \"bad\" must be a list of {nodeLabel: KEY}, not a string" },
	};
	struct vs_hnctl_conf c;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_err e = { { 0 } };

		cr_assert_eq(parse(cases[i].text, &c, &e), -EINVAL, "case %zu accepted", i);
		cr_assert(strstr(e.msg, cases[i].msg), "case %zu: \"%s\" does not say \"%s\"", i,
			  e.msg, cases[i].msg);
		cr_assert_eq(c.nr_types, 0, "case %zu: a refused file leaves nothing", i);
		cr_assert_null(c.types, "case %zu", i);
	}
}

/* ---- the sync points ---- */

static void use(const char *text)
{
	struct vs_hnctl_conf c;
	struct vs_err e = { { 0 } };

	cr_assert_eq(parse(text, &c, &e), 0, "%s", e.msg);
	vs_nl_topology_set(&ct.core, &c);
}

static const char racks[] =
	"networkTopologyDiscovery:\n- source: label\n  enabled: true\n  config:\n"
	"    networkTopologyTypes:\n      rack:\n      - nodeLabel: example.com/spine\n"
	"      - nodeLabel: example.com/tor\n      - nodeLabel: kubernetes.io/hostname\n";

static void node(const char *name, const char *tor, const char *spine)
{
	CT_SEND_OK(VS_CMD_NODE_NEW, {
		struct nlattr *n = mnl_attr_nest_start(__n, VS_A_NODE), *l, *kv;

		mnl_attr_put_strz(__n, VS_NODE_A_NAME, name);
		ct_put_res(__n, VS_NODE_A_ALLOCATABLE, 4000, 4000 * CT_MI, 110);
		l = mnl_attr_nest_start(__n, VS_NODE_A_LABELS);
		kv = mnl_attr_nest_start(__n, VS_LABELS_A_ITEM);
		mnl_attr_put_strz(__n, VS_KV_A_KEY, "example.com/tor");
		mnl_attr_put_strz(__n, VS_KV_A_VALUE, tor);
		mnl_attr_nest_end(__n, kv);
		kv = mnl_attr_nest_start(__n, VS_LABELS_A_ITEM);
		mnl_attr_put_strz(__n, VS_KV_A_KEY, "example.com/spine");
		mnl_attr_put_strz(__n, VS_KV_A_VALUE, spine);
		mnl_attr_nest_end(__n, kv);
		mnl_attr_nest_end(__n, l);
		mnl_attr_nest_end(__n, n);
	});
}

static u32 nr_owned(void)
{
	const struct vs_hypernode *hn;
	u32 n = 0;

	list_for_each_entry(hn, &ct.cl.hypernodes.list, list)
		n += vs_hnctl_owns(hn);
	return n;
}

static unsigned char obj_buf[8192];

/* Every HyperNode as the protocol writes it, with its parent and leaves. */
static char *state(size_t *len)
{
	const struct vs_hypernode *h;
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	cr_assert_not_null(f);
	list_for_each_entry(h, &ct.cl.hypernodes.list, list) {
		struct nlmsghdr *m;

		memset(obj_buf, 0, sizeof(obj_buf));
		m = mnl_nlmsg_put_header(obj_buf);
		cr_assert(vs_nl_put_hypernode(m, sizeof(obj_buf), h));
		fwrite(obj_buf, 1, m->nlmsg_len, f);
		fprintf(f, " leaves:");
		for (u32 i = 0; i < h->nr_leaves; i++)
			fprintf(f, " %s", h->leaves[i]);
	}
	fclose(f);
	return s;
}

Test(ctlconf, a_cycle_discovers_before_its_session_and_nothing_runs_without_types)
{
	struct vs_err e = { { 0 } };

	node("n0", "t0", "sp0");
	ct_cycle();
	cr_assert_eq(ct.cl.hypernodes.nr, 0, "no types, no discovery");
	use(racks);
	ct_cycle();
	cr_assert_eq(nr_owned(), 2);
	node("n1", "t1", "sp0");
	cr_assert_eq(nr_owned(), 2, "requests alone do not run it: the daemon's datagram does");
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	cr_assert_eq(nr_owned(), 3);
}

Test(ctlconf, discovered_hypernodes_carry_their_labels_through_the_protocol)
{
	const struct vs_hypernode *hn;
	struct vs_hypernode_spec spec;
	struct vs_err e = { { 0 } };

	use(racks);
	node("n0", "t0", "sp0");
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	hn = list_first_entry(&ct.cl.hypernodes.list, struct vs_hypernode, list);
	cr_assert(vs_hnctl_owns(hn));
	/* what a GET answers, parsed as a NEW: the labels come back */
	memset(obj_buf, 0, sizeof(obj_buf));
	{
		struct nlmsghdr *m = mnl_nlmsg_put_header(obj_buf);
		const struct nlattr *nest;

		cr_assert(vs_nl_put_hypernode_spec(m, sizeof(obj_buf), hn));
		nest = mnl_nlmsg_get_payload(m);
		memset(&spec, 0, sizeof(spec));
		cr_assert_eq(vs_nl_parse_hypernode(nest, &ct.arena, true, &spec, &e), 0, "%s",
			     e.msg);
	}
	cr_assert_eq(spec.nr_labels, 2);
	cr_assert_str_eq(spec.labels[0].key, "example.com/tor");
	cr_assert_str_eq(spec.labels[0].value, "t0");
	cr_assert_str_eq(spec.labels[1].key, VS_HNCTL_SOURCE_KEY);
	cr_assert_str_eq(spec.labels[1].value, VS_HNCTL_SOURCE_LABEL);
}

Test(ctlconf, a_checkpoint_restores_discovered_hypernodes_exactly)
{
	struct vs_ckpt_info info;
	struct vs_err e = { { 0 } };
	size_t before_len, after_len;
	char *before, *after;
	u64 seq;

	use(racks);
	node("n0", "t0", "sp0");
	node("n1", "t0", "sp0");
	node("n2", "t1", "sp1");
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	cr_assert_eq(nr_owned(), 4);
	before = state(&before_len);
	cr_assert_eq(vs_nl_checkpoint_save(&ct.core, path, &info, &e), 0, "%s", e.msg);

	vs_nl_topology_release(&ct.core);
	ct_teardown();
	ct_setup_sched();
	use(racks);
	cr_assert_eq(vs_nl_checkpoint_load(&ct.ctx, path, 0, &info, &e), 0, "%s", e.msg);
	after = state(&after_len);
	cr_assert_eq(after_len, before_len);
	cr_assert_eq(memcmp(after, before, before_len), 0, "the restored HyperNodes differ");
	free(after);
	/* discovery after the restore finds them as they are */
	seq = ct.cl.seq;
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	cr_assert_eq(ct.cl.seq, seq, "nothing made again");
	after = state(&after_len);
	cr_assert_eq(after_len, before_len);
	cr_assert_eq(memcmp(after, before, before_len), 0, "discovery changed the restored state");
	free(after);
	free(before);
}

/* "KIND NAME" of a HyperNode event, one a line. */
static size_t describe_hn(const struct nlmsghdr *nlh, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[VS_EVENT_NEW] = "new", [VS_EVENT_SET] = "set", [VS_EVENT_DEL] = "del",
	};
	const struct nlattr *kind = ct_attr(nlh, VS_A_EVENT_KIND), *hn = ct_attr(nlh, VS_A_HYPERNODE);
	u32 k = kind ? mnl_attr_get_u32(kind) : 99;

	if (!hn)
		return (size_t)snprintf(buf, len, "other\n");
	cr_assert_lt(k, ARRAY_SIZE(kinds));
	return (size_t)snprintf(buf, len, "%s %s\n", kinds[k],
				mnl_attr_get_str(ct_nested(hn, VS_HN_A_NAME)));
}

/* What discovery does is told to the events group, as the other controllers' deeds. */
Test(ctlconf, discovery_tells_the_events_group_what_it_did)
{
	static char text[4096];
	struct vs_err e = { { 0 } };
	char want[512];
	const struct vs_hypernode *t0, *t1, *sp;

	ct.core.events.on = true;
	ct.core.hooks = &vs_nl_event_hooks;
	ct.core.hooks_priv = &ct.core;
	use(racks);
	node("n0", "t0", "sp0");
	node("n1", "t1", "sp0");
	ct_take_notes(&ct.core.events, describe_hn, text, sizeof(text));
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	t0 = list_first_entry(&ct.cl.hypernodes.list, struct vs_hypernode, list);
	sp = list_next_entry(t0, list);
	t1 = list_next_entry(sp, list);
	cr_assert_eq(ct.cl.hypernodes.nr, 3);
	snprintf(want, sizeof(want), "new %s\nnew %s\nnew %s\n", t0->name, sp->name, t1->name);
	cr_assert_str_eq(ct_take_notes(&ct.core.events, describe_hn, text, sizeof(text)), want);

	node("n2", "t0", "sp0");	/* t0 has one more node */
	ct_take_notes(&ct.core.events, describe_hn, text, sizeof(text));
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	snprintf(want, sizeof(want), "set %s\n", t0->name);
	cr_assert_str_eq(ct_take_notes(&ct.core.events, describe_hn, text, sizeof(text)), want);

	CT_SEND_OK(VS_CMD_NODE_DEL, ct_put_key(__n, VS_A_NODE, NULL, "n1"));
	ct_take_notes(&ct.core.events, describe_hn, text, sizeof(text));
	snprintf(want, sizeof(want), "set %s\ndel %s\n", sp->name, t1->name);
	cr_assert_eq(vs_nl_topology_sync(&ct.core, &e), 0, "%s", e.msg);
	cr_assert_str_eq(ct_take_notes(&ct.core.events, describe_hn, text, sizeof(text)), want);
}
