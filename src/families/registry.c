/* registry.c — every family moore knows. `build`, `stats`, `families`, `plan`
 * and `compare` all read this table, so a new family is one file plus one line
 * here. Order is the order `moore families` and `moore plan` print. */
#include "families.h"

#include <string.h>

static const moore_family FAMILIES[] = {
    { "slimfly", "Slim Fly: MMS graph, 2q^2 switches, diameter 2",
      "Besta & Hoefler, SC'14; McKay, Miller & Siran 1998", moore_slimfly_params,
      moore_slimfly_build, moore_slimfly_counts, moore_slimfly_plan },
    { "complete", "complete graph K_n (reference)", "-", moore_complete_params,
      moore_complete_build, moore_complete_counts, NULL },
    { "petersen", "Petersen graph: 10 switches, degree 3, diameter 2 (reference Moore graph)",
      "Petersen 1898", moore_petersen_params, moore_petersen_build, NULL, NULL },
    { "hoffman-singleton",
      "Hoffman-Singleton graph by Robertson's pentagons and pentagrams (reference Moore graph)",
      "Hoffman & Singleton, IBM J. Res. Dev. 1960", moore_hoffman_singleton_params,
      moore_hoffman_singleton_build, NULL, NULL },
    { NULL, NULL, NULL, NULL, NULL, NULL, NULL }
};

const moore_family *moore_families(void) { return FAMILIES; }

const moore_family *moore_family_find(const char *name)
{
    for (const moore_family *f = FAMILIES; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}
