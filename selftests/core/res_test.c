// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for resource vectors and quantities (core/res.h). The comparison and
 * arithmetic cases are transcribed from Volcano's resource_info_test.go, whose
 * values are already in our units (millicores, bytes, milli-scalars); its
 * "hugepages-test" becomes hugepages-2Mi and its unprefixed "scalar" becomes
 * example.com/scalar, since both are names Kubernetes refuses. Further cases
 * pin each rule about absent versus zero scalars that the Go code implies.
 *
 * The dimension table is the tests' own (@tab), started afresh by each
 * suite's .init with cpu, memory and pods only, so that the tests do not
 * depend on the order of registrations across tests if they ever share a
 * process. Tests that need a scalar register it by name and look its
 * index up, never assume one, except where the order is the point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "core/res.h"

/* The table of these tests' vectors, as a cluster's would be. */
static struct vs_res_dims tab;

static void tab_init(void)
{
	vs_res_dims_init(&tab);
}

TestSuite(res, .init = tab_init);
TestSuite(quantity, .init = tab_init);

#define S1	"scalar.test/scalar1"
#define HP	"hugepages-2Mi"
#define GPU	"nvidia.com/gpu"

static unsigned int dim(const char *name)
{
	struct vs_err err = { 0 };
	int d = vs_res_dim_get(&tab, name, strlen(name), &err);

	cr_assert_geq(d, 0, "registering %s: %s", name, err.msg);
	return d;
}

/* "cpu=4000 memory=2000 nvidia.com/gpu=1000", values in our units, "inf" for VS_RES_INF. */
static struct vs_res mk(const char *spec)
{
	struct vs_res r = { 0 };
	char buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		cr_assert(eq, "bad spec token %s", tok);
		*eq = '\0';
		vs_res_set(&r, dim(tok), strcmp(eq + 1, "inf") ?
			   strtoll(eq + 1, NULL, 10) : VS_RES_INF);
	}
	return r;
}

/* "cpu nvidia.com/gpu": the mask of those dimensions. */
static vs_resmask_t mask(const char *names)
{
	char buf[256], *tok, *save = NULL;
	vs_resmask_t m = 0;

	snprintf(buf, sizeof(buf), "%s", names);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		m |= VS_RES_BIT(dim(tok));
	return m;
}

static void expect_res(const struct vs_res *got, const char *want_spec, const char *what)
{
	struct vs_res want = mk(want_spec);
	char g[256], w[256];
	unsigned int d;

	vs_res_fmt(&tab, g, sizeof(g), got);
	vs_res_fmt(&tab, w, sizeof(w), &want);
	cr_assert_eq(got->present, want.present, "%s: present %#x, want %#x (%s vs %s)",
		     what, got->present, want.present, g, w);
	for (d = 0; d < VS_RES_MAX; d++)
		cr_assert_eq(got->v[d], want.v[d], "%s: dim %u is %lld, want %lld (%s vs %s)",
			     what, d, (long long)got->v[d], (long long)want.v[d], g, w);
}

static void expect_msg(const struct vs_err *err, const char *sub, const char *what)
{
	cr_assert(strstr(err->msg, sub), "%s: message \"%s\" lacks \"%s\"", what, err->msg, sub);
}

/* ------------------------------------------------------------------ */
/* the dimension table */

Test(res, dims_start_with_cpu_memory_pods)
{
	cr_assert_eq(vs_res_ndims(&tab), 3);
	cr_assert_str_eq(vs_res_dim_name(&tab, VS_RES_CPU), "cpu");
	cr_assert_str_eq(vs_res_dim_name(&tab, VS_RES_MEMORY), "memory");
	cr_assert_str_eq(vs_res_dim_name(&tab, VS_RES_PODS), "pods");
	cr_assert_null(vs_res_dim_name(&tab, 3));
	cr_assert_eq(vs_res_dim_lookup(&tab, "cpu", 3), VS_RES_CPU);
	cr_assert_eq(vs_res_dim_lookup(&tab, "memoryX", 6), VS_RES_MEMORY);
	cr_assert_eq(vs_res_dim_lookup(&tab, "pods", 4), VS_RES_PODS);
	cr_assert_eq(vs_res_dim_lookup(&tab, "cp", 2), -ENOENT);
	cr_assert_eq(vs_res_dim_lookup(&tab, GPU, strlen(GPU)), -ENOENT);
	cr_assert_eq(vs_res_dim_get(&tab, "memory", 6, NULL), VS_RES_MEMORY);
	cr_assert_eq(vs_res_ndims(&tab), 3);
}

Test(res, dim_get_registers_once)
{
	int d = vs_res_dim_get(&tab, "nvidia.com/gpuXYZ", strlen(GPU), NULL);

	cr_assert_eq(d, 3);
	cr_assert_eq(vs_res_ndims(&tab), 4);
	cr_assert_str_eq(vs_res_dim_name(&tab, d), GPU);
	cr_assert_eq(vs_res_dim_get(&tab, GPU, strlen(GPU), NULL), d);
	cr_assert_eq(vs_res_dim_lookup(&tab, GPU, strlen(GPU)), d);
	cr_assert_eq(vs_res_ndims(&tab), 4);
	cr_assert_eq(dim("ephemeral-storage"), 4);
}

Test(res, dim_milli_follows_new_resource_units)
{
	cr_assert_eq(vs_res_dim_milli(VS_RES_CPU), 3);
	cr_assert_eq(vs_res_dim_milli(VS_RES_MEMORY), 0);
	cr_assert_eq(vs_res_dim_milli(VS_RES_PODS), 0);
	cr_assert_eq(vs_res_dim_milli(dim(GPU)), 3);
	cr_assert_eq(vs_res_dim_milli(dim("ephemeral-storage")), 3);
	cr_assert_eq(vs_res_dim_milli(dim(HP)), 3);
}

Test(res, dim_names_kubernetes_accepts)
{
	static const char *const ok[] = {
		GPU, "example.com/foo", "ephemeral-storage", HP, "hugepages-1Gi",
		"attachable-volumes-aws-ebs", S1, "nvidia.com/A100",
		"vendor.com/gpu-x", "example.com/Foo_bar.baz",
		/* prefixed native names count as scalars in Volcano */
		"foo.kubernetes.io/bar", "kubernetes.io/batch",
	};
	struct vs_err err = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		int d = vs_res_dim_get(&tab, ok[i], strlen(ok[i]), &err);

		cr_assert_eq(d, (int)(3 + i), "%s: %d (%s)", ok[i], d, err.msg);
		cr_assert_not(vs_err_is_set(&err));
	}
}

