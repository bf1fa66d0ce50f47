// SPDX-License-Identifier: Apache-2.0
/*
 * Tests for node images (core/images.h): the summaries a node takes when
 * it is added or updated, as Volcano's cache takes them, and the cluster's
 * table of names kept by nodes coming and going, and put back by an undo.
 */
#include <string.h>
#include <criterion/criterion.h>

#include "core/images.h"
#include "strtest.h"

static struct vs_image_table tab;

static void setup(void)
{
	strs_setup();
	cr_assert_eq(vs_image_table_init(&tab), 0);
}

static void teardown(void)
{
	cr_expect_eq(vs_image_table_count(&tab), 0, "%zu names left", vs_image_table_count(&tab));
	vs_image_table_destroy(&tab);
	strs_teardown();
}

TestSuite(images, .init = setup, .fini = teardown);

static const char *const nginx[] = { "nginx:1.25", "nginx@sha256:aa" };
static const char *const redis[] = { "redis:7" };

static struct vs_node_images *node(const struct vs_image_spec *specs, u32 nr)
{
	struct vs_node_images *imgs;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_node_images_new(&tab, &strs, specs, nr, &imgs, &e), 0, "%s", e.msg);
	return imgs;
}

static const struct vs_node_image *find(const struct vs_node_images *imgs, const char *name)
{
	const char *in = vs_str_find(&strs, name, strlen(name));

	return vs_node_image_find(imgs, in);
}

static void drop(struct vs_node_images *imgs)
{
	vs_node_images_release(imgs);
	vs_node_images_free(&tab, &strs, imgs);
}

Test(images, a_node_counts_the_nodes_that_had_an_image_when_it_came)
{
	const struct vs_image_spec a[] = { { nginx, 2, 100 << 20 } };
	const struct vs_image_spec b[] = { { nginx, 2, 200 << 20 }, { redis, 1, 50 << 20 } };
	struct vs_node_images *n1 = node(a, 1), *n2 = node(b, 2);

	cr_assert_eq(n1->nr, 2);
	cr_assert_eq(find(n1, "nginx:1.25")->num_nodes, 1, "taken when n2 had none");
	cr_assert_eq(find(n2, "nginx:1.25")->num_nodes, 2);
	cr_assert_eq(find(n2, "nginx@sha256:aa")->num_nodes, 2, "each name on its own");
	/* the size is the first node's, for every node */
	cr_assert_eq(find(n2, "nginx:1.25")->size, 100 << 20);
	cr_assert_eq(find(n2, "redis:7")->size, 50 << 20);
	cr_assert_null(find(n1, "redis:7"));
	cr_assert_null(vs_node_image_find(n1, NULL));
	cr_assert_eq(vs_image_table_count(&tab), 3);
	drop(n1);
	drop(n2);
}

Test(images, a_name_nobody_reports_goes_and_comes_back_with_a_new_size)
{
	const struct vs_image_spec a[] = { { redis, 1, 10 } };
	const struct vs_image_spec b[] = { { redis, 1, 20 } };
	struct vs_node_images *n1 = node(a, 1), *n2;

	drop(n1);
	cr_assert_eq(vs_image_table_count(&tab), 0);
	n2 = node(b, 1);
	cr_assert_eq(find(n2, "redis:7")->size, 20);
	cr_assert_eq(find(n2, "redis:7")->num_nodes, 1);
	drop(n2);
}

Test(images, a_name_twice_on_a_node_counts_once_with_its_first_size)
{
	const struct vs_image_spec a[] = { { redis, 1, 10 }, { redis, 1, 30 } };
	struct vs_node_images *n1 = node(a, 2);

	cr_assert_eq(n1->nr, 1);
	cr_assert_eq(find(n1, "redis:7")->size, 10);
	cr_assert_eq(find(n1, "redis:7")->num_nodes, 1);
	drop(n1);
}

