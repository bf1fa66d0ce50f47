// SPDX-License-Identifier: Apache-2.0
/*
 * What pods and task templates share (userspace/kube/kread_podspec.c): the
 * containers' requests folded as Kubernetes defaults and Volcano sums
 * them, and tolerations put as the daemon's nests, read back by the codec;
 * what is refused, in the words and at the paths of the old reader.
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"

static struct vsnl_ydocs ydocs;
static struct kr_docs docs;
static struct vsnl_err err;
static char buf[8192];
static struct kr kr;

static void fini(void)
{
	kr_docs_free(&docs);
	vsnl_ydocs_free(&ydocs);
}

TestSuite(kread_podspec, .fini = fini);

#define POD	"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"

/*
 * The pair @key of the pod spec in @text ("m.yaml"), with kr at "spec" of
 * it and a TASK_NEW request begun, as kread_pod.c has them.
 */
static const struct vsnl_ypair *spec_pair(const char *text, const char *key)
{
	const struct vsnl_ynode *spec;

	fini();
	memset(&err, 0, sizeof(err));
	cr_assert_eq(vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &ydocs, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(kr_docs_read("m.yaml", &ydocs, &docs, &err), 0, "%s", err.msg);
	cr_assert_eq(docs.nr, 1);
	memset(&kr, 0, sizeof(kr));
	kr.doc = &docs.v[0];
	kr.err = &err;
	kr.cap = sizeof(buf);
	kr.nlh = vsnl_msg_put(buf, sizeof(buf), VS_CMD_TASK_NEW, 0);
	cr_assert_not_null(kr.nlh);
	kr_push(&kr, "spec");
	spec = vsnl_ymap_get(docs.v[0].root, "spec");
	cr_assert_not_null(spec);
	for (u32 i = 0; i < spec->map.nr; i++)
		if (!strcmp(spec->map.pairs[i].key, key))
			return &spec->map.pairs[i];
	cr_assert_fail("no spec.%s", key);
	return NULL;
}

static s64 res_of(const struct kr_res *r, const char *name)
{
	const struct kr_res_ent *e = kr_res_get((struct kr_res *)r, name, false);

	cr_assert_not_null(e, "no %s", name);
	return e->v;
}

Test(kread_podspec, containers_sum_their_requests_and_limits_make_a_missing_request)
{
	const struct vsnl_ypair *kv;
	struct kr_containers c;
	struct kr_res r;

	kv = spec_pair(POD "  containers:\n"
		       "  - name: a\n    image: x\n    resources:\n"
		       "      requests: {cpu: 500m, memory: 1Gi}\n"
		       "      limits: {cpu: 1, nvidia.com/gpu: 2}\n"
		       "  - name: b\n    ports: [{containerPort: 80}]\n    resources:\n"
		       "      requests: {cpu: 250m}\n      limits: {memory: 2Gi}\n"
		       "  - name: c\n", "containers");
	memset(&c, 0xff, sizeof(c));
	cr_assert_eq(kr_containers(&kr, kv, &c), 0, "%s", err.msg);
	r = c.req;
	cr_assert_eq(r.nr, 3);
	/* a port without a hostPort is kept, and takes nothing (kr_put_host_ports) */
	cr_assert_eq(c.nr_ports, 1);
	cr_assert_eq(c.ports[0].container, 80);
	cr_assert_eq(c.ports[0].host, 0);
	/* the written request wins over the limit; a limit alone makes it */
	cr_assert_eq(res_of(&r, "cpu"), 750);
	cr_assert_eq(res_of(&r, "memory"), 3ll << 30);
	cr_assert_eq(res_of(&r, "nvidia.com/gpu"), 2000);
	cr_assert_eq(r.line, 5);
	cr_assert_str_eq(kr.path, "spec", "the walk's place is given back");
}

Test(kread_podspec, init_containers_take_the_largest_of_each)
{
	const struct vsnl_ypair *kv;
	struct kr_res r;

	kv = spec_pair(POD "  initContainers:\n"
		       "  - resources: {requests: {cpu: 2, memory: 1Gi}}\n"
		       "  - resources: {limits: {cpu: 1, memory: 4Gi}}\n", "initContainers");
	cr_assert_eq(kr_init_containers(&kr, kv, &r), 0, "%s", err.msg);
	cr_assert_eq(r.nr, 2);
	cr_assert_eq(res_of(&r, "cpu"), 2000);
	cr_assert_eq(res_of(&r, "memory"), 4ll << 30);
	cr_assert_eq(r.line, 5);
}

Test(kread_podspec, no_init_container_is_no_init_request)
{
	const struct vsnl_ypair *kv;
	struct kr_res r;

	kv = spec_pair(POD "  initContainers: []\n", "initContainers");
	cr_assert_eq(kr_init_containers(&kr, kv, &r), 0, "%s", err.msg);
	cr_assert_eq(r.nr, 0);
	cr_assert_eq(r.line, 0);
	/* a container without requests is one: its request is empty */
	kv = spec_pair(POD "  initContainers: [{name: x}]\n", "initContainers");
	cr_assert_eq(kr_init_containers(&kr, kv, &r), 0, "%s", err.msg);
	cr_assert_eq(r.nr, 0);
	cr_assert_eq(r.line, 5);
}

static void refused(const char *text, const char *key, bool init, const char *msg)
{
	const struct vsnl_ypair *kv = spec_pair(text, key);
	struct kr_containers c;
	struct kr_res r;

	if (init)
		cr_assert_eq(kr_init_containers(&kr, kv, &r), -EINVAL);
	else
		cr_assert_eq(kr_containers(&kr, kv, &c), -EINVAL);
	cr_assert_str_eq(err.msg, msg);
}

Test(kread_podspec, containers_are_refused_by_their_path)
{
	refused(POD "  containers: {name: a}\n", "containers", false,
		"m.yaml:5: document 1 (Pod default/p): spec.containers must be a list, not a mapping");
	refused(POD "  containers: [a]\n", "containers", false,
		"m.yaml:5: document 1 (Pod default/p): spec.containers[0] must be a mapping, "
		"not a string");
	refused(POD "  containers:\n  - {}\n  - resources: {request: {cpu: 1}}\n", "containers",
		false, "m.yaml:7: document 1 (Pod default/p): spec.containers[1].resources.request: "
		"unknown field (known: requests, limits, claims)");
	refused(POD "  initContainers:\n  - resources:\n      limits: {cpu: abc}\n",
		"initContainers", true, "m.yaml:7: document 1 (Pod default/p): "
		"spec.initContainers[0].resources.limits.cpu: invalid quantity \"abc\": no digits");
	refused(POD "  containers:\n  - resources: {requests: {nvidia.com/gpu: [1]}}\n",
		"containers", false, "m.yaml:6: document 1 (Pod default/p): "
		"spec.containers[0].resources.requests[nvidia.com/gpu] must be a quantity, "
		"not a list");
	refused(POD "  containers:\n  - resources: []\n", "containers", false,
		"m.yaml:6: document 1 (Pod default/p): spec.containers[0].resources must be a "
		"mapping, not a list");
}

Test(kread_podspec, more_resources_than_a_list_holds_are_refused)
{
	char text[4096];
	const struct vsnl_ypair *kv;
	struct kr_containers r;
	int len;

	/* each container within the limit, their sum past it */
	len = snprintf(text, sizeof(text), POD "  containers:\n");
	for (int c = 0; c < 2; c++) {
		len += snprintf(text + len, sizeof(text) - (size_t)len,
				"  - resources:\n      requests:\n");
		for (int i = 0; i < KR_RES_MAX / 2 + 1; i++)
			len += snprintf(text + len, sizeof(text) - (size_t)len,
					"        example.com/r%d-%d: 1\n", c, i);
	}
	cr_assert_lt(len, (int)sizeof(text));
	kv = spec_pair(text, "containers");
	cr_assert_eq(kr_containers(&kr, kv, &r), -EINVAL);
	cr_assert_str_eq(err.msg, "m.yaml:25: document 1 (Pod default/p): spec.containers[1]: "
			 "more than 32 resources");
}

/* ---- host ports ---- */

struct port_out {
	u32 port, protocol;
	bool has_protocol;
	const char *ip;
};

/* The host ports of @text's containers put in a task nest, read back by the codec. */
static int put_ports(const char *text, bool host_network, struct port_out *out, u32 max,
		     u32 *nr)
{
	const struct vsnl_ypair *kv = spec_pair(text, "containers");
	struct vsnl_vsched_tb top;
	struct kr_containers c;
	const struct nlattr *a;
	struct nlattr *nest;
	int ret;

	nest = vsnl_vsched_start_task(kr.nlh, kr.cap, &err);
	cr_assert_not_null(nest);
	ret = kr_containers(&kr, kv, &c) ?:
	      kr_put_host_ports(&kr, &vsnl_codec_task, VS_TASK_A_HOST_PORT, &c, host_network,
				"spec.containers");
	if (ret)
		return ret;
	mnl_attr_nest_end(kr.nlh, nest);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, kr.nlh, GENL_HDRLEN, top.attr, 0,
					  &err), 0, "%s", err.msg);
	*nr = 0;
	mnl_attr_for_each_nested(a, vsnl_vsched_get_task(&top)) {
		struct vsnl_host_port_tb tb;
		struct port_out *p = &out[*nr];

		cr_assert_eq(mnl_attr_get_type(a), VS_TASK_A_HOST_PORT);
		cr_assert_lt(*nr, max);
		cr_assert_eq(vsnl_host_port_parse(a, &tb, VSNL_CODEC_REQUEST, &err), 0, "%s",
			     err.msg);
		cr_assert(vsnl_host_port_get_port(&tb, &p->port));
		p->has_protocol = vsnl_host_port_get_protocol(&tb, &p->protocol);
		p->ip = vsnl_host_port_get_ip(&tb);
		(*nr)++;
	}
	return 0;
}

