/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text tables as kubectl prints them: a header row in capitals, columns
 * left-aligned and separated by three spaces, no borders.
 *
 *	vsctl_table_header(&t, "NAME"); ...
 *	vsctl_table_cell(&t, strdup("n1")); ...	(the table owns the cells)
 *	vsctl_table_print(&t, stdout);
 */
#ifndef VSCTL_TABLE_H
#define VSCTL_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct vsctl_table {
	char **cells;			/* row-major; the header is row 0 */
	size_t nr_cols, nr_cells, cap;
	int err;			/* -ENOMEM once a cell could not be kept */
};

void vsctl_table_init(struct vsctl_table *t);
void vsctl_table_free(struct vsctl_table *t);

/* Headers come before any cell. */
void vsctl_table_header(struct vsctl_table *t, const char *name);

/* The next cell, row by row; @s is taken over (NULL: out of memory, remembered). */
void vsctl_table_cell(struct vsctl_table *t, char *s);

/* 0, or a negative errno (out of memory earlier, or the stream failed). */
int vsctl_table_print(const struct vsctl_table *t, FILE *out);

#endif /* VSCTL_TABLE_H */
