// SPDX-License-Identifier: Apache-2.0
/*
 * The built-in configuration as the harness knows it (harness/conf.h):
 * "vsbench run --mode socket" tells a daemon that runs another one by it.
 */
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>

#include "harness/conf.h"
#include "sched/conf.h"

Test(harness_conf, builtin_is_the_daemons_text_byte_for_byte)
{
	size_t len = strlen(vs_conf_default_text);
	char *text = malloc(len + 2);

	cr_assert_not_null(text);
	cr_assert(harness_conf_is_builtin(vs_conf_default_text));
	memcpy(text, vs_conf_default_text, len + 1);
	cr_assert(harness_conf_is_builtin(text));
	/* the same configuration, a byte more: another file's text */
	memcpy(text + len, "\n", 2);
	cr_assert_not(harness_conf_is_builtin(text));
	cr_assert_not(harness_conf_is_builtin(""));
	free(text);
}