Test(images, a_released_node_put_back_is_counted_as_it_was)
{
	const struct vs_image_spec a[] = { { nginx, 2, 100 } };
	struct vs_node_images *n1 = node(a, 1), *n2 = node(a, 1), *n3;

	/* n1 released (deleted in a transaction), then the undo puts it back */
	vs_node_images_release(n1);
	vs_node_images_restore(n1);
	n3 = node(a, 1);
	cr_assert_eq(find(n3, "nginx:1.25")->num_nodes, 3, "n1 counted again");
	cr_assert_eq(find(n1, "nginx:1.25")->num_nodes, 1, "its summary as it was");
	drop(n1);
	drop(n2);
	drop(n3);
}

Test(images, an_undo_revives_a_name_the_transaction_let_go)
{
	const struct vs_image_spec a[] = { { redis, 1, 10 } };
	const struct vs_image_spec b[] = { { redis, 1, 20 } };
	struct vs_node_images *n1 = node(a, 1), *n2, *n3;

	/* n1 deleted, its summaries kept for an undo: no node reports redis now */
	vs_node_images_release(n1);
	cr_assert_eq(vs_image_table_count(&tab), 0);
	/* n2 added: a new state, with n2's size */
	n2 = node(b, 1);
	cr_assert_eq(find(n2, "redis:7")->size, 20);
	cr_assert_eq(find(n2, "redis:7")->num_nodes, 1);
	/* undone in reverse: n2 goes, n1 comes back into its own state, size 10 */
	drop(n2);
	vs_node_images_restore(n1);
	n3 = node(b, 1);
	cr_assert_eq(find(n3, "redis:7")->size, 10, "the state n1 came back to");
	cr_assert_eq(find(n3, "redis:7")->num_nodes, 2);
	drop(n1);
	drop(n3);
}

Test(images, bad_images_are_refused_and_change_nothing)
{
	const char *const empty[] = { "" };
	const struct vs_image_spec neg[] = { { redis, 1, -1 } };
	const struct vs_image_spec noname[] = { { redis, 1, 1 }, { empty, 1, 1 } };
	struct vs_node_images *imgs = (void *)1;
	struct vs_err e = { { 0 } };

	cr_assert_eq(vs_node_images_new(&tab, &strs, neg, 1, &imgs, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "images[0]: sizeBytes -1 is negative");
	vs_err_clear(&e);
	cr_assert_eq(vs_node_images_new(&tab, &strs, noname, 2, &imgs, &e), -EINVAL);
	cr_assert_str_eq(e.msg, "images[1].names[0]: empty");
	cr_assert_null(imgs);
	cr_assert_eq(vs_image_table_count(&tab), 0);
	cr_assert_eq(vs_node_images_new(&tab, &strs, NULL, 0, &imgs, &e), 0);
	cr_assert_null(imgs, "no images, no summaries");
}

/* The audit: states count the live nodes given to it, no more, no fewer. */
Test(images, the_audit_finds_a_state_that_miscounts_its_nodes)
{
	const struct vs_image_spec a[] = { { nginx, 2, 100 }, { redis, 1, 50 } };
	struct vs_node_images *n1 = node(a, 2), *n2 = node(a, 1);
	struct vs_err e = { { 0 } };

	vs_image_audit_start(&tab);
	cr_assert_eq(vs_node_images_audit(n1, &e) ?: vs_node_images_audit(n2, &e) ?:
		     vs_image_audit_end(&tab, &e), 0, "%s", e.msg);
	/* n2 left out: its names are counted for a node the audit did not see */
	vs_image_audit_start(&tab);
	cr_assert_eq(vs_node_images_audit(n1, &e), 0, "%s", e.msg);
	cr_assert_eq(vs_image_audit_end(&tab, &e), -EIO);
	cr_assert(strstr(e.msg, "2 nodes counted, 1 report it"), "%s", e.msg);
	/* n2 released but still given: counted once, seen twice */
	vs_node_images_release(n2);
	memset(&e, 0, sizeof(e));
	vs_image_audit_start(&tab);
	cr_assert_eq(vs_node_images_audit(n1, &e) ?: vs_node_images_audit(n2, &e), 0, "%s",
		     e.msg);
	cr_assert_eq(vs_image_audit_end(&tab, &e), -EIO);
	cr_assert(strstr(e.msg, "1 nodes counted, 2 report it"), "%s", e.msg);
	vs_node_images_free(&tab, &strs, n2);
	drop(n1);
}