Test(res, dim_names_kubernetes_refuses_with_reason)
{
	static const struct {
		const char *name;
		const char *msg;
	} bad[] = {
		{ "", "invalid resource name \"\": empty" },
		{ "gpu", "invalid resource name \"gpu\": not a resource Kubernetes defines" },
		{ "foo", "extended resources need a domain prefix" },
		{ "storage", "not a resource Kubernetes defines" },
		{ "count/pods", "invalid resource name \"count/pods\": an object-count quota" },
		{ "count/nvidia.com/gpu", "more than one '/'" },
		{ "requests.nvidia.com/gpu", "\"requests.\" names belong to resource quotas" },
		{ "requests.cpu", "not a resource Kubernetes defines" },
		{ "nvidia.com/gpu x", "invalid character ' '" },
		{ "nvidia.com/ gpu", "invalid character ' '" },
		{ "cpu ", "invalid character ' '" },
		{ "nvidia.com/gpu\n", "invalid character 0x0a" },
		{ "nvidia.com/gpu!", "invalid character '!'" },
		{ "a/b/c", "more than one '/'" },
		{ "Example.com/gpu", "is not a DNS subdomain" },
		{ "example..com/gpu", "is not a DNS subdomain" },
		{ "-example.com/gpu", "is not a DNS subdomain" },
		{ "example.com-/gpu", "is not a DNS subdomain" },
		{ "/gpu", "prefix \"\" is not a DNS subdomain" },
		{ "example.com/", "must be 1-63 letters" },
		{ "example.com/-gpu", "must be 1-63 letters" },
		{ "example.com/gpu.", "must be 1-63 letters" },
		{ "hugepages-", "ending with a letter or digit" },
		{ "hugepages-1x", "invalid resource name \"hugepages-1x\": huge page size \"1x\" is not a positive quantity" },
		{ "hugepages-abc", "huge page size \"abc\"" },
		{ "hugepages-0", "huge page size \"0\"" },
		{ "attachable-volumes-", "at most 63 letters" },
		{ "-cpu", "at most 63 letters" },
	};
	struct vs_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		vs_err_clear(&err);
		cr_assert_eq(vs_res_dim_get(&tab, bad[i].name, strlen(bad[i].name), &err),
			     -EINVAL, "%s accepted", bad[i].name);
		expect_msg(&err, bad[i].msg, bad[i].name);
	}
	cr_assert_eq(vs_res_ndims(&tab), 3, "a refused name was registered");
}

Test(res, dim_names_length_limits)
{
	char name[400];
	struct vs_err err = { 0 };

	/* 254 characters */
	memset(name, 'a', 254);
	memcpy(name, "example.com/", 12);
	cr_assert_eq(vs_res_dim_get(&tab, name, 254, &err), -EINVAL);
	expect_msg(&err, "longer than 253 characters", "254 chars");

	/* a name part of 64 characters */
	vs_err_clear(&err);
	cr_assert_eq(vs_res_dim_get(&tab, name, 12 + 64, &err), -EINVAL);
	expect_msg(&err, "must be 1-63 letters", "64-char name part");
	cr_assert_eq(vs_res_dim_get(&tab, name, 12 + 63, NULL), 3);

	/* "requests." + a 245-character prefix would pass 253 */
	memset(name, 'a', 245);
	name[245] = '/';
	name[246] = 'x';
	vs_err_clear(&err);
	cr_assert_eq(vs_res_dim_get(&tab, name, 247, &err), -EINVAL);
	expect_msg(&err, "prefix longer than 244 characters", "245-char prefix");
	memmove(name + 244, name + 245, 2);
	cr_assert_eq(vs_res_dim_get(&tab, name, 246, NULL), 4);

	/* an unprefixed name is at most 63 */
	memset(name, 'a', 64);
	memcpy(name, "attachable-volumes-", 19);
	cr_assert_eq(vs_res_dim_get(&tab, name, 64, NULL), -EINVAL);
	cr_assert_eq(vs_res_dim_get(&tab, name, 63, NULL), 5);
}

Test(res, dim_table_full_then_reset)
{
	struct vs_err err = { 0 };
	char name[32];
	int i, d;

	for (i = 0; i < VS_RES_MAX - 3; i++) {
		snprintf(name, sizeof(name), "example.com/r%d", i);
		cr_assert_eq(vs_res_dim_get(&tab, name, strlen(name), &err), 3 + i, "%s: %s",
			     name, err.msg);
	}
	cr_assert_eq(vs_res_ndims(&tab), VS_RES_MAX);
	cr_assert_eq(vs_res_dim_get(&tab, "example.com/more", 16, &err), -ENOSPC);
	expect_msg(&err, "resource \"example.com/more\": no free dimension", "full");
	/* names already there still resolve when the table is full */
	cr_assert_eq(vs_res_dim_get(&tab, "example.com/r0", 14, NULL), 3);
	cr_assert_eq(vs_res_dim_get(&tab, "cpu", 3, NULL), VS_RES_CPU);
	/* a bad name is refused for what it is, not for the lack of room */
	vs_err_clear(&err);
	cr_assert_eq(vs_res_dim_get(&tab, "gpu", 3, &err), -EINVAL);

	vs_res_dims_init(&tab);
	cr_assert_eq(vs_res_ndims(&tab), 3);
	cr_assert_eq(vs_res_dim_lookup(&tab, "example.com/r0", 14), -ENOENT);
	cr_assert_null(vs_res_dim_name(&tab, 3));
	cr_assert_str_eq(vs_res_dim_name(&tab, VS_RES_PODS), "pods");
	d = vs_res_dim_get(&tab, "example.com/more", 16, NULL);
	cr_assert_eq(d, 3);
	cr_assert_str_eq(vs_res_dim_name(&tab, d), "example.com/more");
}

/* ------------------------------------------------------------------ */
/* quantities */

static s64 parse_ok(const char *s, unsigned int milli)
{
	struct vs_err err = { 0 };
	s64 v = -42;
	int ret = vs_quantity_parse(s, strlen(s), milli, &v, &err);

	cr_assert_eq(ret, 0, "\"%s\" (milli %u): %d %s", s, milli, ret, err.msg);
	cr_assert_not(vs_err_is_set(&err));
	return v;
}

