/* SPDX-License-Identifier: Apache-2.0 */
/*
 * YAML for the programs: a document read whole into a tree of typed nodes,
 * or a stream of documents each with the line it starts on (a manifest
 * file), through libyaml.
 *
 * Values are typed as the core's reader types them for the daemon
 * (kernel/sched/conf.h, vs_yaml_parse()), which is how gopkg.in/yaml.v2
 * decodes YAML 1.1 into interface{}, the way Kubernetes' and Volcano's Go
 * programs read the same files: a plain scalar is null (~, null, empty),
 * a bool (yes, on, true, n...), an int (0x1f, 0o17, 017, 1_000), a float
 * (1e3, .5, .inf, .nan) or else a string; a quoted or !!str scalar is a
 * string; !!int, !!float and !!bool must read as they say. Every node and
 * key has its line and column.
 *
 * Refused with "SOURCE:LINE: reason" (a syntax error as
 * "SOURCE:LINE:COLUMN: what libyaml says"), as the core refuses them:
 * aliases, merge keys (<<), tags other than !!str, !!int, !!float, !!bool,
 * !!map, !!seq and "!", nesting deeper than VSNL_YAML_DEPTH_MAX, a NUL byte
 * in a string, a mapping key that is not a scalar, a duplicate key, an
 * integer above INT64_MAX, and a second document where one is read.
 * Plain null keys (~, null, empty) are "". A refusal leaves nothing built.
 * The unit tests (selftests/client/ytree_test.c) hold this reader and the
 * core's to the same types, values, lines and messages.
 */
#ifndef VSNL_YTREE_H
#define VSNL_YTREE_H

#include <stddef.h>

#include "lib/compiler.h"
#include "lib/vsnl.h"

/* Collections open at once, the root's included: the core's VS_YAML_DEPTH_MAX. */
#define VSNL_YAML_DEPTH_MAX	64

enum vsnl_ytype {
	VSNL_Y_NULL,
	VSNL_Y_BOOL,
	VSNL_Y_INT,
	VSNL_Y_FLOAT,
	VSNL_Y_STRING,
	VSNL_Y_MAP,
	VSNL_Y_SEQ,
};

struct vsnl_ypair;

struct vsnl_ynode {
	enum vsnl_ytype type;
	u32 line, col;			/* 1-based, where it was written */
	/*
	 * A scalar's text after quoting and escapes (a string's value, and
	 * what "1e3" or "yes" was written as); NULL for a collection and
	 * for the null of an empty text.
	 */
	char *text;
	union {
		bool b;
		s64 i;
		double f;
		struct {
			struct vsnl_ypair *pairs;	/* in file order, keys unique */
			u32 nr;
		} map;
		struct {
			struct vsnl_ynode *items;
			u32 nr;
		} seq;
	};
};

struct vsnl_ypair {
	char *key;			/* the key's text */
	u32 line, col;			/* the key's */
	struct vsnl_ynode val;
};

/* One document of a stream. */
struct vsnl_ydoc {
	u32 line;			/* where it starts: its "---", or its first node */
	struct vsnl_ynode root;
};

struct vsnl_ydocs {
	struct vsnl_ydoc *docs;
	u32 nr;
};

/*
 * The one document of @text (@len bytes, NUL or not), named @source in
 * messages, into *@out; no document is a null at line 1. 0, or -errno with
 * @err saying what and where and *@out null.
 */
int vsnl_yaml_parse(const char *text, size_t len, const char *source, struct vsnl_ynode *out,
		    struct vsnl_err *err);

/* Every document of @text in order, empty ones as nulls; none is nr 0. */
int vsnl_yaml_parse_docs(const char *text, size_t len, const char *source,
			 struct vsnl_ydocs *out, struct vsnl_err *err);

/*
 * The file at @path (vsnl_read_file() with @max and @flags, whose messages
 * and errors, -ENOENT among them, come through as they are) parsed as one
 * document named by its path.
 */
int vsnl_yaml_read_file(const char *path, size_t max, unsigned int flags,
			struct vsnl_ynode *out, struct vsnl_err *err);

void vsnl_ynode_free(struct vsnl_ynode *n);
void vsnl_ydocs_free(struct vsnl_ydocs *docs);

/* The value of @key in @map, or NULL (absent, or @map is no map). */
const struct vsnl_ynode *vsnl_ymap_get(const struct vsnl_ynode *map, const char *key);

/* The string @n holds, or NULL when @n is absent or of another type. */
static inline const char *vsnl_ystr(const struct vsnl_ynode *n)
{
	return n && n->type == VSNL_Y_STRING ? n->text : NULL;
}

/* "a map", "a string"... for messages. */
const char *vsnl_ytype_name(enum vsnl_ytype type);

#endif /* VSNL_YTREE_H */
