/* html.c — the few HTML pieces the report is made of: the page frame with
 * its inline style sheet, headings and paragraphs, tables, and figures whose
 * SVG is put inline. Everything a caller passes as text is escaped here, so a
 * SPEC or a message can never become markup. */
#include "report_internal.h"

#include <string.h>

static const char STYLE[] =
    "body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;max-width:60em;margin:2em auto;"
    "padding:0 1em;color:#111;line-height:1.4}"
    "h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #bbb}"
    "table{border-collapse:collapse;margin:1em 0;font-size:.85em}"
    "th,td{border:1px solid #bbb;padding:.25em .5em;text-align:right}"
    "th{background:#eee}td:first-child,th:first-child{text-align:left}"
    "figure{margin:1.5em 0;page-break-inside:avoid}figure svg{width:100%;height:auto}"
    ".wide{overflow-x:auto;width:min(96vw,1360px);margin-left:calc(50% - min(48vw,680px))}"
    "figcaption{font-size:.9em;color:#333}details{font-size:.85em}"
    ".verdict-yes{color:#060}.verdict-no{color:#a00}"
    "#claims-table td{text-align:left}"
    "#recommendation{font-size:1.1em;border-left:4px solid #0072b2;padding:.4em .8em;"
    "background:#f3f8fc}"
    "@media print{body{max-width:none}details{display:none}}";

void page_html_text(FILE *out, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
}

void page_html_begin(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    page_html_text(out, title);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", STYLE);
    page_html_text(out, title);
    fputs("</h1>\n", out);
}

void page_html_end(FILE *out) { fputs("</body>\n</html>\n", out); }

void page_html_heading(FILE *out, const char *id, const char *text)
{
    fprintf(out, "<h2 id=\"%s\">", id);
    page_html_text(out, text);
    fputs("</h2>\n", out);
}

void page_html_paragraph(FILE *out, const char *text)
{
    fputs("<p>", out);
    page_html_text(out, text);
    fputs("</p>\n", out);
}

void page_html_table_begin(FILE *out, const char *id, const char *const *headers, int n)
{
    fprintf(out, "<div class=\"wide\"><table id=\"%s\">\n<tr>", id);
    for (int i = 0; i < n; i++) {
        fputs("<th>", out);
        page_html_text(out, headers[i]);
        fputs("</th>", out);
    }
    fputs("</tr>\n", out);
}

void page_html_table_row(FILE *out, const char *const *cells, int n)
{
    fputs("<tr>", out);
    for (int i = 0; i < n; i++) {
        fputs("<td>", out);
        for (const char *c = cells[i]; c && *c; c++) { /* a SPEC may break after a comma */
            char one[2] = { *c, 0 };
            page_html_text(out, one);
            if (*c == ',' && c[1] && (c[1] < '0' || c[1] > '9'))
                fputs("<wbr>", out);
        }
        fputs("</td>", out);
    }
    fputs("</tr>\n", out);
}

void page_html_table_end(FILE *out) { fputs("</table></div>\n", out); }

static void html_attr(FILE *out, const char *name, const char *value)
{
    fprintf(out, " %s=\"", name);
    page_html_text(out, value);
    fputc('"', out);
}

/* The SVG document without its XML prolog and DOCTYPE, inline; the labels are
 * repeated as data attributes so that tools (and the tests) can find them. */
void page_html_figure(FILE *out, const char *id, const moore_plot *p, const char *svg,
                 const char *caption)
{
    const char *start = strstr(svg, "<svg");
    fprintf(out, "<figure id=\"%s\"", id);
    html_attr(out, "data-title", p->title);
    html_attr(out, "data-xlabel", p->xlabel);
    html_attr(out, "data-ylabel", p->ylabel);
    fprintf(out, ">\n%s\n<figcaption>", start ? start : "");
    page_html_text(out, caption);
    fputs("</figcaption>\n</figure>\n", out);
}
