// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for node classes (core/nodeclass.h): nodes that differ only in
 * their hostname share a class; a label, a taint, a cordon or readiness
 * makes another; updates move a node between classes and the last node
 * out frees its class; ids are reused and the generation says so; a
 * failed update leaves the node in its class.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/cluster.h"

static struct vs_cluster cl;

static void setup(void)
{
	cr_assert_eq(vs_cluster_init(&cl), 0);
}

static void teardown(void)
{
	vs_cluster_destroy(&cl);
}

TestSuite(nodeclass, .init = setup, .fini = teardown);

static void check_all(void)
{
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_cluster_check(&cl, &e), 0, "invariant broken: %s", e.msg);
}

/* A node of zone @zone, tainted with @taint (or not), cordoned, ready. */
struct look {
	const char *zone;
	const char *taint;
	bool unschedulable;
	bool ready;
};

static void spec_of(struct vs_node_spec *spec, const char *name, const struct look *l,
		    struct vs_kv_spec labels[2], struct vs_taint_spec *taint)
{
	vs_node_spec_init(spec, name);
	vs_res_set(&spec->allocatable, VS_RES_CPU, 4000);
	vs_res_set(&spec->allocatable, VS_RES_MEMORY, 8LL << 30);
	vs_res_set(&spec->allocatable, VS_RES_PODS, 110);
	labels[0] = (struct vs_kv_spec){ VS_HOSTNAME_LABEL, name };
	labels[1] = (struct vs_kv_spec){ "topology.kubernetes.io/zone", l->zone };
	spec->labels = labels;
	spec->nr_labels = 2;
	if (l->taint) {
		*taint = (struct vs_taint_spec){ l->taint, "true", VS_TAINT_NO_SCHEDULE };
		spec->taints = taint;
		spec->nr_taints = 1;
	}
	spec->unschedulable = l->unschedulable;
	spec->ready = l->ready;
}

static struct vs_node *add(const char *name, struct look l)
{
	struct vs_err e = { { 0 } };
	struct vs_kv_spec labels[2];
	struct vs_taint_spec taint;
	struct vs_node_spec spec;
	struct vs_node *node;

	spec_of(&spec, name, &l, labels, &taint);
	cr_assert_eq(vs_node_add(&cl, &spec, &node, &e), 0, "%s", e.msg);
	check_all();
	return node;
}

static void update(struct vs_node *node, struct look l)
{
	struct vs_err e = { { 0 } };
	struct vs_kv_spec labels[2];
	struct vs_taint_spec taint;
	struct vs_node_spec spec;

	spec_of(&spec, node->name, &l, labels, &taint);
	cr_assert_eq(vs_node_update(&cl, node, &spec, &e), 0, "%s", e.msg);
	check_all();
}

Test(nodeclass, nodes_that_differ_in_their_hostname_share_a_class)
{
	struct vs_node *a = add("a", (struct look){ "z1", NULL, false, true });
	struct vs_node *b = add("b", (struct look){ "z1", NULL, false, true });
	struct vs_node *c = add("c", (struct look){ "z2", NULL, false, true });
	struct vs_node *d = add("d", (struct look){ "z1", "gpu", false, true });
	struct vs_node *e = add("e", (struct look){ "z1", NULL, true, true });
	struct vs_node *f = add("f", (struct look){ "z1", NULL, false, false });

	cr_assert_eq(a->cls, b->cls);
	cr_assert_eq(a->cls->nr_nodes, 2);
	cr_assert_eq(vs_labels_count(a->cls->labels), 1, "the hostname is not the class's");
	cr_assert_neq(a->cls, c->cls, "another zone");
	cr_assert_neq(a->cls, d->cls, "a taint");
	cr_assert_neq(a->cls, e->cls, "cordoned");
	cr_assert_neq(a->cls, f->cls, "not ready");
	cr_assert_eq(cl.classes.nr, 5);
	for (u32 i = 0; i < cl.classes.nr; i++)
		cr_assert_not_null(cl.classes.by_id[i], "ids are dense: %u", i);
}

Test(nodeclass, updates_move_nodes_and_the_last_one_out_frees_the_class)
{
	struct vs_node *a = add("a", (struct look){ "z1", NULL, false, true });
	struct vs_node *b = add("b", (struct look){ "z2", NULL, false, true });
	struct vs_node *c = add("c", (struct look){ "z3", NULL, false, true });
	struct vs_node_class *z2 = b->cls;
	u32 id = b->cls->id;
	u64 gen = cl.classes.gen;

	update(a, (struct look){ "z2", NULL, false, true });
	cr_assert_eq(a->cls, z2, "joined the class of z2");
	cr_assert_eq(z2->nr_nodes, 2);
	cr_assert_eq(cl.classes.nr, 2, "z1 went with its last node");
	cr_assert_neq(cl.classes.gen, gen, "a class went: the generation moves");
	cr_assert_null(cl.classes.by_id[0], "z1's id is free");

	gen = cl.classes.gen;
	update(c, (struct look){ "z4", NULL, false, true });
	cr_assert_eq(c->cls->id, 0, "the lowest free id is reused");
	cr_assert_neq(cl.classes.gen, gen);

	/* The same spec again: the same class, nothing freed. */
	gen = cl.classes.gen;
	update(b, (struct look){ "z2", NULL, false, true });
	cr_assert_eq(b->cls, z2);
	cr_assert_eq(b->cls->id, id);
	cr_assert_eq(cl.classes.gen, gen);

	cr_assert_eq(vs_node_del(&cl, a, NULL), 0);
	cr_assert_eq(vs_node_del(&cl, b, NULL), 0);
	check_all();
	cr_assert_eq(cl.classes.nr, 1);
}

Test(nodeclass, a_refused_update_leaves_the_node_in_its_class)
{
	struct vs_node *a = add("a", (struct look){ "z1", NULL, false, true });
	struct vs_node_class *cls = a->cls;
	struct vs_err e = { { 0 } };
	struct vs_kv_spec labels[2];
	struct vs_taint_spec taint;
	struct vs_node_spec spec;

	spec_of(&spec, "a", &(struct look){ "not a valid value!", NULL, false, true }, labels,
		&taint);
	cr_assert_neq(vs_node_update(&cl, a, &spec, &e), 0);
	cr_assert_eq(a->cls, cls);
	cr_assert_eq(cl.classes.nr, 1);
	check_all();
}