Test(quantity, parse_suffixes_and_units)
{
	static const struct {
		const char *s;
		unsigned int milli;
		s64 want;
	} cases[] = {
		{ "0", 3, 0 }, { "0", 0, 0 }, { "1", 3, 1000 }, { "1", 0, 1 },
		{ "500m", 3, 500 }, { "0.5", 3, 500 }, { "1.5", 3, 1500 },
		{ "2", 0, 2 }, { "+5", 0, 5 }, { "00012", 0, 12 },
		{ ".5", 3, 500 }, { "5.", 3, 5000 }, { "5.Gi", 0, 5LL << 30 },
		{ "1Ki", 0, 1024 }, { "1Mi", 0, 1 << 20 }, { "4Gi", 0, 4LL << 30 },
		{ "1Ti", 0, 1LL << 40 }, { "1Pi", 0, 1LL << 50 }, { "7Ei", 0, 7LL << 60 },
		{ "1.5Gi", 0, 1610612736 }, { "0.5Ki", 0, 512 },
		{ "1k", 0, 1000 }, { "1M", 0, 1000000 }, { "1G", 0, 1000000000 },
		{ "1T", 0, 1000000000000LL }, { "1P", 0, 1000000000000000LL },
		{ "1E", 0, 1000000000000000000LL }, { "2k", 3, 2000000 },
		{ "1000u", 3, 1 }, { "1000000n", 3, 1 }, { "1m", 3, 1 },
		{ "1e3", 0, 1000 }, { "1E3", 0, 1000 }, { "1e+3", 0, 1000 },
		{ "2e-3", 3, 2 }, { "1.5e3", 0, 1500 }, { "15e-1", 3, 1500 },
		{ "0e999999", 0, 0 }, { "-0", 0, 0 }, { "-0.0", 3, 0 }, { "+0m", 3, 0 },
		/* nvidia.com/gpu: "1" is 1000 milli-units */
		{ "1", 3, 1000 }, { "110", 0, 110 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		s64 v = parse_ok(cases[i].s, cases[i].milli);

		cr_assert_eq(v, cases[i].want, "\"%s\" (milli %u): %lld, want %lld",
			     cases[i].s, cases[i].milli, (long long)v,
			     (long long)cases[i].want);
	}
}

Test(quantity, parse_rounds_fractions_up)
{
	static const struct {
		const char *s;
		unsigned int milli;
		s64 want;
	} cases[] = {
		{ "1.0001m", 3, 2 }, { "0.1", 0, 1 }, { "1n", 3, 1 }, { "1u", 3, 1 },
		{ "1001u", 3, 2 }, { "0.0005", 3, 1 }, { "1.5", 0, 2 }, { "1m", 0, 1 },
		{ "0.1Ki", 0, 103 }, { "1.0000000001Ki", 0, 1025 },
		{ "1e-100", 3, 1 }, { "1e-2147483647", 0, 1 }, { "12E-1", 0, 2 },
		{ "0.000000000000000000000000000001Ei", 0, 1 },
		{ "1.00000000000000000000000000000000001", 0, 2 },
		{ "2.000000000000000000000000000000000000", 0, 2 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		s64 v = parse_ok(cases[i].s, cases[i].milli);

		cr_assert_eq(v, cases[i].want, "\"%s\" (milli %u): %lld, want %lld",
			     cases[i].s, cases[i].milli, (long long)v,
			     (long long)cases[i].want);
	}
}

Test(quantity, parse_limits_at_int64_max_minus_one)
{
	cr_assert_eq(parse_ok("9223372036854775806", 0), INT64_MAX - 1);
	cr_assert_eq(parse_ok("9223372036854775.806", 3), INT64_MAX - 1);
	cr_assert_eq(parse_ok("9223372036854775806m", 3), INT64_MAX - 1);
	cr_assert_eq(parse_ok("0000000000000000000000009223372036854775806", 0),
		     INT64_MAX - 1);
	cr_assert_eq(parse_ok("9.223372036854775806e18", 0), INT64_MAX - 1);
	cr_assert_eq(parse_ok("7.99999999999999999Ei", 0), 9223372036854775797LL);
}

Test(quantity, parse_refuses_malformed_text)
{
	static const struct {
		const char *s;
		const char *msg;
	} bad[] = {
		{ "", "invalid quantity \"\": empty" },
		{ " 1", "invalid quantity \" 1\": contains whitespace" },
		{ "1 ", "contains whitespace" },
		{ "1 Gi", "invalid quantity \"1 Gi\": contains whitespace" },
		{ "1\t", "contains whitespace" },
		{ "1\n", "contains whitespace" },
		{ "1.2.3", "invalid quantity \"1.2.3\": more than one decimal point" },
		{ "1..2", "more than one decimal point" },
		{ "1KiB", "invalid quantity \"1KiB\": unknown suffix \"KiB\"" },
		{ "Gi", "invalid quantity \"Gi\": no digits" },
		{ ".", "no digits" },
		{ "+", "no digits" },
		{ "-", "no digits" },
		{ "-Gi", "no digits" },
		{ "--1", "invalid quantity \"--1\": more than one sign" },
		{ "+-1", "more than one sign" },
		{ "0x10", "invalid quantity \"0x10\": unknown suffix \"x10\"" },
		{ "1e", "invalid quantity \"1e\": exponent \"e\" has no digits" },
		{ "1e+", "exponent \"e+\" has no digits" },
		{ "1E-", "exponent \"E-\" has no digits" },
		{ "1e1.5", "unknown suffix \"e1.5\"" },
		{ "1ki", "unknown suffix \"ki\"" },
		{ "1K", "unknown suffix \"K\"" },
		{ "1mi", "unknown suffix \"mi\"" },
		{ "1Gi1", "unknown suffix \"Gi1\"" },
		{ "1GiGi", "unknown suffix \"GiGi\"" },
		{ "1e99999999999", "exponent out of range" },
		{ "1,5", "unknown suffix \",5\"" },
		{ "-1", "invalid quantity \"-1\": negative values are not allowed" },
		{ "-0.001m", "negative values are not allowed" },
		{ "-1e-999", "negative values are not allowed" },
		{ "9223372036854775807", "invalid quantity \"9223372036854775807\": quantity too large" },
		{ "8Ei", "quantity too large" },
		{ "1e19", "quantity too large" },
		{ "1e400", "quantity too large" },
		{ "99999999999999999999999999999999999999999", "quantity too large" },
	};
	struct vs_err err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		s64 v = 42;

		vs_err_clear(&err);
		cr_assert_eq(vs_quantity_parse(bad[i].s, strlen(bad[i].s), 0, &v, &err),
			     -EINVAL, "\"%s\" accepted", bad[i].s);
		cr_assert_eq(v, 42, "\"%s\": output written on error", bad[i].s);
		expect_msg(&err, bad[i].msg, bad[i].s);
	}
	/* the limit is after scaling to the unit */
	vs_err_clear(&err);
	cr_assert_eq(vs_quantity_parse("9223372036854776", 16, 3, &(s64){ 0 }, &err), -EINVAL);
	expect_msg(&err, "quantity too large", "cpu past the limit");
	cr_assert_eq(vs_quantity_parse("9223372036854776", 16, 0, &(s64){ 0 }, NULL), 0);
}

Test(quantity, parse_reads_only_len_bytes)
{
	s64 v;

	cr_assert_eq(vs_quantity_parse("500mXYZ", 4, 3, &v, NULL), 0);
	cr_assert_eq(v, 500);
	cr_assert_eq(vs_quantity_parse("4Gi and more", 3, 0, &v, NULL), 0);
	cr_assert_eq(v, 4LL << 30);
	cr_assert_eq(vs_quantity_parse("12", 1, 0, &v, NULL), 0);
	cr_assert_eq(v, 1);
}

Test(quantity, fmt_canonical_forms)
{
	static const struct {
		s64 v;
		unsigned int milli;
		bool binary;
		const char *want;
	} cases[] = {
		{ 0, 3, false, "0" }, { 0, 0, true, "0" },
		{ 2000, 3, false, "2" }, { 500, 3, false, "500m" },
		{ 1500, 3, false, "1500m" }, { 1, 3, false, "1m" },
		{ 1000000, 3, false, "1000" }, { 1000000, 3, true, "1000" },
		{ -500, 3, false, "-500m" }, { -2000, 3, false, "-2" },
		{ 4LL << 30, 0, true, "4Gi" }, { 1536LL << 20, 0, true, "1536Mi" },
		{ 1024, 0, true, "1Ki" }, { 1024, 0, false, "1024" },
		{ 1000, 0, true, "1k" }, { 1000, 0, false, "1k" },
		{ 1000000000, 0, true, "1G" }, { 1000000000, 0, false, "1G" },
		{ 1023, 0, true, "1023" }, { 110, 0, false, "110" },
		{ 1024000, 0, true, "1000Ki" }, { 1024000, 0, false, "1024k" },
		{ 7LL << 60, 0, true, "7Ei" }, { 5000000000000000000LL, 0, false, "5E" },
		/* 2E is 2^19 * 5^18: binary wins once 1024 divides it */
		{ 2000000000000000000LL, 0, true, "1953125000000000Ki" },
		{ INT64_MAX - 1, 0, true, "9223372036854775806" },
		{ -(4LL << 30), 0, true, "-4Gi" }, { INT64_MIN, 0, true, "-8Ei" },
		{ VS_RES_INF, 0, true, "unlimited" }, { VS_RES_INF, 3, false, "unlimited" },
		{ 5, 6, false, "5e-6" }, { 3000000, 6, false, "3" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int n = vs_quantity_fmt(buf, sizeof(buf), cases[i].v, cases[i].milli,
					cases[i].binary);

		cr_assert_str_eq(buf, cases[i].want, "%lld (milli %u%s): \"%s\"",
				 (long long)cases[i].v, cases[i].milli,
				 cases[i].binary ? ", binary" : "", buf);
		cr_assert_eq(n, (int)strlen(cases[i].want));
	}
}

Test(quantity, fmt_returns_full_length_when_cut)
{
	char buf[4];

	cr_assert_eq(vs_quantity_fmt(buf, sizeof(buf), 1536LL << 20, 0, true), 6);
	cr_assert_str_eq(buf, "153");
	cr_assert_eq(vs_quantity_fmt(NULL, 0, 500, 3, false), 4);
}

/* xorshift64*: a fixed seed, so every run checks the same values */
static u64 rnd_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 0x2545f4914f6cdd1dULL;
}

/* Amounts of every shape the printer distinguishes, all within range. */
static s64 rnd_amount(void)
{
	const u64 max = INT64_MAX - 1;
	u64 v, unit = 1;
	unsigned int j;

	switch (rnd() % 6) {
	case 0:
		v = rnd() % (max + 1);
		break;
	case 1:
		v = rnd() % 100000;
		break;
	case 2:		/* k * 1024^j */
		j = rnd() % 7;
		unit = (u64)1 << (10 * j);
		v = rnd() % (max / unit + 1);
		if (rnd() & 1)
			v %= 5000;
		v *= unit;
		break;
	case 3:		/* k * 1000^j */
		for (j = rnd() % 7; j; j--)
			unit *= 1000;
		v = rnd() % (max / unit + 1);
		if (rnd() & 1)
			v %= 5000;
		v *= unit;
		break;
	case 4:		/* k * 10^j */
		for (j = rnd() % 19; j; j--)
			unit *= 10;
		v = rnd() % 1000 % (max / unit + 1) * unit;
		break;
	default:	/* near the top */
		v = max - rnd() % 100000;
		break;
	}
	return v > max ? (s64)max : (s64)v;
}

Test(quantity, fmt_then_parse_round_trips)
{
	static const struct {
		unsigned int milli;
		bool binary;
	} units[] = { { 0, false }, { 0, true }, { 3, false }, { 3, true }, { 6, false } };
	static const s64 edges[] = { 0, 1, 999, 1000, 1001, 1023, 1024, 1025,
				     INT64_MAX - 1, 1LL << 62, 7LL << 60 };
	struct vs_err err = { 0 };
	char buf[64];
	size_t u, i;

	for (i = 0; i < 20000 + ARRAY_SIZE(edges); i++) {
		s64 v = i < ARRAY_SIZE(edges) ? edges[i] : rnd_amount();

		for (u = 0; u < ARRAY_SIZE(units); u++) {
			s64 back = -1;

			vs_quantity_fmt(buf, sizeof(buf), v, units[u].milli, units[u].binary);
			cr_assert_eq(vs_quantity_parse(buf, strlen(buf), units[u].milli,
						       &back, &err), 0,
				     "%lld printed as \"%s\": %s", (long long)v, buf, err.msg);
			cr_assert_eq(back, v, "%lld (milli %u%s) printed as \"%s\" reads %lld",
				     (long long)v, units[u].milli,
				     units[u].binary ? ", binary" : "", buf, (long long)back);
		}
	}
}

/* ------------------------------------------------------------------ */
/* setting, printing */

Test(res, set_quantity_units_follow_new_resource)
{
	static const struct {
		const char *name, *qty;
	} list[] = {
		/* TestNewResource: NewScaledQuantity(4, -3) is "4m" */
		{ "cpu", "4m" }, { "memory", "2000" }, { S1, "1" },
		{ HP, "2" }, { "ephemeral-storage", "3" }, { "pods", "110" },
	};
	struct vs_err err = { 0 };
	struct vs_res r = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(list); i++)
		cr_assert_eq(vs_res_set_quantity(&tab, &r, list[i].name, strlen(list[i].name),
						 list[i].qty, strlen(list[i].qty), &err),
			     0, "%s: %s", list[i].name, err.msg);
	expect_res(&r, "cpu=4 memory=2000 " S1 "=1000 " HP "=2000 ephemeral-storage=3000 pods=110",
		   "NewResource");
	cr_assert(vs_res_has(&r, VS_RES_PODS));
}

