// SPDX-License-Identifier: Apache-2.0
/*
 * A scheduler configuration checked in-process, and the built-in one. See
 * conf.h.
 */
#include <errno.h>
#include <string.h>

#include "core/err.h"
#include "harness/conf.h"
#include "registry/builtin.h"
#include "sched/conf.h"
#include "sched/framework.h"

int harness_conf_check(const char *path, FILE *out, struct vsnl_err *err)
{
	const struct vs_registry *reg = vs_builtin_registry();
	struct vs_conf_names names;
	struct vs_err e = { { 0 } };
	struct vs_conf *conf = NULL;
	int ret;

	vs_registry_names(reg, &names);
	ret = vs_conf_load_file(path, &names, &conf, &e);
	if (!ret)
		ret = vs_registry_check_conf(reg, conf, &e);
	if (ret) {
		vs_conf_free(conf);
		return vsnl_err_set(err, ret, "%s", e.msg);
	}
	fprintf(out, "actions");
	for (u32 i = 0; i < conf->nr_actions; i++)
		fprintf(out, "%s %s", i ? "," : "", conf->actions[i]);
	fprintf(out, "; %u tier%s", conf->nr_tiers, conf->nr_tiers == 1 ? "" : "s");
	vs_conf_free(conf);
	return 0;
}

bool harness_conf_is_builtin(const char *text)
{
	return !strcmp(text, vs_conf_default_text);
}
