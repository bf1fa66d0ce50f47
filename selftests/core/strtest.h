/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the tests of interned objects share: one string table, made before
 * each test and checked empty after it, for every test frees what it made,
 * refused specs included.
 */
#ifndef VS_SELFTESTS_CORE_STRTEST_H
#define VS_SELFTESTS_CORE_STRTEST_H

#include <criterion/criterion.h>

#include "core/strtab.h"

static struct vs_strtab strs;

static inline void strs_setup(void)
{
	cr_assert_eq(vs_strtab_init(&strs), 0);
}

static inline void strs_teardown(void)
{
	cr_expect_eq(vs_strtab_count(&strs), 0, "%zu strings leaked", vs_strtab_count(&strs));
	vs_strtab_destroy(&strs);
}

/* A suite of such tests. */
#define STRS_SUITE(name)	TestSuite(name, .init = strs_setup, .fini = strs_teardown)

#endif
