/* moore.h — the umbrella header: everything a program using libmoore needs. */
#ifndef MOORE_H
#define MOORE_H

#define MOORE_VERSION "0.1.0"

#include "moore/error.h"
#include "moore/rng.h"
#include "moore/graph.h"
#include "moore/field.h"
#include "moore/family.h"
#include "moore/report.h"
#include "moore/metrics.h"
#include "moore/paths.h"
#include "moore/spectrum.h"
#include "moore/lift.h"
#include "moore/jellyfish.h"
#include "moore/io.h"
#include "moore/bisection.h"
#include "moore/symmetry.h"
#include "moore/diversity.h"
#include "moore/plan.h"
#include "moore/traffic.h"
#include "moore/flow.h"
#include "moore/dist.h"
#include "moore/layout.h"

#endif
