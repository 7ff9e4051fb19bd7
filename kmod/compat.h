/* SPDX-License-Identifier: GPL-2.0 */
/* The few places where 6.1 and 6.12 differ, in one file. */
#ifndef TXNET_COMPAT_H
#define TXNET_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>

/* hrtimer_setup() replaced hrtimer_init() + ->function in 6.13. */
static inline void txnet_hrtimer_setup(struct hrtimer *t,
				       enum hrtimer_restart (*fn)(struct hrtimer *),
				       clockid_t clock, enum hrtimer_mode mode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

#endif /* TXNET_COMPAT_H */
