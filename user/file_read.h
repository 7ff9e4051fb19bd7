/* SPDX-License-Identifier: GPL-2.0 */
/* txctl: a file read whole into memory, for the parsers of graph and schedule files. */
#ifndef TXCTL_FILE_READ_H
#define TXCTL_FILE_READ_H

#include <stddef.h>

/*
 * @path's bytes into a malloc'd *@buf (the caller frees it), *@len of
 * them: 0, or -E2BIG past @max bytes, -ENOMEM, or the -errno of opening
 * or reading it, with nothing left allocated.
 */
int file_read(const char *path, size_t max, char **buf, size_t *len);

#endif
