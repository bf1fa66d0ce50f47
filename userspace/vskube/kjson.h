/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The API server's JSON as the values the object readers take
 * (userspace/kube/kfields.h): a jansson value into the struct vs_arg tree
 * that vs_yaml_parse() makes of the same object written as YAML, so that
 * an object read from the API server and the same object applied from a
 * manifest become the same vsched object.
 *
 * JSON has no lines: every value is on line 1 of @source, which messages
 * name ("pods team-a/p1:1: spec.containers[0]...").
 */
#ifndef VSKUBE_KJSON_H
#define VSKUBE_KJSON_H

#include <jansson.h>

#include "sched/conf.h"

/*
 * Convert @j into @out; map sources point at @source, which must outlive
 * @out. 0 or -ENOMEM (then @out is freed and NULL). Free with vs_arg_free().
 */
int kj_to_arg(const json_t *j, const char *source, struct vs_arg *out);

#endif /* VSKUBE_KJSON_H */