Test(res, set_quantity_takes_lengths)
{
	struct vs_res r = { 0 };

	cr_assert_eq(vs_res_set_quantity(&tab, &r, "nvidia.com/gpu: 2", 14, "2 cards", 1, NULL), 0);
	expect_res(&r, GPU "=2000", "lengths");
}

Test(res, set_quantity_errors_name_resource_and_text)
{
	struct vs_err err = { 0 };
	struct vs_res r = mk("cpu=1000");

	cr_assert_eq(vs_res_set_quantity(&tab, &r, GPU, strlen(GPU), "x", 1, &err), -EINVAL);
	cr_assert_str_eq(err.msg, "resource \"nvidia.com/gpu\": invalid quantity \"x\": no digits");
	vs_err_clear(&err);
	cr_assert_eq(vs_res_set_quantity(&tab, &r, "memory", 6, "-1Gi", 4, &err), -EINVAL);
	cr_assert_str_eq(err.msg,
			 "resource \"memory\": invalid quantity \"-1Gi\": negative values are not allowed");
	vs_err_clear(&err);
	cr_assert_eq(vs_res_set_quantity(&tab, &r, "gpu", 3, "1", 1, &err), -EINVAL);
	expect_msg(&err, "invalid resource name \"gpu\"", "unqualified name");
	vs_err_clear(&err);
	cr_assert_eq(vs_res_set_quantity(&tab, &r, "count/pods", 10, "1", 1, &err), -EINVAL);
	expect_msg(&err, "count/pods", "quota name");
	/* failures leave the vector alone */
	expect_res(&r, "cpu=1000", "after errors");
	cr_assert_not(vs_res_has(&r, dim(GPU)));
}

Test(res, fmt_lists_present_scalars_in_dimension_order)
{
	struct vs_res r = mk("cpu=2000 memory=4294967296");
	char buf[256];
	int n;

	n = vs_res_fmt(&tab, buf, sizeof(buf), &r);
	cr_assert_str_eq(buf, "cpu 2, memory 4Gi");
	cr_assert_eq(n, (int)strlen(buf));

	dim(GPU);
	dim("ephemeral-storage");
	r = mk("cpu=500 memory=1000000000 ephemeral-storage=3000 " GPU "=1000 pods=110");
	vs_res_fmt(&tab, buf, sizeof(buf), &r);
	cr_assert_str_eq(buf, "cpu 500m, memory 1G, pods 110, nvidia.com/gpu 1, ephemeral-storage 3");

	/* a registered but absent scalar is left out; a present zero is shown */
	r = mk("cpu=0 memory=1536 ephemeral-storage=0");
	vs_res_fmt(&tab, buf, sizeof(buf), &r);
	cr_assert_str_eq(buf, "cpu 0, memory 1536, ephemeral-storage 0");

	vs_res_set_infinite(&r);
	vs_res_fmt(&tab, buf, sizeof(buf), &r);
	cr_assert_str_eq(buf, "cpu unlimited, memory unlimited");
}