Test(kread_podspec, host_ports_are_nests_of_the_ports_with_a_host_port)
{
	struct port_out p[4];
	u32 nr = 0;

	cr_assert_eq(put_ports(POD "  containers:\n"
			       "  - ports:\n"
			       "    - {name: http, containerPort: 80}\n"
			       "    - {containerPort: 80, hostPort: 8080}\n"
			       "  - ports:\n"
			       "    - {containerPort: 53, hostPort: 53, protocol: UDP, "
			       "hostIP: 10.0.0.1}\n"
			       "    - {containerPort: 53, hostPort: 53, hostIP: \"\"}\n",
			       false, p, 4, &nr), 0, "%s", err.msg);
	cr_assert_eq(nr, 3, "the port without a hostPort takes nothing");
	cr_assert_eq(p[0].port, 8080);
	cr_assert(p[0].has_protocol);
	cr_assert_eq(p[0].protocol, VS_PORT_PROTOCOL_TCP, "the API server's default");
	cr_assert_null(p[0].ip);
	cr_assert_eq(p[1].port, 53);
	cr_assert_eq(p[1].protocol, VS_PORT_PROTOCOL_UDP);
	cr_assert_str_eq(p[1].ip, "10.0.0.1");
	cr_assert_eq(p[2].port, 53);
	cr_assert_eq(p[2].protocol, VS_PORT_PROTOCOL_TCP);
	cr_assert_null(p[2].ip, "an empty hostIP is none");
}

