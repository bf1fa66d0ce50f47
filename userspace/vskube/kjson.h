/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The API server's JSON as the tree the manifest reader takes: a jansson
 * value into the tree that YAML's reader makes of the same object written
 * as YAML (libvsnl's, lib/ytree.h), which kube/kread.h walks, so that an
 * object read from the API server and the same object applied from a
 * manifest become the same requests.
 *
 * JSON has no lines: every value is on line 1 of @source, which messages
 * name ("pods team-a/p1:1: spec.containers[0]...").
 */
#ifndef VSKUBE_KJSON_H
#define VSKUBE_KJSON_H

#include <stddef.h>
#include <jansson.h>

#include "lib/ytree.h"

/*
 * @j into *@out as vsnl_yaml_parse() reads the same JSON text (JSON is
 * YAML's flow style): an integer as VSNL_Y_INT (jansson holds those within
 * s64; larger ones, decoded as reals, are numbers), a real as VSNL_Y_FLOAT,
 * strings, booleans and null, each scalar's text as YAML keeps it ("2",
 * "0.5", "true", "null"), so that a quantity written as a number reads the
 * same. A real's text is the shortest that reads back to it, with ".0"
 * when it would read as an integer: Go's encoder writes them so, and
 * jansson keeps no text. Every node and key is at line 1, column 1;
 * @source (which names the object in the readers' messages) is not kept.
 *
 * 0; -EINVAL for what YAML's reader refuses too (a string or key holding
 * a NUL byte, nesting deeper than VSNL_YAML_DEPTH_MAX), -ENOMEM: then
 * *@out is a null with nothing allocated. Free with vsnl_ynode_free().
 */
int kj_to_ynode(const json_t *j, const char *source, struct vsnl_ynode *out);

/* How kj_to_ynode() allocates (calloc): the unit tests fail it on purpose. */
extern void *(*kj_calloc)(size_t nr, size_t size);

#endif /* VSKUBE_KJSON_H */
