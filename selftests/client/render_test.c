// SPDX-License-Identifier: Apache-2.0
/*
 * libvsnl's renderer says what the core would: enums by the names the core
 * gives them, quantities in the canonical form the core prints, read back
 * as the core parses them. The renderer's enum names come from the
 * protocol's spec (display, made into the codec's tables: userspace
 * includes no kernel/ header); these tests hold them to the core's, value
 * by value, and one past the last is "?".
 */
#include <stdint.h>
#include <string.h>
#include <criterion/criterion.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include "core/affinity.h"
#include "core/job.h"
#include "core/labels.h"
#include "core/queue.h"
#include "core/res.h"
#include "core/task.h"
#include "core/vjob.h"
#include "lib/codec_gen.h"
#include "lib/render.h"

static unsigned char buf[4096];

/* A message holding one nest of attribute @type with the u32 @v at @inner. */
static struct nlattr *nest_u32(u16 type, u16 inner, u32 v)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlattr *nest;

	mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN);
	nest = mnl_attr_nest_start(nlh, type);
	mnl_attr_put_u32(nlh, inner, v);
	mnl_attr_nest_end(nlh, nest);
	return nest;
}

static void expect_named(const struct vsnl_codec_set *set, u16 inner, const char *key,
			 unsigned int nr, const char *(*core)(unsigned int))
{
	for (unsigned int v = 0; v <= nr; v++) {
		json_t *obj = vsnl_render_nest(nest_u32(1, inner, v), set);
		const char *got = json_string_value(json_object_get(obj, key));

		cr_assert_not_null(got, "%s.%s = %u: not rendered as a name", set->name, key, v);
		cr_expect_str_eq(got, v < nr ? core(v) : "?", "%s.%s = %u", set->name, key, v);
		json_decref(obj);
	}
}

static const char *taint_effect(unsigned int v) { return vs_taint_effect_name(v); }
static const char *tol_op(unsigned int v) { return vs_toleration_op_name(v); }
static const char *sel_op(unsigned int v) { return vs_sel_op_name(v); }
static const char *queue_state(unsigned int v) { return vs_queue_state_name(v); }
static const char *pg_phase(unsigned int v) { return vs_pg_phase_name(v); }
static const char *cond_type(unsigned int v) { return vs_pg_cond_type_name(v); }
static const char *task_status(unsigned int v) { return vs_task_status_name(v); }
static const char *preemption(unsigned int v) { return vs_preemption_policy_name(v); }
static const char *vjob_phase(unsigned int v) { return vs_vjob_phase_name(v); }

Test(vsnl_render, every_enum_value_renders_as_the_core_names_it)
{
	expect_named(&vsnl_codec_taint, VS_TAINT_A_EFFECT, "effect", VS_TAINT_EFFECT_ANY + 1,
		     taint_effect);
	expect_named(&vsnl_codec_toleration, VS_TOL_A_EFFECT, "effect", VS_TAINT_EFFECT_ANY + 1,
		     taint_effect);
	expect_named(&vsnl_codec_toleration, VS_TOL_A_OPERATOR, "operator",
		     VS_TOLERATION_OP_EXISTS + 1, tol_op);
	expect_named(&vsnl_codec_selreq, VS_SELREQ_A_OP, "operator", VS_SEL_OP_LT + 1, sel_op);
	expect_named(&vsnl_codec_queue, VS_QUEUE_A_STATE, "state", VS_QUEUE_STATE_UNKNOWN + 1,
		     queue_state);
	expect_named(&vsnl_codec_podgroup, VS_PG_A_PHASE, "phase", VS_PG_PHASE_COMPLETED + 1,
		     pg_phase);
	expect_named(&vsnl_codec_cond, VS_COND_A_TYPE, "type", VS_PG_COND_TYPE_SCHEDULED + 1,
		     cond_type);
	expect_named(&vsnl_codec_task_spec, VS_TASK_A_STATUS, "status",
		     VS_TASK_STATUS_UNKNOWN + 1, task_status);
	expect_named(&vsnl_codec_task_spec, VS_TASK_A_PREEMPTION_POLICY, "preemptionPolicy",
		     VS_PREEMPTION_NEVER + 1, preemption);
	expect_named(&vsnl_codec_prioclass, VS_PC_A_PREEMPTION_POLICY, "preemptionPolicy",
		     VS_PREEMPTION_NEVER + 1, preemption);
	expect_named(&vsnl_codec_vjob, VS_VJOB_A_PHASE, "phase", VS_VJOB_PHASE_FAILED + 1,
		     vjob_phase);
	expect_named(&vsnl_codec_vjob_state, VS_VJSTATE_A_PHASE, "phase",
		     VS_VJOB_PHASE_FAILED + 1, vjob_phase);
}

