/* SPDX-License-Identifier: GPL-2.0 */
/* txctl: arrays that grow as a dump's messages come in. */
#ifndef TXCTL_ARRAY_H
#define TXCTL_ARRAY_H

#include <errno.h>
#include <stdlib.h>

/*
 * Room for element @n of the array at *@v (@size bytes each, *@cap of
 * them): doubled when full, @first to begin with.  0 or -ENOMEM (the
 * array as it was).
 */
static inline int array_room(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	void **p = v, *grown;
	size_t want;

	if (n < *cap)
		return 0;
	want = *cap ? 2 * *cap : first;
	grown = realloc(*p, want * size);
	if (!grown)
		return -ENOMEM;
	*p = grown;
	*cap = want;
	return 0;
}

#endif /* TXCTL_ARRAY_H */
