// SPDX-License-Identifier: GPL-2.0
/*
 * SVG pictures of a run, written here rather than by gnuplot: txctl runs
 * where gnuplot is not installed (the test VM, servers), a vector picture
 * needs no library, and the output is the same byte for byte on every
 * machine, so that tests can check it.  Elements carry classes (a link
 * row's polyline is class "links", a node row's cell class "held") for
 * scripts that read the picture back.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "plot.h"

#define W		960
#define LEFT		70	/* room for the y labels */
#define PW		700	/* plot width */
#define TOP1		70	/* link panel */
#define PH1		220
#define TOP2		(TOP1 + PH1 + 70)	/* node panel */
#define LEGEND_X	(LEFT + PW + 20)

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

static void text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			/* control characters are not XML */
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, f);
		}
	}
}

static double x_of(const struct series *s, double tick)
{
	return LEFT + (s->ticks ? tick / (double)s->ticks : 0.0) * PW;
}

/* About five round steps across 0 .. @max. */
static uint64_t step_for(uint64_t max)
{
	uint64_t step = 1;

	while (max / step > 5) {
		if (max / (step * 2) <= 5)
			return step * 2;
		if (max / (step * 5) <= 5)
			return step * 5;
		step *= 10;
	}
	return step;
}

static void x_axis(FILE *f, const struct series *s, int y)
{
	uint64_t t, step = step_for(s->ticks);

	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n",
		LEFT, y, LEFT + PW, y);
	for (t = 0; t <= s->ticks; t += step)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%" PRIu64 "</text>\n",
			x_of(s, (double)t), y + 16, t);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">tick</text>\n",
		LEFT + PW / 2, y + 34);
}

/* The share of @links links busy in sample @i, @busy packets carried in it. */
static double use(const struct series *s, uint64_t busy, uint32_t links, uint32_t i)
{
	uint64_t span = series_span(s, i);

	return links && span ? (double)busy / ((double)links * (double)span) : 0.0;
}

static void polyline(FILE *f, const struct series *s, uint32_t len, const uint64_t *busy,
		     uint32_t links, const char *attrs)
{
	uint32_t i;

	fprintf(f, "<polyline %s points=\"", attrs);
	for (i = 0; i < len; i++) {
		double mid = (double)i * s->sample_ticks + (double)series_span(s, i) / 2;

		fprintf(f, "%s%.1f,%.1f", i ? " " : "", x_of(s, mid),
			TOP1 + PH1 - use(s, busy[i], links, i) * PH1);
	}
	fputs("\"/>\n", f);
}

static void links_panel(FILE *f, const struct series *s)
{
	static uint64_t total[TXNET_SERIES_SAMPLES];
	const struct series_row *r, *any = NULL;
	uint32_t i, k, n = 0, links = 0;
	char attrs[160];
	int y;

	fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Links busy (share of the row's links carrying a packet)</text>\n",
		LEFT, TOP1 - 12);
	for (k = 0; k <= 4; k++) {
		y = TOP1 + PH1 - (int)(k * PH1 / 4);
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n",
			LEFT, y, LEFT + PW, y);
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%u%%</text>\n",
			LEFT - 6, y + 4, k * 25);
	}
	x_axis(f, s, TOP1 + PH1);
	memset(total, 0, sizeof(total));
	fputs("<g fill=\"none\" stroke-width=\"1.5\">\n", f);
	for (i = 0; i < s->n; i++) {
		r = &s->row[i];
		if (r->kind != TXNET_SERIES_LINKS)
			continue;
		any = r;
		links += r->links;
		for (k = 0; k < r->len; k++)
			total[k] += r->busy[k];
		if (r->has_dim)
			snprintf(attrs, sizeof(attrs),
				 "class=\"links\" data-dim=\"%u\" data-dir=\"%s\" stroke=\"%s\"%s",
				 r->dim, r->dir ? "down" : "up",
				 palette[r->dim % (sizeof(palette) / sizeof(palette[0]))],
				 r->dir ? " stroke-dasharray=\"5,3\"" : "");
		else
			snprintf(attrs, sizeof(attrs), "class=\"links\" stroke=\"%s\"", palette[0]);
		polyline(f, s, r->len, r->busy, r->links, attrs);
		if (r->has_dim) {
			y = TOP1 + 10 + 18 * (int)n++;
			fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" %s/>\n",
				LEGEND_X, y, LEGEND_X + 24, y, attrs + strlen("class=\"links\" "));
			fprintf(f, "<text x=\"%d\" y=\"%d\" stroke=\"none\" fill=\"#000\">dim %u %s</text>\n",
				LEGEND_X + 30, y + 4, r->dim, r->dir ? "down" : "up");
		}
	}
	if (any && n > 1) {
		polyline(f, s, any->len, total, links,
			 "class=\"links-all\" stroke=\"#000\" stroke-width=\"2.5\"");
		y = TOP1 + 10 + 18 * (int)n;
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\" stroke-width=\"2.5\"/>\n",
			LEGEND_X, y, LEGEND_X + 24, y);
		fprintf(f, "<text x=\"%d\" y=\"%d\" stroke=\"none\" fill=\"#000\">all links</text>\n",
			LEGEND_X + 30, y + 4);
	}
	fputs("</g>\n", f);
}

