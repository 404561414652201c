/* row.h — what plan shares with the report page (src/report/sweep.c) about
 * a compared row; not public API. plan_internal.h includes it for plan's own
 * files. */
#ifndef MOORE_SRC_PLAN_ROW_H
#define MOORE_SRC_PLAN_ROW_H

#include "moore/error.h"
#include "moore/report.h"

/* lambda2_ramanujan_ratio from a row's spectral keys (null when undefined);
 * compare and the report's main table both derive it. */
int plan_row_ratio(moore_report *r, moore_error *err);

#endif
