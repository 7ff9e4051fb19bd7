// SPDX-License-Identifier: GPL-2.0
/*
 * The kselftest harness ends each test's process with _exit(), and
 * _exit() skips LeakSanitizer's check at exit: without this, no host test
 * could fail on a leak.  Linked with -Wl,--wrap=_exit into the sanitized
 * tests, so that a process that ends well is checked first, and one that
 * leaked ends as a failure (the harness reports its test as failed).
 */
#include <sanitizer/lsan_interface.h>

#include "kselftest.h"

void __real__exit(int code) __attribute__((noreturn));
void __wrap__exit(int code) __attribute__((noreturn));

void __wrap__exit(int code)
{
	if (code == KSFT_PASS && __lsan_do_recoverable_leak_check())
		code = KSFT_FAIL;
	__real__exit(code);
}
