/* SPDX-License-Identifier: GPL-2.0 */
/*
 * txctl: command-line grammar helpers in the iproute2 style.  Every
 * helper that rejects an argument prints "Error: ..." on stderr and
 * exits with EXIT_USAGE before any netlink traffic.
 */
#ifndef TXCTL_ARGS_H
#define TXCTL_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Advance to the next argument, or fail with the command's usage. */
#define NEXT_ARG(usage) do {					\
		argv++;						\
		if (--argc <= 0)				\
			incomplete_command(usage);		\
	} while (0)
#define NEXT_ARG_OK()	(argc - 1 > 0)
#define PREV_ARG()	do { argv--; argc++; } while (0)

static inline bool is_keyword(const char *arg, const char *kw)
{
	return arg && strcmp(arg, kw) == 0;
}

/* "help" as the first argument of a command. */
bool wants_help(int argc, char **argv);

void __attribute__((noreturn)) incomplete_command(void (*usage)(FILE *));
void __attribute__((noreturn)) unknown_keyword(const char *arg,
					       void (*usage)(FILE *));
void __attribute__((noreturn)) usage_error(void (*usage)(FILE *),
					   const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Error: argument "ARG" is wrong: FIELD MSG */
void __attribute__((noreturn)) invarg(const char *arg, const char *field,
				      const char *msg);
/* Error: duplicate "KEY": "ARG" is the second value. */
void __attribute__((noreturn)) duparg(const char *key, const char *arg);

/* Decimal, no sign, no garbage, fits the type; FIELD names it in errors. */
uint32_t get_u32(const char *arg, const char *field);
/* get_u32 of num, a part of arg ("ring:5"); errors show all of arg. */
uint32_t get_u32_shown(const char *num, const char *arg, const char *field);
/* As get_u32, for a value where zero is meaningful (e.g. payload 0). */
uint32_t get_u32_nonneg(const char *arg, const char *field);
/* 64 bits, zero meaningful (e.g. tick-ns 0 = free-running). */
uint64_t get_u64_nonneg(const char *arg, const char *field);
/* A network name: non-empty, shorter than TXNET_NAME_LEN bytes. */
const char *get_name(const char *arg, const char *field);
/* "down" or "up" (link, node): whether up. */
bool get_up_down(const char *arg, const char *field);

/* The options create and set share: port { single | all }, tick-ns N. */
struct net_opts {
	const char *port_arg;	/* the values as given, NULL if absent */
	const char *tick_arg;
	uint32_t port;		/* enum txnet_port_model */
	uint64_t tick_ns;
};

/*
 * If *argv is "port" or "tick-ns", take its value into o, leave *argv at
 * the value and return true; otherwise return false.  Fails (exits) as
 * NEXT_ARG, duparg() and invarg() do.
 */
bool get_net_opt(int *pargc, char ***pargv, struct net_opts *o,
		 void (*usage)(FILE *));

#endif /* TXCTL_ARGS_H */
