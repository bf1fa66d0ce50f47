// SPDX-License-Identifier: Apache-2.0
/* Text tables: see table.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "vsctl/table.h"

#define GAP	3

void vsctl_table_init(struct vsctl_table *t)
{
	memset(t, 0, sizeof(*t));
}

void vsctl_table_free(struct vsctl_table *t)
{
	for (size_t i = 0; i < t->nr_cells; i++)
		free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

static void push(struct vsctl_table *t, char *s)
{
	if (!s || t->err) {
		free(s);
		t->err = -ENOMEM;
		return;
	}
	if (t->nr_cells == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		char **cells = realloc(t->cells, cap * sizeof(*cells));

		if (!cells) {
			free(s);
			t->err = -ENOMEM;
			return;
		}
		t->cells = cells;
		t->cap = cap;
	}
	t->cells[t->nr_cells++] = s;
}

void vsctl_table_header(struct vsctl_table *t, const char *name)
{
	push(t, strdup(name));
	t->nr_cols++;
}

void vsctl_table_cell(struct vsctl_table *t, char *s)
{
	push(t, s);
}

int vsctl_table_print(const struct vsctl_table *t, FILE *out)
{
	size_t *width;

	if (t->err)
		return t->err;
	if (!t->nr_cols)
		return 0;
	width = calloc(t->nr_cols, sizeof(*width));
	if (!width)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_cells; i++) {
		size_t n = strlen(t->cells[i]);

		if (n > width[i % t->nr_cols])
			width[i % t->nr_cols] = n;
	}
	for (size_t i = 0; i < t->nr_cells; i++) {
		size_t col = i % t->nr_cols;
		bool last = col == t->nr_cols - 1 || i == t->nr_cells - 1;

		if (last)
			fprintf(out, "%s\n", t->cells[i]);
		else
			fprintf(out, "%-*s", (int)(width[col] + GAP), t->cells[i]);
	}
	free(width);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
