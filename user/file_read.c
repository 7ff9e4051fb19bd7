// SPDX-License-Identifier: GPL-2.0
/* txctl: a file read whole into memory (file_read.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "file_read.h"

int file_read(const char *path, size_t max, char **buf, size_t *len)
{
	size_t cap = 0, n;
	char *nb;
	int ret = 0;
	FILE *f;

	*buf = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	for (;;) {
		if (*len == cap) {
			/* a byte past max tells a file of max bytes from a larger one */
			cap = cap ? 2 * cap : 1 << 16;
			if (cap > max + 1)
				cap = max + 1;
			nb = realloc(*buf, cap);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			*buf = nb;
		}
		errno = 0;
		n = fread(*buf + *len, 1, cap - *len, f);
		*len += n;
		if (*len > max) {
			ret = -E2BIG;
			break;
		}
		if (*len < cap) {
			if (ferror(f)) {
				ret = errno ? -errno : -EIO;
				break;
			}
			if (feof(f))
				break;
		}
	}
	fclose(f);
	if (ret) {
		free(*buf);
		*buf = NULL;
		*len = 0;
	}
	return ret;
}
