/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of one kind of the manifest reader without the core
 * (kread_<kind>_test.c) share: a text read and its one object put by
 * kread, checked by the codec as the daemon checks a request; and the
 * nests it puts, written as text that does not depend on the order they
 * are put in (resource lists, labels, taints), for comparing with the old
 * reader's (manifest.c's) answers, written the same way and kept in the
 * tests' tables.
 */
#ifndef SELFTESTS_MANIFEST_KREAD_KIND_H
#define SELFTESTS_MANIFEST_KREAD_KIND_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <criterion/criterion.h>

#include "vsched/vsched.h"
#include "kube/kread.h"
#include "lib/codec.h"
#include "lib/codec_gen.h"

static struct vsnl_ydocs kt_ydocs;
static struct kr_docs kt_docs;
static struct vsnl_err kt_err;
static char kt_buf[8192];

static inline void kt_fini(void)
{
	kr_docs_free(&kt_docs);
	vsnl_ydocs_free(&kt_ydocs);
}

/* Parse and classify @text as the file "m.yaml"; 0 or the error, in kt_err. */
static inline int kt_read(const char *text)
{
	int ret;

	kt_fini();
	memset(&kt_err, 0, sizeof(kt_err));
	ret = vsnl_yaml_parse_docs(text, strlen(text), "m.yaml", &kt_ydocs, &kt_err);
	return ret ?: kr_docs_read("m.yaml", &kt_ydocs, &kt_docs, &kt_err);
}

/* The object nest @type of the request @nlh of command @cmd, checked as the daemon checks it. */
static inline const struct nlattr *kt_obj(const struct nlmsghdr *nlh, u8 cmd, u16 type)
{
	const struct nlattr *top[VS_A_MAX + 1];

	cr_assert_eq(((struct genlmsghdr *)mnl_nlmsg_get_payload(nlh))->cmd, cmd);
	cr_assert_eq(vsnl_codec_parse_msg(&vsnl_codec_vsched, nlh, GENL_HDRLEN, top,
					  VSNL_CODEC_REQUEST, &kt_err), 0, "%s", kt_err.msg);
	cr_assert_not_null(top[type]);
	return top[type];
}

/* kread's request for the one document of @text: 0 and its object nest @type, or the error. */
static inline int kt_put(const char *text, u8 cmd, u16 type, const struct nlattr **obj)
{
	struct nlmsghdr *nlh = NULL;
	int ret = kt_read(text);

	if (ret)
		return ret;
	cr_assert_eq(kt_docs.nr, 1);
	ret = kr_put_new(&kt_docs.v[0], kt_buf, sizeof(kt_buf), &nlh, &kt_err);
	if (ret)
		return ret;
	*obj = kt_obj(nlh, cmd, type);
	return 0;
}

/* ---- nests as text ---- */

#define KT_TEXT_MAX	1024

static inline int kt_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @n strings of @items, sorted, joined by ","; each freed. */
static inline void kt_join(char **items, u32 n, char *out, size_t size, size_t len)
{
	qsort(items, n, sizeof(*items), kt_cmp_str);
	for (u32 i = 0; i < n; i++) {
		len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s%s",
					len ? "," : "", items[i]);
		free(items[i]);
	}
	cr_assert_lt(len, size);
}

/*
 * A resource list as "cpu=C,memory=M[,pods=P][,NAME=V...]": cpu and memory
 * always (an absent list or dimension is 0 to the daemon), pods when
 * given or @pods (a node's allocatable: one without pods takes none), the
 * others sorted by name.
 */
static inline void kt_res(const struct nlattr *nest, bool pods, char *out, size_t size)
{
	struct vsnl_res_tb tb = { { 0 } };
	char *items[KR_RES_MAX + 3];
	uint64_t cpu = 0, mem = 0, nr_pods = 0;
	const struct nlattr *a;
	u32 n = 0;

	if (nest) {
		cr_assert_eq(vsnl_res_parse(nest, &tb, VSNL_CODEC_REQUEST, &kt_err), 0);
		vsnl_res_get_cpu(&tb, &cpu);
		vsnl_res_get_memory(&tb, &mem);
		mnl_attr_for_each_nested(a, nest) {
			struct vsnl_scalar_tb s;
			uint64_t v = 0;

			if (mnl_attr_get_type(a) != VS_RES_A_SCALAR)
				continue;
			cr_assert_lt(n, KR_RES_MAX);
			cr_assert_eq(vsnl_scalar_parse(a, &s, VSNL_CODEC_REQUEST, &kt_err), 0);
			vsnl_scalar_get_value(&s, &v);
			cr_assert_geq(asprintf(&items[n++], "%s=%llu", vsnl_scalar_get_name(&s),
					       (unsigned long long)v), 0);
		}
	}
	if (vsnl_res_get_pods(&tb, &nr_pods) || pods)
		cr_assert_geq(asprintf(&items[n++], "pods=%llu", (unsigned long long)nr_pods), 0);
	kt_join(items, n, out, size, (size_t)snprintf(out, size, "cpu=%llu,memory=%llu",
						     (unsigned long long)cpu,
						     (unsigned long long)mem));
}

/* The labels nest as "k=v,...", sorted ("" when absent). */
static inline void kt_labels(const struct nlattr *nest, char *out, size_t size)
{
	char *items[64];
	const struct nlattr *a;
	u32 n = 0;

	out[0] = '\0';
	if (!nest)
		return;
	mnl_attr_for_each_nested(a, nest) {
		struct vsnl_kv_tb kv;

		cr_assert_lt(n, ARRAY_SIZE(items));
		cr_assert_eq(vsnl_kv_parse(a, &kv, VSNL_CODEC_REQUEST, &kt_err), 0);
		cr_assert_geq(asprintf(&items[n++], "%s=%s", vsnl_kv_get_key(&kv),
				       vsnl_kv_get_value(&kv) ?: ""), 0);
	}
	kt_join(items, n, out, size, 0);
}

/* The nests @type of @obj that are taints as "key=value:Effect,...", sorted. */
static inline void kt_taints(const struct nlattr *obj, u16 type, char *out, size_t size)
{
	char *items[64];
	const struct nlattr *a;
	u32 n = 0;

	out[0] = '\0';
	mnl_attr_for_each_nested(a, obj) {
		struct vsnl_taint_tb t;
		uint32_t effect = VS_TAINT_EFFECT_ANY;

		if (mnl_attr_get_type(a) != type)
			continue;
		cr_assert_lt(n, ARRAY_SIZE(items));
		cr_assert_eq(vsnl_taint_parse(a, &t, VSNL_CODEC_REQUEST, &kt_err), 0, "%s",
			     kt_err.msg);
		vsnl_taint_get_effect(&t, &effect);
		cr_assert_geq(asprintf(&items[n++], "%s=%s:%s", vsnl_taint_get_key(&t),
				       vsnl_taint_get_value(&t) ?: "",
				       vsnl_taint_effect_names[effect]), 0);
	}
	kt_join(items, n, out, size, 0);
}

#endif /* SELFTESTS_MANIFEST_KREAD_KIND_H */