Test(kread_podspec, a_host_network_pods_ports_are_host_ports)
{
	struct port_out p[4];
	u32 nr = 0;

	cr_assert_eq(put_ports(POD "  containers:\n"
			       "  - ports: [{containerPort: 80}, {containerPort: 81, hostPort: 9}]\n",
			       true, p, 4, &nr), 0, "%s", err.msg);
	cr_assert_eq(nr, 2);
	cr_assert_eq(p[0].port, 80, "Kubernetes defaults hostPort to containerPort");
	cr_assert_eq(p[1].port, 9, "a hostPort written stays");
}

static void ports_refused(const char *text, bool host_network, const char *msg)
{
	struct port_out p[4];
	u32 nr = 0;

	cr_assert_eq(put_ports(text, host_network, p, 4, &nr), -EINVAL);
	cr_assert_str_eq(err.msg, msg);
}

Test(kread_podspec, host_ports_are_refused_by_their_path)
{
	ports_refused(POD "  containers:\n  - {}\n  - ports: [{hostPort: 80}]\n", false,
		      "m.yaml:7: document 1 (Pod default/p): spec.containers[1].ports[0]."
		      "containerPort: required, in 1..65535");
	ports_refused(POD "  containers:\n  - ports: [{containerPort: 80, hostPort: 70000}]\n",
		      false, "m.yaml:6: document 1 (Pod default/p): spec.containers[0].ports[0]."
		      "hostPort must be between 0 and 65535");
	ports_refused(POD "  containers:\n  - ports: [{containerPort: 80, protocol: tcp}]\n",
		      false, "m.yaml:6: document 1 (Pod default/p): spec.containers[0].ports[0]."
		      "protocol: unknown protocol \"tcp\" (one of: TCP, UDP, SCTP)");
	ports_refused(POD "  containers:\n  - ports: [{containerPort: 80, hostport: 80}]\n",
		      false, "m.yaml:6: document 1 (Pod default/p): spec.containers[0].ports[0]."
		      "hostport: unknown field (known: containerPort, hostPort, protocol, hostIP, "
		      "name)");
	ports_refused(POD "  containers:\n  - ports: {containerPort: 80}\n", false,
		      "m.yaml:6: document 1 (Pod default/p): spec.containers[0].ports must be a "
		      "list, not a mapping");
	/* the same protocol, hostIP and hostPort twice, in two containers */
	ports_refused(POD "  containers:\n  - ports: [{containerPort: 80, hostPort: 80}]\n"
		      "  - ports: [{containerPort: 81, hostPort: 80, protocol: TCP}]\n", false,
		      "m.yaml:7: document 1 (Pod default/p): spec.containers[1].ports[0].hostPort: "
		      "duplicate TCP//80");
	/* ... or once a host-network pod's hostPort is defaulted */
	ports_refused(POD "  containers:\n  - ports: [{containerPort: 80}, {containerPort: 8, "
		      "hostPort: 80}]\n", true,
		      "m.yaml:6: document 1 (Pod default/p): spec.containers[0].ports[1].hostPort: "
		      "duplicate TCP//80");
}