Test(res, fmt_returns_full_length_when_cut)
{
	struct vs_res r = mk("cpu=2000 memory=4294967296 " GPU "=1000");
	char buf[10];

	cr_assert_eq(vs_res_fmt(&tab, buf, sizeof(buf), &r),
		     (int)strlen("cpu 2, memory 4Gi, nvidia.com/gpu 1"));
	cr_assert_str_eq(buf, "cpu 2, me");
	cr_assert_eq(vs_res_fmt(&tab, NULL, 0, &r),
		     (int)strlen("cpu 2, memory 4Gi, nvidia.com/gpu 1"));
}

/* ------------------------------------------------------------------ */
/* arithmetic */

Test(res, set_infinite_is_unlimited_cpu_memory_without_scalars)
{
	struct vs_res r = mk(GPU "=1000");

	vs_res_set_infinite(&r);
	expect_res(&r, "cpu=inf memory=inf", "InfiniteResource");
	cr_assert_not(vs_res_has(&r, VS_RES_PODS));
}

Test(res, add_sums_and_creates_scalars)
{
	static const struct {
		const char *r, *rr, *want;
	} cases[] = {
		{ "", "cpu=4000 memory=2000 " S1 "=1 " HP "=2",
		  "cpu=4000 memory=2000 " S1 "=1 " HP "=2" },
		{ "cpu=4000 memory=4000 " S1 "=1 " HP "=2",
		  "cpu=4000 memory=2000 " S1 "=4 " HP "=5",
		  "cpu=8000 memory=6000 " S1 "=5 " HP "=7" },
		{ "cpu=4000 memory=4000 " S1 "=1",
		  "cpu=4000 memory=2000 " S1 "=4 " HP "=5",
		  "cpu=8000 memory=6000 " S1 "=5 " HP "=5" },
		/* a zero scalar of rr becomes present in r */
		{ "cpu=1", GPU "=0", "cpu=1 " GPU "=0" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		vs_res_add(&r, &rr);
		expect_res(&r, cases[i].want, cases[i].r);
	}
}

Test(res, add_saturates_at_inf)
{
	struct vs_res r = mk("cpu=inf memory=5 " GPU "=9223372036854775000");
	struct vs_res rr = mk("cpu=7 memory=inf " GPU "=1000");

	vs_res_add(&r, &rr);
	expect_res(&r, "cpu=inf memory=inf " GPU "=inf", "saturation");
	vs_res_add(&r, &r);
	expect_res(&r, "cpu=inf memory=inf " GPU "=inf", "inf + inf");

	r = mk("cpu=9223372036854775806 memory=1");
	rr = mk("cpu=1 memory=2");
	vs_res_add(&r, &rr);
	expect_res(&r, "cpu=inf memory=3", "overflow by one");
}

Test(res, sub_takes_rr_away)
{
	static const struct {
		const char *r, *rr, *want;
	} cases[] = {
		{ "cpu=4000 memory=2000 " S1 "=1 " HP "=2", "",
		  "cpu=4000 memory=2000 " S1 "=1 " HP "=2" },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000",
		  "cpu=3000 memory=2000 " S1 "=500 " HP "=1000",
		  "cpu=1000 memory=2000 " S1 "=500 " HP "=1000" },
		/* may go negative: the caller checks first */
		{ "cpu=1000 memory=0", "cpu=3000 memory=1", "cpu=-2000 memory=-1" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		vs_res_sub(&r, &rr);
		expect_res(&r, cases[i].want, cases[i].r);
	}
}

Test(res, sub_without_scalars_leaves_scalars_alone)
{
	/* Volcano's sub returns before the scalars when r's map is nil */
	struct vs_res r = mk("cpu=4000 memory=4000");
	struct vs_res rr = mk("cpu=1000 memory=1000 " GPU "=1000");

	vs_res_sub(&r, &rr);
	expect_res(&r, "cpu=3000 memory=3000", "nil scalar map");
}

Test(res, sub_with_scalars_writes_every_scalar_of_rr)
{
	/* "r.ScalarResources[name] -= q" creates the entry r lacked */
	struct vs_res r = mk("cpu=4000 memory=4000 pods=110");
	struct vs_res rr = mk("cpu=1000 memory=1000 pods=1 " GPU "=0 " S1 "=5");

	vs_res_sub(&r, &rr);
	expect_res(&r, "cpu=3000 memory=3000 pods=109 " GPU "=0 " S1 "=-5", "map write");
}

Test(res, sub_from_inf_stays_inf)
{
	struct vs_res r = mk("cpu=inf memory=inf " GPU "=inf " S1 "=inf");
	struct vs_res rr = mk("cpu=1000 memory=inf " GPU "=9223372036854775806 " S1 "=0");

	vs_res_sub(&r, &rr);
	/* INF - INF cancels as MaxFloat64 - MaxFloat64 does */
	expect_res(&r, "cpu=inf memory=0 " GPU "=inf " S1 "=inf", "INF - x");

	r = mk("cpu=5 memory=-9223372036854775807");
	rr = mk("cpu=inf memory=10");
	vs_res_sub(&r, &rr);
	expect_res(&r, "cpu=-9223372036854775807 memory=-9223372036854775807", "x - INF");
}

Test(res, set_max_takes_larger_and_copies_missing)
{
	static const struct {
		const char *r, *rr, *want;
	} cases[] = {
		{ "", "cpu=4000 memory=2000 " S1 "=1 " HP "=2",
		  "cpu=4000 memory=2000 " S1 "=1 " HP "=2" },
		{ "cpu=4000 memory=4000 " S1 "=1 " HP "=2",
		  "cpu=4000 memory=2000 " S1 "=4 " HP "=5",
		  "cpu=4000 memory=4000 " S1 "=4 " HP "=5" },
		/* a scalar r lacks is copied even when it is below zero */
		{ "cpu=1 " S1 "=3", S1 "=1 " GPU "=-5", "cpu=1 " S1 "=3 " GPU "=-5" },
		{ "cpu=1", GPU "=0", "cpu=1 " GPU "=0" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		vs_res_set_max(&r, &rr);
		expect_res(&r, cases[i].want, cases[i].r);
	}
}

Test(res, min_dimension_with_zero_default)
{
	static const struct {
		const char *r, *rr, *want;
	} cases[] = {
		{ "cpu=4000 memory=2000 " S1 "=1 " HP "=2",
		  "cpu=3000 memory=2000 " S1 "=0 " HP "=0",
		  "cpu=3000 memory=2000 " S1 "=0 " HP "=0" },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000",
		  "cpu=5000 memory=2000 " S1 "=0 " HP "=3000",
		  "cpu=4000 memory=2000 " S1 "=0 " HP "=2000" },
		{ "cpu=4000 memory=2000 " S1 "=1 " HP "=2",
		  "cpu=3000 memory=2000 " S1 "=0",
		  "cpu=3000 memory=2000 " S1 "=0 " HP "=0" },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000",
		  "cpu=inf memory=2000",
		  "cpu=4000 memory=2000 " S1 "=0 " HP "=0" },
		/* rr's extra scalars are not added */
		{ "cpu=1", "cpu=2 " GPU "=5", "cpu=1" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		vs_res_min_dimension(&r, &rr, VS_DIM_ZERO);
		expect_res(&r, cases[i].want, cases[i].r);
	}
}

Test(res, min_dimension_with_infinity_default)
{
	static const struct {
		const char *r, *rr, *want;
	} cases[] = {
		{ "cpu=4000 memory=2000 " S1 "=1 " HP "=2",
		  "cpu=3000 memory=2000 " S1 "=0",
		  "cpu=3000 memory=2000 " S1 "=0 " HP "=2" },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000",
		  "cpu=inf memory=2000",
		  "cpu=4000 memory=2000 " S1 "=1000 " HP "=2000" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		vs_res_min_dimension(&r, &rr, VS_DIM_INFINITY);
		expect_res(&r, cases[i].want, cases[i].r);
	}
}

Test(res, multi_truncates_toward_zero)
{
	struct vs_res r = mk("cpu=1000 memory=3 " GPU "=1000 " S1 "=10");

	vs_res_multi(&r, 0.5);
	expect_res(&r, "cpu=500 memory=1 " GPU "=500 " S1 "=5", "halved");

	/* in float64 as Volcano: 10 * 0.3 is 3.0000000000000004 */
	r = mk("cpu=10 memory=-3");
	vs_res_multi(&r, 0.3);
	expect_res(&r, "cpu=3 memory=0", "0.3");

	r = mk("cpu=inf memory=4611686018427387904 " GPU "=2");
	vs_res_multi(&r, 4);
	expect_res(&r, "cpu=inf memory=inf " GPU "=8", "saturation");

	r = mk("cpu=inf memory=123");
	vs_res_multi(&r, 0);
	expect_res(&r, "cpu=inf memory=0", "inf * 0 stays inf");
}

/* ------------------------------------------------------------------ */
/* predicates */

Test(res, is_empty_ignores_pods)
{
	struct vs_res r = { 0 };

	cr_assert(vs_res_is_empty(&r));
	r = mk("pods=1");
	cr_assert(vs_res_is_empty(&r), "pods alone");
	r = mk("cpu=0 memory=0 " GPU "=0 pods=3");
	cr_assert(vs_res_is_empty(&r), "zero scalars");
	r = mk("cpu=-5 memory=-1 " GPU "=-1");
	cr_assert(vs_res_is_empty(&r), "v < 0.1 holds below zero");
	r = mk("cpu=1");
	cr_assert_not(vs_res_is_empty(&r));
	r = mk("memory=1");
	cr_assert_not(vs_res_is_empty(&r));
	r = mk(GPU "=1");
	cr_assert_not(vs_res_is_empty(&r));
}

Test(res, is_zero_per_dimension)
{
	struct vs_res r = { 0 };

	cr_assert(vs_res_is_zero(&r, VS_RES_CPU));
	r = mk("cpu=4000 memory=4000 " S1 "=4 " HP "=5");
	cr_assert_not(vs_res_is_zero(&r, VS_RES_CPU));
	r = mk("cpu=4000 memory=4000 " S1 "=0 " HP "=5");
	cr_assert(vs_res_is_zero(&r, dim(S1)));
	cr_assert_not(vs_res_is_zero(&r, dim(HP)));
	/* absent: Volcano asserts, then reads the map's zero */
	cr_assert(vs_res_is_zero(&r, dim(GPU)));
	r = mk("memory=-1");
	cr_assert(vs_res_is_zero(&r, VS_RES_MEMORY));
}

Test(res, names_are_dimensions_with_positive_amounts)
{
	struct vs_res r = mk("cpu=1 memory=0 " GPU "=0 " S1 "=-1 " HP "=2 pods=3");

	cr_assert_eq(vs_res_names(&r), mask("cpu " HP " pods"));
	r = mk("cpu=0 memory=5");
	cr_assert_eq(vs_res_names(&r), mask("memory"));
	vs_res_set_infinite(&r);
	cr_assert_eq(vs_res_names(&r), VS_RES_ALWAYS);
}

struct cmp_case {
	const char *r, *rr;
	bool want;
};

static void check_cmp(bool (*fn)(const struct vs_res *, const struct vs_res *,
				 enum vs_dim_default),
		      const char *fname, enum vs_dim_default def,
		      const struct cmp_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		cr_assert_eq(fn(&r, &rr, def), cases[i].want, "%s(<%s>, <%s>, %s) is not %d",
			     fname, cases[i].r, cases[i].rr,
			     def == VS_DIM_ZERO ? "Zero" : "Infinity", cases[i].want);
	}
}