Test(vsnl_render, quantities_render_and_read_back_as_the_core_does)
{
	static const s64 values[] = {
		0, 1, 7, 500, 999, 1000, 1001, 1500, 1024, 2048, 3000, 1000000, 1048576,
		1536ll << 20, 4ll << 30, 5ll << 40, 1000000000, 123456789, 7ll << 60,
		INT64_MAX - 1, INT64_MAX,
	};
	static const struct {
		const char *dim;
		u16 type;
		unsigned int milli;
		bool binary;
	} dims[] = {
		{ "cpu", VS_RES_A_CPU, 3, false },
		{ "memory", VS_RES_A_MEMORY, 0, true },
		{ "pods", VS_RES_A_PODS, 0, false },
	};

	for (size_t d = 0; d < ARRAY_SIZE(dims); d++) {
		for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
			struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
			struct nlattr *nest;
			char want[32];
			const char *got;
			struct vs_err err = { { 0 } };
			json_t *obj;
			s64 back;

			mnl_nlmsg_put_extra_header(nlh, GENL_HDRLEN);
			nest = mnl_attr_nest_start(nlh, 1);
			mnl_attr_put_u64(nlh, dims[d].type, (u64)values[i]);
			mnl_attr_nest_end(nlh, nest);
			obj = vsnl_render_nest(nest, &vsnl_codec_res);
			got = json_string_value(json_object_get(obj, dims[d].dim));
			vs_quantity_fmt(want, sizeof(want), values[i], dims[d].milli,
					dims[d].binary);
			cr_assert_not_null(got);
			cr_expect_str_eq(got, want, "%s %lld", dims[d].dim, (long long)values[i]);
			if (vs_quantity_parse(got, strlen(got), dims[d].milli, &back, &err))
				back = 0;
			cr_expect_eq(vsnl_quantity(obj, dims[d].dim), (double)back, "%s %s",
				     dims[d].dim, got);
			json_decref(obj);
		}
	}
}

/* vskube writes quantities into the API server's objects with it (kstatus.c). */
Test(vsnl_render, the_quantity_writer_writes_what_the_core_writes)
{
	static const s64 values[] = {
		0, 1, -1, 7, 500, -1500, 999, 1000, 1001, 1024, 2048, 3000, 1000000, 1048576,
		1536ll << 20, 4ll << 30, 5ll << 40, 1000000000, 123456789, 7ll << 60,
		INT64_MIN + 1, INT64_MAX - 1, INT64_MAX,
	};
	static const struct {
		unsigned int milli;
		bool binary;
	} units[] = { { 3, false }, { 0, true }, { 0, false } };

	for (size_t u = 0; u < ARRAY_SIZE(units); u++) {
		for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
			char mine[32], core[32];
			int n = vsnl_quantity_fmt(mine, sizeof(mine), values[i], units[u].milli,
						  units[u].binary);

			cr_expect_eq(n, vs_quantity_fmt(core, sizeof(core), values[i],
							units[u].milli, units[u].binary));
			cr_expect_str_eq(mine, core, "milli %u binary %d: %lld", units[u].milli,
					 units[u].binary, (long long)values[i]);
		}
	}
}
