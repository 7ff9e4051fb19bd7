// SPDX-License-Identifier: GPL-2.0
/*
 * bareloop: the anchor the engine's rate is measured against in make bench.
 *
 * A total exchange on a ring of N nodes or a K x K torus, written as plainly
 * as it can be: one record per ordered pair of nodes, a FIFO queue per
 * directed link, every link moving at most the record at the head of its
 * queue each tick, store-and-forward (a record that arrives in a tick is
 * forwarded from the next one on), and a record consumed on arrival.  The
 * route is fixed when the record is made (dimension order, the shorter way
 * round, a tie the positive way) and carried in it, so that a hop costs no
 * arithmetic on node ids.  There is no scheduling policy, no check, no
 * trace: what is left is the memory traffic that any engine moving these
 * packets cannot avoid, a record read from one queue and written to the
 * next at every hop.  That is why it is the anchor: an engine's link-hops
 * a second divided by this loop's on the same work says how much of its
 * time goes to what it does beyond moving the packets (bench.c takes the
 * best of each, rep by rep, in the same process).
 *
 * A record is 40 bytes (the two ids, the hops left in each dimension and
 * their directions, the dimension it is in, and a 16-byte payload).  It
 * prints one line, which bench.c reads ("link-hops/s", in millions):
 *
 *   bareloop ring 256: ticks 8256 link-hops 4194304 seconds ... link-hops/s ... M
 *
 * usage: bareloop ring N | bareloop torus K
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct rec {
	uint32_t src, dst;
	uint16_t left[2];	/* hops still to go in each dimension */
	uint8_t neg[2];		/* 1: that dimension's hops go the negative way */
	uint8_t dim;		/* the dimension it moves in now */
	uint8_t pad[4];
	uint64_t pay[2];
};

/* A directed link's queue: a ring buffer of a power-of-two size, grown by doubling. */
struct queue {
	struct rec *buf;
	uint32_t head, tail, cap;
};

static int nodes;		/* N, or K * K */
static int dims;		/* 1: ring, 2: torus */
static int side;		/* K */
static struct queue *queues;	/* link l = 2 * dims * u + 2 * dim + neg leaves node u */

/* Zeroed if @zero; the queues' records are written before they are read. */
static void *alloc_or_die(size_t n, size_t size, int zero)
{
	void *p = zero ? calloc(n, size) : malloc(n * size);

	if (!p) {
		fprintf(stderr, "bareloop: out of memory\n");
		exit(1);
	}
	return p;
}

static void push(struct queue *q, const struct rec *r)
{
	if (q->tail - q->head == q->cap) {
		uint32_t cap = q->cap ? 2 * q->cap : 16;
		struct rec *buf = malloc(sizeof(*buf) * cap);
		uint32_t i;

		/*
		 * abort(), not a message: a call that may print could change
		 * the globals as far as the compiler knows, and the tick loop
		 * would load them again after every push.
		 */
		if (!buf)
			abort();

		for (i = 0; i < q->tail - q->head; i++)
			buf[i] = q->buf[(q->head + i) & (q->cap - 1)];
		q->tail -= q->head;
		q->head = 0;
		free(q->buf);
		q->buf = buf;
		q->cap = cap;
	}
	q->buf[q->tail++ & (q->cap - 1)] = *r;
}

/* Fill in @r's route from @s to @d (s != d) and return the link it leaves on. */
static int route(struct rec *r, int s, int d)
{
	int c[2][2] = { { s, d }, { 0, 0 } };
	int m = nodes, i, delta;

	if (dims == 2) {
		c[0][0] = s % side;
		c[0][1] = d % side;
		c[1][0] = s / side;
		c[1][1] = d / side;
		m = side;
	}
	for (i = 0; i < dims; i++) {
		delta = ((c[i][1] - c[i][0]) % m + m) % m;
		r->neg[i] = delta > m / 2;
		r->left[i] = r->neg[i] ? m - delta : delta;
	}
	r->dim = r->left[0] ? 0 : 1;
	return 2 * dims * s + 2 * r->dim + r->neg[r->dim];
}

/* The node at the far end of link @l. */
static int link_head(int l)
{
	int u = l / (2 * dims), k = l % (2 * dims), step = (k & 1) ? -1 : 1;
	int x, y;

	if (dims == 1)
		return ((u + step) % nodes + nodes) % nodes;
	x = u % side;
	y = u / side;
	if (k < 2)
		x = ((x + step) % side + side) % side;
	else
		y = ((y + step) % side + side) % side;
	return y * side + x;
}

static int usage(void)
{
	fprintf(stderr, "usage: bareloop ring N | bareloop torus K\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rec *moved;
	uint64_t hops = 0, left;
	long ticks = 0;
	double secs;
	int nlinks, *head, *to;
	int l, s, d, m, i, size;

	if (argc != 3)
		return usage();
	size = atoi(argv[2]);
	if (!strcmp(argv[1], "ring") && size >= 2 && size <= 1 << 16) {
		dims = 1;
		nodes = size;
	} else if (!strcmp(argv[1], "torus") && size >= 2 && size <= 1 << 8) {
		dims = 2;
		side = size;
		nodes = size * size;
	} else {
		return usage();
	}
	nlinks = 2 * dims * nodes;
	queues = alloc_or_die(nlinks, sizeof(*queues), 1);
	head = alloc_or_die(nlinks, sizeof(*head), 0);
	for (l = 0; l < nlinks; l++)
		head[l] = link_head(l);
	for (s = 0; s < nodes; s++) {
		for (d = 0; d < nodes; d++) {
			struct rec r = { .src = s, .dst = d, .pay = { (uint64_t)s * 1000003u + d, 0 } };

			if (s != d)
				push(&queues[route(&r, s, d)], &r);
		}
	}

	moved = alloc_or_die(nlinks, sizeof(*moved), 0);
	to = alloc_or_die(nlinks, sizeof(*to), 0);
	left = (uint64_t)nodes * (nodes - 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left) {
		/* every link moves the record at the head of its queue */
		m = 0;
		for (l = 0; l < nlinks; l++) {
			struct queue *q = &queues[l];

			if (q->head != q->tail) {
				moved[m] = q->buf[q->head++ & (q->cap - 1)];
				to[m++] = head[l];
			}
		}
		/* then each is consumed or queued on its next link, to move from the next tick */
		for (i = 0; i < m; i++) {
			struct rec *r = &moved[i];

			/*
			 * One hop done: consumed at its destination; else on
			 * in the same dimension, or into the second once the
			 * first is done.
			 */
			if (--r->left[r->dim] == 0 &&
			    (r->dim == 1 || dims == 1 || (r->dim = 1, r->left[1] == 0))) {
				left--;
				continue;
			}
			push(&queues[2 * dims * to[i] + 2 * r->dim + r->neg[r->dim]], r);
		}
		hops += m;
		ticks++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("bareloop %s %s: ticks %ld link-hops %llu seconds %.4f link-hops/s %.1f M\n",
	       argv[1], argv[2], ticks, (unsigned long long)hops, secs, hops / secs / 1e6);
	return 0;
}
