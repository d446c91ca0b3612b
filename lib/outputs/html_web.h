/* SPDX-License-Identifier: MIT */
/*
 * The HTML report's page: web/report.html, web/report.css and
 * web/report.js as byte arrays, made at build time by cmake/embed.cmake
 * (internal to lib/outputs/html.c).
 */
#ifndef RP_OUTPUTS_HTML_WEB_H
#define RP_OUTPUTS_HTML_WEB_H

#include <stddef.h>

extern const unsigned char rp_web_report_html[];
extern const size_t rp_web_report_html_len;
extern const unsigned char rp_web_report_css[];
extern const size_t rp_web_report_css_len;
extern const unsigned char rp_web_report_js[];
extern const size_t rp_web_report_js_len;

#endif
