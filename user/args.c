// SPDX-License-Identifier: GPL-2.0
/* txctl: command-line grammar helpers (iproute2 style). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/txnet.h>

#include "args.h"
#include "network.h"
#include "txctl.h"

bool wants_help(int argc, char **argv)
{
	return argc > 1 && (is_keyword(argv[1], "help") || !strcmp(argv[1], "-h") ||
			    !strcmp(argv[1], "--help"));
}

void incomplete_command(void (*usage)(FILE *))
{
	fprintf(stderr, "Error: command line is not complete.\n");
	if (usage)
		usage(stderr);
	exit(EXIT_USAGE);
}

void unknown_keyword(const char *arg, void (*usage)(FILE *))
{
	fprintf(stderr, "Error: unknown keyword \"%s\".\n", arg);
	if (usage)
		usage(stderr);
	exit(EXIT_USAGE);
}

void usage_error(void (*usage)(FILE *), const char *fmt, ...)
{
	va_list ap;

	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (usage)
		usage(stderr);
	exit(EXIT_USAGE);
}

void invarg(const char *arg, const char *field, const char *msg)
{
	fprintf(stderr, "Error: argument \"%s\" is wrong: %s %s\n",
		arg, field, msg);
	exit(EXIT_USAGE);
}

void duparg(const char *key, const char *arg)
{
	fprintf(stderr, "Error: duplicate \"%s\": \"%s\" is the second value.\n",
		key, arg);
	exit(EXIT_USAGE);
}

/*
 * strtoull() alone accepts leading blanks, signs ("-1" wraps) and
 * trailing garbage ("8x"): insist on digits only.
 */
static int parse_decimal(const char *arg, uint64_t max, uint64_t *val)
{
	unsigned long long v;
	const char *p;
	char *end;

	if (!*arg)
		return -EINVAL;
	for (p = arg; *p; p++)
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno == ERANGE || v > max)
		return -ERANGE;
	if (errno || *end)
		return -EINVAL;
	*val = v;
	return 0;
}

uint32_t get_u32_shown(const char *num, const char *arg, const char *field)
{
	uint64_t v = 0;
	int err = parse_decimal(num, UINT32_MAX, &v);

	if (err == -ERANGE)
		invarg(arg, field, "is too large (largest 4294967295)");
	if (err)
		invarg(arg, field, "must be a positive integer");
	return (uint32_t)v;
}

uint32_t get_u32(const char *arg, const char *field)
{
	return get_u32_shown(arg, arg, field);
}

uint32_t get_u32_nonneg(const char *arg, const char *field)
{
	uint64_t v = 0;
	int err = parse_decimal(arg, UINT32_MAX, &v);

	if (err == -ERANGE)
		invarg(arg, field, "is too large (largest 4294967295)");
	if (err)
		invarg(arg, field, "must be a non-negative integer");
	return (uint32_t)v;
}

uint64_t get_u64_nonneg(const char *arg, const char *field)
{
	uint64_t v = 0;
	int err = parse_decimal(arg, UINT64_MAX, &v);

	if (err == -ERANGE)
		invarg(arg, field, "is too large (largest 18446744073709551615)");
	if (err)
		invarg(arg, field, "must be a non-negative integer");
	return v;
}

const char *get_name(const char *arg, const char *field)
{
	if (!*arg)
		invarg(arg, field, "must not be empty");
	if (strlen(arg) >= TXNET_NAME_LEN) {
		char msg[64];

		snprintf(msg, sizeof(msg), "must be shorter than %d bytes",
			 TXNET_NAME_LEN);
		invarg(arg, field, msg);
	}
	return arg;
}

bool get_up_down(const char *arg, const char *field)
{
	if (!strcmp(arg, "down"))
		return false;
	if (!strcmp(arg, "up"))
		return true;
	invarg(arg, field, "is not \"down\" or \"up\"");
}

bool get_net_opt(int *pargc, char ***pargv, struct net_opts *o,
		 void (*usage)(FILE *))
{
	int argc = *pargc;
	char **argv = *pargv;

	if (is_keyword(*argv, "port")) {
		NEXT_ARG(usage);
		if (o->port_arg)
			duparg("port", *argv);
		o->port_arg = *argv;
		o->port = port_model_by_name(*argv);
		if (!o->port)
			invarg(*argv, "port", "must be \"single\" or \"all\"");
	} else if (is_keyword(*argv, "tick-ns")) {
		NEXT_ARG(usage);
		if (o->tick_arg)
			duparg("tick-ns", *argv);
		o->tick_arg = *argv;
		o->tick_ns = get_u64_nonneg(*argv, "tick-ns");
	} else {
		return false;
	}
	*pargc = argc;
	*pargv = argv;
	return true;
}