#define CHECK_CMP(fn, def, cases) check_cmp(fn, #fn, def, cases, ARRAY_SIZE(cases))

#define R_4_2_1_2	"cpu=4000 memory=2000 " S1 "=1000 " HP "=2000"
#define R_8_8_4_5	"cpu=8000 memory=8000 " S1 "=4000 " HP "=5000"
#define R_2_2_1_2	"cpu=2000 memory=2000 " S1 "=1000 " HP "=2000"

Test(res, equal_walks_r_scalars_only)
{
	static const struct cmp_case cases[] = {
		{ "", "", true },
		{ "cpu=2000 memory=2000", "cpu=2000 memory=2000 " S1 "=0", true },
		{ "cpu=2000 memory=2000 " HP "=2000", "cpu=2000 memory=2000 " HP "=2000", true },
		{ "", "cpu=2000 memory=4000 " S1 "=1000 " HP "=2000", false },
		/* a scalar only rr has is never looked at */
		{ "cpu=1", "cpu=1 " GPU "=5", true },
		/* one only r has is compared with zero */
		{ "cpu=1 " GPU "=5", "cpu=1", false },
		{ "cpu=1 " GPU "=0", "cpu=1", true },
		{ "cpu=1 memory=2", "cpu=1 memory=3", false },
		{ "cpu=inf", "cpu=inf", true },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);

		cr_assert_eq(vs_res_equal(&r, &rr), cases[i].want, "Equal(<%s>, <%s>)",
			     cases[i].r, cases[i].rr);
	}
}

Test(res, less_with_zero_default)
{
	static const struct cmp_case cases[] = {
		{ "", "", false },
		{ "", R_4_2_1_2, true },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000", R_8_8_4_5, true },
		{ "cpu=4000 memory=4000 " S1 "=5000 " HP "=2000", R_8_8_4_5, false },
		{ "cpu=9000 memory=4000 " S1 "=1000 " HP "=2000", R_8_8_4_5, false },
		/* r's scalar absent from rr is compared with zero */
		{ "cpu=1 memory=1 " GPU "=0", "cpu=2 memory=2", false },
		{ "cpu=1 memory=1 " GPU "=-1", "cpu=2 memory=2", true },
		/* rr's scalar absent from r is not looked at */
		{ "cpu=1 memory=1", "cpu=2 memory=2 " GPU "=0", true },
	};

	CHECK_CMP(vs_res_less, VS_DIM_ZERO, cases);
}

Test(res, less_with_infinity_default)
{
	static const struct cmp_case cases[] = {
		{ "cpu=1000 memory=1000 " S1 "=1000 " HP "=2000",
		  "cpu=2000 memory=2000 " HP "=3000", true },
		{ "cpu=1000 memory=1000 " HP "=1000",
		  "cpu=2000 memory=2000 " S1 "=1000 " HP "=2000", false },
		{ "cpu=1000 memory=1000 " HP "=2000",
		  "cpu=2000 memory=2000 " S1 "=1000 " HP "=2000", false },
		/* even a zero scalar of rr that r lacks fails it */
		{ "cpu=1 memory=1", "cpu=2 memory=2 " GPU "=0", false },
		{ "cpu=1 memory=1 " GPU "=5", "cpu=2 memory=2", true },
	};

	CHECK_CMP(vs_res_less, VS_DIM_INFINITY, cases);
}