Test(kread_podspec, other_protocols_or_addresses_are_no_duplicates)
{
	struct port_out p[4];
	u32 nr = 0;

	cr_assert_eq(put_ports(POD "  containers:\n  - ports:\n"
			       "    - {containerPort: 80, hostPort: 80}\n"
			       "    - {containerPort: 80, hostPort: 80, protocol: UDP}\n"
			       "    - {containerPort: 80, hostPort: 80, hostIP: 0.0.0.0}\n"
			       "    - {containerPort: 80, hostPort: 80, hostIP: 10.0.0.2}\n",
			       false, p, 4, &nr), 0, "%s", err.msg);
	cr_assert_eq(nr, 4);
}

/* ---- tolerations ---- */

struct tol_out {
	const char *key, *value;
	uint32_t op, effect;
	int64_t seconds;
	bool has_op, has_effect, has_seconds;
};

/* The tolerations of @text put in a task nest, read back by the codec into @out. */
static int put_tols(const char *text, struct tol_out *out, u32 max, u32 *nr)
{
	const struct vsnl_ypair *kv = spec_pair(text, "tolerations");
	struct vsnl_vsched_tb top;
	const struct nlattr *a;
	struct nlattr *nest;
	int ret;

	nest = vsnl_vsched_start_task(kr.nlh, kr.cap, &err);
	cr_assert_not_null(nest);
	ret = kr_put_tolerations(&kr, &vsnl_codec_task, VS_TASK_A_TOLERATION, kv);
	if (ret)
		return ret;
	mnl_attr_nest_end(kr.nlh, nest);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, kr.nlh, GENL_HDRLEN, top.attr, 0,
					  &err), 0, "%s", err.msg);
	*nr = 0;
	mnl_attr_for_each_nested(a, vsnl_vsched_get_task(&top)) {
		struct vsnl_toleration_tb tb;
		struct tol_out *t = &out[*nr];

		cr_assert_eq(mnl_attr_get_type(a), VS_TASK_A_TOLERATION);
		cr_assert_lt(*nr, max);
		cr_assert_eq(vsnl_toleration_parse(a, &tb, VSNL_CODEC_REQUEST, &err), 0, "%s",
			     err.msg);
		t->key = vsnl_toleration_get_key(&tb);
		t->value = vsnl_toleration_get_value(&tb);
		t->has_op = vsnl_toleration_get_operator(&tb, &t->op);
		t->has_effect = vsnl_toleration_get_effect(&tb, &t->effect);
		t->has_seconds = vsnl_toleration_get_seconds(&tb, &t->seconds);
		(*nr)++;
	}
	return 0;
}