/* White to dark blue as @v goes from 0 to @max. */
static void shade(char *buf, size_t len, uint32_t v, uint32_t max)
{
	double t = max ? (double)v / max : 0.0;
	int r = (int)(255 - t * (255 - 8)), g = (int)(255 - t * (255 - 48)),
	    b = (int)(255 - t * (255 - 107));

	snprintf(buf, len, "#%02x%02x%02x", r, g, b);
}

static int node_rows(const struct series *s)
{
	uint32_t i;
	int n = 0;

	for (i = 0; i < s->n; i++)
		n += s->row[i].kind == TXNET_SERIES_HELD;
	return n;
}

/* Height of one node row: the panel is 120 to 360 pixels tall. */
static double row_height(int rows)
{
	double h = rows ? 360.0 / rows : 0;

	if (h > 12)
		h = 12;
	if (rows && h * rows < 120)
		h = 120.0 / rows;
	return h;
}

/*
 * Row @r's samples as cells, a run of equal samples one cell; edges on
 * whole pixels, so that neighbours meet without a seam.
 */
static void node_cells(FILE *f, const struct series *s, const struct series_row *r, double y0,
		       double y1, uint32_t max)
{
	long x0, x1, top = lround(y0), bottom = lround(y1);
	uint32_t k, end;
	char color[8];

	for (k = 0; k < r->len; k = end) {
		for (end = k + 1; end < r->len && r->held[end] == r->held[k]; end++)
			;
		if (!r->held[k])
			continue;
		x0 = lround(x_of(s, (double)k * s->sample_ticks));
		x1 = lround(x_of(s, (double)(end - 1) * s->sample_ticks +
				    (double)series_span(s, end - 1)));
		shade(color, sizeof(color), r->held[k], max);
		fprintf(f, "<rect class=\"held\" data-node=\"%u\" data-held=\"%u\" x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%ld\" fill=\"%s\"/>\n",
			r->node, r->held[k], x0, top, x1 - x0, bottom - top, color);
	}
}

static void node_panel(FILE *f, const struct series *s, int rows)
{
	double rh = row_height(rows);
	const struct series_row *r;
	uint32_t i, k, max = 0;
	int row = 0, label_every;

	for (i = 0; i < s->n; i++)
		for (k = 0; k < s->row[i].len; k++)
			if (s->row[i].kind == TXNET_SERIES_HELD && s->row[i].held[k] > max)
				max = s->row[i].held[k];
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\">Packets held (the most a node held at a tick's end: queued, waiting or kept)</text>\n",
		LEFT, TOP2 - 12);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.1f\" fill=\"#fff\" stroke=\"#000\"/>\n",
		LEFT, TOP2, PW, rh * rows);
	label_every = rows / 8 > 0 ? rows / 8 : 1;
	fputs("<g stroke=\"none\" shape-rendering=\"crispEdges\">\n", f);
	for (i = 0; i < s->n; i++) {
		r = &s->row[i];
		if (r->kind != TXNET_SERIES_HELD)
			continue;
		node_cells(f, s, r, TOP2 + rh * row, TOP2 + rh * (row + 1), max);
		if (row % label_every == 0)
			fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#000\">%u</text>\n",
				LEFT - 6, TOP2 + rh * row + rh / 2 + 4, r->node);
		row++;
	}
	fputs("</g>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 %d %.1f)\">node</text>\n",
		LEFT - 40, TOP2 + rh * rows / 2, LEFT - 40, TOP2 + rh * rows / 2);
	x_axis(f, s, (int)(TOP2 + rh * rows + 0.5));
	/* the scale */
	fputs("<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
	      "<stop offset=\"0\" stop-color=\"#ffffff\"/><stop offset=\"1\" stop-color=\"#08306b\"/>"
	      "</linearGradient></defs>\n", f);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"120\" fill=\"url(#scale)\" stroke=\"#000\"/>\n",
		LEGEND_X, TOP2);
	fprintf(f, "<text x=\"%d\" y=\"%d\">%u</text>\n", LEGEND_X + 22, TOP2 + 10, max);
	fprintf(f, "<text x=\"%d\" y=\"%d\">0</text>\n", LEGEND_X + 22, TOP2 + 120);
	fprintf(f, "<text x=\"%d\" y=\"%d\">packets</text>\n", LEGEND_X, TOP2 + 140);
}

int plot_svg(FILE *f, const struct series *s, const char *title, const char *subtitle)
{
	int rows = node_rows(s);
	int h = TOP2 + (int)(row_height(rows) * rows + 0.5) + 50;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n", W, h, W, h);
	fputs("<title>", f);
	text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">", LEFT);
	text(f, title);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"40\">", LEFT);
	text(f, subtitle);
	fputs("</text>\n", f);
	links_panel(f, s);
	if (rows)
		node_panel(f, s, rows);
	fputs("</svg>\n", f);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
