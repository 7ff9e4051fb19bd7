/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kselftest harness (from linux-source-6.12, see selftests/ksft-headers.sh)
 * plus the txnet netlink helpers: what every C test includes.
 */
#ifndef TXNET_HARNESS_H
#define TXNET_HARNESS_H

#include "kselftest_harness.h"
#include "txnet_nl.h"

/*
 * @call, a request of the fixture's self->t, is refused with @err and an
 * extack message.
 */
#define CALL_REFUSED(err, call) do {					\
		EXPECT_EQ(err, call) TH_LOG(#call ": '%s'", self->t.msg); \
		EXPECT_NE(0, self->t.msg[0]) TH_LOG(#call ": no extack message"); \
	} while (0)

#endif /* TXNET_HARNESS_H */