Test(kread_podspec, tolerations_are_nests_of_what_is_written)
{
	struct tol_out t[4];
	u32 nr = 0;

	cr_assert_eq(put_tols(POD "  tolerations:\n"
			      "  - {key: gpu, operator: Equal, value: a100, effect: NoSchedule}\n"
			      "  - {operator: Exists}\n"
			      "  - key: node.kubernetes.io/unreachable\n    operator: Exists\n"
			      "    effect: NoExecute\n    tolerationSeconds: 300\n"
			      "  - {key: k, operator: \"\", effect: \"\", value: \"\"}\n",
			      t, ARRAY_SIZE(t), &nr), 0, "%s", err.msg);
	cr_assert_eq(nr, 4);
	cr_assert_str_eq(t[0].key, "gpu");
	cr_assert(t[0].has_op);
	cr_assert_eq(t[0].op, VS_TOLERATION_OP_EQUAL);
	cr_assert_str_eq(t[0].value, "a100");
	cr_assert(t[0].has_effect);
	cr_assert_eq(t[0].effect, VS_TAINT_EFFECT_NO_SCHEDULE);
	cr_assert_not(t[0].has_seconds);
	/* no key: every key; no effect: every effect, the daemon's defaults */
	cr_assert_null(t[1].key);
	cr_assert_eq(t[1].op, VS_TOLERATION_OP_EXISTS);
	cr_assert_not(t[1].has_effect);
	cr_assert_null(t[1].value);
	cr_assert_str_eq(t[2].key, "node.kubernetes.io/unreachable");
	cr_assert_eq(t[2].effect, VS_TAINT_EFFECT_NO_EXECUTE);
	cr_assert(t[2].has_seconds);
	cr_assert_eq(t[2].seconds, 300);
	/* "" is the default operator and every effect */
	cr_assert_str_eq(t[3].key, "k");
	cr_assert_not(t[3].has_op);
	cr_assert_not(t[3].has_effect);
	cr_assert_str_eq(t[3].value, "");
}

Test(kread_podspec, no_tolerations_put_nothing)
{
	struct tol_out t[1];
	u32 nr = 9;

	cr_assert_eq(put_tols(POD "  tolerations: []\n", t, ARRAY_SIZE(t), &nr), 0);
	cr_assert_eq(nr, 0);
	nr = 9;
	cr_assert_eq(put_tols(POD "  tolerations: ~\n", t, ARRAY_SIZE(t), &nr), 0);
	cr_assert_eq(nr, 0);
	cr_assert_eq(kr_put_tolerations(&kr, &vsnl_codec_task, VS_TASK_A_TOLERATION, NULL), 0);
}

static void tol_refused(const char *text, const char *msg)
{
	struct tol_out t[4];
	u32 nr = 0;

	cr_assert_eq(put_tols(text, t, ARRAY_SIZE(t), &nr), -EINVAL, "%s", text);
	cr_assert_str_eq(err.msg, msg);
}

Test(kread_podspec, tolerations_are_refused_by_their_path)
{
	tol_refused(POD "  tolerations: {key: a}\n", "m.yaml:5: document 1 (Pod default/p): "
		    "spec.tolerations must be a list, not a mapping");
	tol_refused(POD "  tolerations:\n  - {}\n  - {operator: Maybe}\n",
		    "m.yaml:7: document 1 (Pod default/p): spec.tolerations[1].operator: "
		    "unknown toleration operator \"Maybe\" (Equal or Exists)");
	tol_refused(POD "  tolerations:\n  - {effect: Never}\n",
		    "m.yaml:6: document 1 (Pod default/p): spec.tolerations[0].effect: "
		    "unknown taint effect \"Never\" (NoSchedule, PreferNoSchedule or NoExecute)");
	tol_refused(POD "  tolerations:\n  - {tolerationSecond: 5}\n",
		    "m.yaml:6: document 1 (Pod default/p): spec.tolerations[0].tolerationSecond: "
		    "unknown field (known: key, operator, value, effect, tolerationSeconds)");
	tol_refused(POD "  tolerations:\n  - {tolerationSeconds: 5s}\n",
		    "m.yaml:6: document 1 (Pod default/p): spec.tolerations[0].tolerationSeconds "
		    "must be an integer, not a string");
	tol_refused(POD "  tolerations:\n  - {key: 3}\n",
		    "m.yaml:6: document 1 (Pod default/p): spec.tolerations[0].key must be a "
		    "string, not an integer");
	tol_refused(POD "  tolerations: [a]\n", "m.yaml:5: document 1 (Pod default/p): "
		    "spec.tolerations[0] must be a mapping, not a string");
}

Test(kread_podspec, a_toleration_the_policy_refuses_is_named_by_its_field)
{
	static const char where[] = "m.yaml:7: document 1 (Pod default/p): "
				    "spec.tolerations[0].value: ";
	char text[512], value[66];
	struct tol_out t[1];
	u32 nr = 0;

	/* a label value is at most 63 bytes; the codec's policy says so */
	memset(value, 'v', sizeof(value) - 1);
	value[sizeof(value) - 1] = '\0';
	snprintf(text, sizeof(text), POD "  tolerations:\n  - key: k\n    value: %s\n", value);
	cr_assert_eq(put_tols(text, t, ARRAY_SIZE(t), &nr), -EINVAL);
	cr_assert(!strncmp(err.msg, where, strlen(where)), "%s", err.msg);
	cr_assert_gt(strlen(err.msg), strlen(where));
}
