/* moore.h — the umbrella header: everything a program using libmoore needs. */
#ifndef MOORE_H
#define MOORE_H

#include "moore/version.h"   /* MOORE_VERSION, generated from CMakeLists.txt */
#include "moore/error.h"
#include "moore/parse.h"
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
#include "moore/closflow.h"
#include "moore/dist.h"
#include "moore/layout.h"
#include "moore/routing.h"
#include "moore/workload.h"
#include "moore/step.h"
#include "moore/deploy.h"

#endif