Test(res, less_equal_with_zero_default)
{
	static const struct cmp_case cases[] = {
		{ "", "", true },
		{ "", R_4_2_1_2, true },
		{ R_4_2_1_2, "", false },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000", R_8_8_4_5, true },
		{ "cpu=4000 memory=8000 " S1 "=1000 " HP "=2000", R_8_8_4_5, true },
		{ "cpu=4000 memory=4000 " S1 "=4000 " HP "=2000", R_8_8_4_5, true },
		{ "cpu=4000 memory=4000 " S1 "=5000 " HP "=2000", R_8_8_4_5, false },
		{ "cpu=9000 memory=4000 " S1 "=1000 " HP "=2000", R_8_8_4_5, false },
		/* absent on either side counts as zero */
		{ "cpu=1 " GPU "=0", "cpu=1", true },
		{ "cpu=1 " GPU "=1", "cpu=1", false },
		{ "cpu=1", "cpu=1 " GPU "=0", true },
		{ "cpu=inf memory=inf", "cpu=inf memory=inf", true },
	};

	CHECK_CMP(vs_res_less_equal, VS_DIM_ZERO, cases);
}

Test(res, less_equal_with_infinity_default)
{
	static const struct cmp_case cases[] = {
		{ "", "", true },
		{ "", R_4_2_1_2, false },
		{ R_4_2_1_2, "", false },
		{ "cpu=4000 memory=2000", R_4_2_1_2, false },
		{ R_4_2_1_2, "cpu=4000 memory=2000", true },
		/* rr having a scalar r lacks fails, whatever its value */
		{ "cpu=1", "cpu=1 " GPU "=0", false },
		{ "cpu=1 " GPU "=0", "cpu=1 " GPU "=0", true },
	};

	CHECK_CMP(vs_res_less_equal, VS_DIM_INFINITY, cases);
}

Test(res, less_partly_with_zero_default)
{
	static const struct cmp_case cases[] = {
		{ "", "", false },
		{ "", R_2_2_1_2, true },
		{ R_2_2_1_2, "", false },
		{ R_2_2_1_2, "cpu=4000 memory=2000 " S1 "=1000 " HP "=2000", true },
		{ R_2_2_1_2, "cpu=2000 memory=4000 " S1 "=1000 " HP "=2000", true },
		{ R_2_2_1_2, "cpu=2000 memory=2000 " S1 "=2000 " HP "=2000", true },
		{ "cpu=2000 memory=2000 " HP "=2000", R_2_2_1_2, true },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000", R_2_2_1_2, false },
		{ R_2_2_1_2, "cpu=2000 memory=2000 " HP "=2000", false },
		/* a scalar only rr has makes r less, even at zero */
		{ "cpu=2 memory=2", "cpu=1 memory=1 " GPU "=0", true },
		{ "cpu=2 memory=2 " GPU "=-1", "cpu=1 memory=1", true },
	};

	CHECK_CMP(vs_res_less_partly, VS_DIM_ZERO, cases);
}

Test(res, less_partly_with_infinity_default)
{
	static const struct cmp_case cases[] = {
		{ "cpu=2000 memory=2000 " HP "=2000", R_2_2_1_2, false },
		{ R_2_2_1_2, "cpu=2000 memory=2000 " HP "=2000", true },
		/* r's scalar absent from rr is below unlimited */
		{ "cpu=2 memory=2 " GPU "=inf", "cpu=1 memory=1", true },
	};

	CHECK_CMP(vs_res_less_partly, VS_DIM_INFINITY, cases);
}

Test(res, less_equal_partly_with_zero_default)
{
	static const struct cmp_case cases[] = {
		{ "", "", true },
		{ "", R_2_2_1_2, true },
		{ R_2_2_1_2, "", false },
		{ R_2_2_1_2, "cpu=4000 memory=2000 " S1 "=1000 " HP "=2000", true },
		{ R_2_2_1_2, "cpu=2000 memory=4000 " S1 "=1000 " HP "=2000", true },
		{ R_2_2_1_2, "cpu=2000 memory=2000 " S1 "=2000 " HP "=2000", true },
		{ "cpu=2000 memory=2000 " HP "=2000", R_2_2_1_2, true },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000", R_2_2_1_2, true },
		{ R_2_2_1_2, "cpu=2000 memory=2000 " HP "=2000", true },
		{ "cpu=2 memory=2 " GPU "=1", "cpu=1 memory=1", false },
		{ "cpu=2 memory=2 " GPU "=0", "cpu=1 memory=1", true },
		{ "cpu=2 memory=2", "cpu=1 memory=1 " GPU "=0", true },
	};

	CHECK_CMP(vs_res_less_equal_partly, VS_DIM_ZERO, cases);
}

Test(res, less_equal_partly_with_infinity_default)
{
	static const struct cmp_case cases[] = {
		{ "cpu=2000 memory=2000 " HP "=2000", R_2_2_1_2, true },
		{ R_2_2_1_2, "cpu=2000 memory=2000 " HP "=2000", true },
		{ "cpu=2 memory=2 " GPU "=5", "cpu=1 memory=1", true },
		/* rr's extra scalar does not help with Infinity */
		{ "cpu=2 memory=2", "cpu=1 memory=1 " GPU "=5", false },
	};

	CHECK_CMP(vs_res_less_equal_partly, VS_DIM_INFINITY, cases);
}

struct mask_case {
	const char *r, *rr, *want;
};

static void check_exceeding(enum vs_dim_default def, const struct mask_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr);
		vs_resmask_t got = vs_res_exceeding(&r, &rr, def);

		cr_assert_eq(got, mask(cases[i].want), "exceeding(<%s>, <%s>) = %#x, want {%s}",
			     cases[i].r, cases[i].rr, got, cases[i].want);
		/* GreaterPartly is its negation; LessEqual agrees with Zero */
		if (def == VS_DIM_ZERO)
			cr_assert_eq(!got, vs_res_less_equal(&r, &rr, def));
	}
}

Test(res, exceeding_with_zero_default)
{
	static const struct mask_case cases[] = {
		{ "", "", "" },
		{ "", R_4_2_1_2, "" },
		{ R_4_2_1_2, "", "cpu memory " S1 " " HP },
		{ "cpu=4000 memory=4000 " S1 "=1000 " HP "=2000", R_8_8_4_5, "" },
		{ "cpu=4000 memory=8000 " S1 "=1000 " HP "=2000", R_8_8_4_5, "" },
		{ "cpu=4000 memory=4000 " S1 "=4000 " HP "=2000", R_8_8_4_5, "" },
		{ "cpu=4000 memory=4000 " S1 "=5000 " HP "=2000", R_8_8_4_5, S1 },
		{ "cpu=9000 memory=4000 " S1 "=1000 " HP "=2000", R_8_8_4_5, "cpu" },
		{ "pods=2", "pods=1", "pods" },
	};

	check_exceeding(VS_DIM_ZERO, cases, ARRAY_SIZE(cases));
}

Test(res, exceeding_with_infinity_default)
{
	static const struct mask_case cases[] = {
		{ "", "", "" },
		{ "", R_4_2_1_2, "" },
		{ R_4_2_1_2, "", "cpu memory" },
		/* GreaterPartly(parent, Infinity) cases */
		{ "vendor.com/gpu-x=0", "", "" },
		{ "vendor.com/gpu-x=8", "", "" },
		{ "vendor.com/gpu-x=8", "vendor.com/gpu-x=4", "vendor.com/gpu-x" },
		{ "cpu=8000", "cpu=4000", "cpu" },
		/* unlike LessEqual, a scalar only rr has does not count */
		{ "cpu=1", "cpu=1 " GPU "=0", "" },
	};

	check_exceeding(VS_DIM_INFINITY, cases, ARRAY_SIZE(cases));
}

