// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * svg.c - strip plots of the two sides of each workload, see svg.h.
 *
 * People would rather look than read: a strip plot shows every
 * sample, so a bimodal boot or an outlier is seen at once, which a table of
 * medians hides.
 */
#include <math.h>
#include <string.h>

#include "stats.h"
#include "svg.h"

#define SVG_WIDTH 860
#define SVG_LEFT 150		/* room for the side labels */
#define SVG_RIGHT 30
#define SVG_PANEL 110		/* height of one workload's panel */
#define SVG_TOP 40

static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f); break;
		}
	}
}

static const char *verdict_colour(const char *v)
{
	if (!strncmp(v, "PASS", 4) || !strcmp(v, "STEADY"))
		return "#1a7f37";
	if (!strncmp(v, "FAIL", 4) || !strcmp(v, "MOVED"))
		return "#cf222e";
	return "#6e7781";
}

static void strip(FILE *f, const double *v, size_t n, double lo, double hi,
		  double y0, const char *colour)
{
	double span = SVG_WIDTH - SVG_LEFT - SVG_RIGHT;
	double med;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		double x = SVG_LEFT + span * (v[i] - lo) / (hi - lo);
		/* a small fixed vertical spread keeps equal values visible */
		double y = y0 + (double)(i % 5) * 3 - 6;

		fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" fill-opacity=\"0.6\"/>\n",
			x, y, colour);
	}
	med = stats_median(v, n);
	fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-width=\"2\"/>\n",
		SVG_LEFT + span * (med - lo) / (hi - lo),
		SVG_LEFT + span * (med - lo) / (hi - lo), y0 - 10, y0 + 10);
}

static void bound(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.5f", v);
	else
		fputs(v > 0 ? "+inf" : "-inf", f);
}

void svg_write(FILE *f, const char *title, const struct svg_panel *p,
	       size_t nr)
{
	int height = SVG_TOP + (int)nr * SVG_PANEL + 10;

	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"22\" font-size=\"15\">", SVG_WIDTH, height);
	xml_text(f, title);
	fputs("</text>\n", f);
	for (size_t i = 0; i < nr; i++) {
		const struct svg_panel *q = &p[i];
		double top = SVG_TOP + i * SVG_PANEL;
		double lo = INFINITY, hi = -INFINITY, pad;

		for (size_t k = 0; k < q->n; k++) {
			lo = fmin(lo, q->x[k]);
			hi = fmax(hi, q->x[k]);
		}
		for (size_t k = 0; k < q->m; k++) {
			lo = fmin(lo, q->y[k]);
			hi = fmax(hi, q->y[k]);
		}
		if (isfinite(q->limit) && q->limit > 0) {
			lo = fmin(lo, q->limit);
			hi = fmax(hi, q->limit);
		}
		/* zero spread still needs an axis: 0.1% either side */
		pad = hi > lo ? (hi - lo) * 0.05 : fabs(hi) * 0.001 + 1e-9;
		lo -= pad;
		hi += pad;

		fprintf(f, "<g>\n<text x=\"10\" y=\"%.1f\" font-weight=\"bold\">", top + 14);
		xml_text(f, q->name);
		fprintf(f, "</text>\n<text x=\"%d\" y=\"%.1f\" fill=\"%s\">ratio %.5f [",
			SVG_LEFT, top + 14, verdict_colour(q->verdict), q->ratio);
		bound(f, q->lo);
		fputs(", ", f);
		bound(f, q->hi);
		fputs("] ", f);
		xml_text(f, q->verdict);
		fprintf(f, "</text>\n<text x=\"10\" y=\"%.1f\">baseline (%zu)</text>\n",
			top + 42, q->n);
		fprintf(f, "<text x=\"10\" y=\"%.1f\">candidate (%zu)</text>\n",
			top + 72, q->m);
		if (isfinite(q->limit) && q->limit > 0) {
			double x = SVG_LEFT + (SVG_WIDTH - SVG_LEFT - SVG_RIGHT) *
				   (q->limit - lo) / (hi - lo);

			fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#cf222e\" stroke-dasharray=\"4 3\"/>\n",
				x, x, top + 24, top + 84);
			/* the axis labels own the corners */
			if (x > SVG_LEFT + 60 && x < SVG_WIDTH - SVG_RIGHT - 60)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#cf222e\" font-size=\"10\" text-anchor=\"middle\">margin</text>\n",
					x, top + 98);
		}
		strip(f, q->x, q->n, lo, hi, top + 38, "#0969da");
		strip(f, q->y, q->m, lo, hi, top + 68, "#bc4c00");
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#999\"/>\n",
			SVG_LEFT, SVG_WIDTH - SVG_RIGHT, top + 84, top + 84);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\">%.6g</text>\n",
			SVG_LEFT, top + 98, lo);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" fill=\"#555\" text-anchor=\"end\">%.6g</text>\n</g>\n",
			SVG_WIDTH - SVG_RIGHT, top + 98, hi);
	}
	fputs("</svg>\n", f);
}
