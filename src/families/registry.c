/* registry.c — every family moore knows. `build`, `stats`, `families`, `plan`
 * and `compare` all read this table, so a new family is one file plus one line
 * here. Order is the order `moore families` and `moore plan` print. */
#include "families.h"

#include <string.h>

static const moore_family FAMILIES[] = {
    { "complete", "complete graph K_n (reference)", "-", moore_complete_params,
      moore_complete_build, moore_complete_counts, NULL },
    { "petersen", "Petersen graph: 10 switches, degree 3, diameter 2 (reference Moore graph)",
      "Petersen 1898", moore_petersen_params, moore_petersen_build, NULL, NULL },
    { "hoffman-singleton",
      "Hoffman-Singleton graph by Robertson's pentagons and pentagrams (reference Moore graph)",
      "Hoffman & Singleton, IBM J. Res. Dev. 1960", moore_hoffman_singleton_params,
      moore_hoffman_singleton_build, NULL, NULL },
    { "xpander",
      "Xpander: meta-graph (default K_{d+1}) whose nodes become k-switch super-nodes joined by "
      "perfect matchings",
      "Valadarsky, Shahaf, Dinitz & Schapira, CoNEXT'16", moore_xpander_params,
      moore_xpander_build, moore_xpander_counts, moore_xpander_plan },
    { "jellyfish", "Jellyfish: random regular graph, simple and connected",
      "Singla, Hong, Popa & Godfrey, NSDI'12", moore_jellyfish_params, moore_jellyfish_build,
      moore_jellyfish_counts, moore_jellyfish_plan },
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