Test(res, exceeding_dim_only_over_requested_dimensions)
{
	static const struct {
		const char *r, *rr, *req, *want;
	} cases[] = {
		{ "cpu=5000", "cpu=4000 memory=2000 " S1 "=1000", "cpu=1000", "cpu" },
		{ "cpu=3000 memory=3000", "cpu=4000 memory=2000", "memory=1000", "memory" },
		{ "cpu=4 memory=4000", "", "", "" },
		{ "cpu=4 memory=4000 " GPU "=1", "cpu=8 memory=8000",
		  "cpu=4 memory=2000 " GPU "=1", GPU },
		{ "cpu=10 memory=4000 " GPU "=1", "cpu=100 memory=8000 nvidia.com/A100=1",
		  "cpu=10 memory=4000 " GPU "=0 nvidia.com/A100=1 example.com/scalar=1", "" },
		{ "cpu=110 memory=4000 " GPU "=1 nvidia.com/A100=1 example.com/scalar=1",
		  "cpu=100 memory=8000 nvidia.com/A100=1 example.com/scalar=1",
		  "memory=4000 " GPU "=0 nvidia.com/A100=1 example.com/scalar=1", "" },
		/* pods is never compared */
		{ "cpu=1 pods=5", "cpu=1 pods=1", "cpu=1 pods=1", "" },
		/* r without scalars fits whatever rr's scalars are */
		{ "cpu=1", "cpu=1 " GPU "=-1", GPU "=1", "" },
		{ "cpu=1 pods=1", "cpu=1 " GPU "=-1", GPU "=1", GPU },
		/* strict: equal amounts fit */
		{ "cpu=5 " GPU "=2", "cpu=5 " GPU "=2", "cpu=1 " GPU "=1", "" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr), req = mk(cases[i].req);
		vs_resmask_t got = vs_res_exceeding_dim(&r, &rr, &req);

		cr_assert_eq(got, mask(cases[i].want),
			     "exceeding_dim(<%s>, <%s>, <%s>) = %#x, want {%s}",
			     cases[i].r, cases[i].rr, cases[i].req, got, cases[i].want);
	}
}

Test(res, exceeding_dim_null_arguments)
{
	struct vs_res empty = { 0 };
	struct vs_res r = mk("cpu=5000 memory=4000 " GPU "=0");

	/* req nil: LessEqualWithResourcesName(rr, Zero) */
	cr_assert_eq(vs_res_exceeding_dim(&empty, &empty, NULL), 0);
	cr_assert_eq(vs_res_exceeding_dim(&r, &empty, NULL), mask("cpu memory"));
	/* r nil fits; rr nil: every resource r holds */
	cr_assert_eq(vs_res_exceeding_dim(NULL, &empty, &r), 0);
	cr_assert_eq(vs_res_exceeding_dim(&r, NULL, &r), mask("cpu memory"));
}

struct diff_case {
	const char *r, *rr, *inc, *dec;
};

static void check_diff(enum vs_dim_default def, const struct diff_case *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct vs_res r = mk(cases[i].r), rr = mk(cases[i].rr), inc, dec;

		memset(&inc, 0xa5, sizeof(inc));
		memset(&dec, 0xa5, sizeof(dec));
		vs_res_diff(&r, &rr, def, &inc, &dec);
		expect_res(&inc, cases[i].inc, cases[i].r);
		expect_res(&dec, cases[i].dec, cases[i].r);
	}
}

Test(res, diff_with_zero_default)
{
	static const struct diff_case cases[] = {
		{ "", "", "", "" },
		{ "cpu=1000 memory=2000", "", "cpu=1000 memory=2000", "" },
		{ "", "cpu=1000 memory=2000", "", "cpu=1000 memory=2000" },
		{ "cpu=1000 memory=2000 " S1 "=1000", "cpu=2000 memory=1000",
		  "memory=1000 " S1 "=1000", "cpu=1000" },
		{ "cpu=2000 memory=1000", "cpu=1000 memory=2000 " S1 "=1000",
		  "cpu=1000", "memory=1000 " S1 "=1000" },
		{ "cpu=1000 memory=2000 " S1 "=3000", "cpu=2000 memory=1000 " S1 "=1000",
		  "memory=1000 " S1 "=2000", "cpu=1000" },
		/* a tie lands in dec, present at zero */
		{ GPU "=5", GPU "=5", "", GPU "=0" },
	};

	check_diff(VS_DIM_ZERO, cases, ARRAY_SIZE(cases));
}

Test(res, diff_with_infinity_default_marks_minus_one)
{
	static const struct diff_case cases[] = {
		{ "cpu=1000 memory=2000 " S1 "=1000", "cpu=2000 memory=1000",
		  "memory=1000", "cpu=1000 " S1 "=-1" },
		{ "cpu=2000 memory=1000", "cpu=1000 memory=2000 " S1 "=1000",
		  "cpu=1000 " S1 "=-1", "memory=1000" },
		{ "cpu=inf " GPU "=3", "cpu=5 " GPU "=1", "cpu=inf " GPU "=2", "" },
	};

	check_diff(VS_DIM_INFINITY, cases, ARRAY_SIZE(cases));
}

Test(res, diff_output_may_alias_input)
{
	struct vs_res r = mk("cpu=1000 memory=2000 " S1 "=3000");
	struct vs_res rr = mk("cpu=2000 memory=1000 " S1 "=1000");

	vs_res_diff(&r, &rr, VS_DIM_ZERO, &r, &rr);
	expect_res(&r, "memory=1000 " S1 "=2000", "inc over r");
	expect_res(&rr, "cpu=1000", "dec over rr");
}

Test(res, share_follows_helpers_share)
{
	cr_assert(vs_share(0, 0) == 0);
	cr_assert(vs_share(5, 0) == 1);
	cr_assert(vs_share(1, 4) == 0.25);
	cr_assert(vs_share(6, 4) == 1.5);
}

Test(res, dominant_share_over_dimensions_total_holds)
{
	struct vs_res alloc = mk("cpu=2000 memory=1073741824");
	struct vs_res total = mk("cpu=4000 memory=4294967296");
	double s;

	cr_assert(vs_res_dominant_share(&alloc, &total) == 0.5);

	/* pods is one of total's ResourceNames too */
	alloc = mk("cpu=1000 pods=15");
	total = mk("cpu=4000 memory=100 pods=20");
	s = vs_res_dominant_share(&alloc, &total);
	cr_assert(s == 0.75, "share %f", s);

	/* a dimension the total lacks does not count, even where x/0 would be 1 */
	alloc = mk("cpu=1000 memory=5 " GPU "=1000");
	total = mk("cpu=4000 memory=0 " GPU "=0");
	s = vs_res_dominant_share(&alloc, &total);
	cr_assert(s == 0.25, "share %f", s);

	/* an absent scalar of alloc is zero */
	alloc = mk("cpu=0");
	total = mk(GPU "=2000");
	cr_assert(vs_res_dominant_share(&alloc, &total) == 0);

	alloc = mk("cpu=1");
	total = mk("");
	cr_assert(vs_res_dominant_share(&alloc, &total) == 0);
}
