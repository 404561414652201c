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
    { "xpander",
      "Xpander: meta-graph (default K_{d+1}) whose nodes become k-switch super-nodes joined by "
      "perfect matchings",
      "Valadarsky, Shahaf, Dinitz & Schapira, CoNEXT'16", moore_xpander_params,
      moore_xpander_build, moore_xpander_counts, moore_xpander_plan },
    { "jellyfish", "Jellyfish: random regular graph, simple and connected",
      "Singla, Hong, Popa & Godfrey, NSDI'12", moore_jellyfish_params, moore_jellyfish_build,
      moore_jellyfish_counts, moore_jellyfish_plan },
    { "fattree", "3-level k-ary fat-tree: 5k^2/4 switches, k^3/4 endpoints on edge switches",
      "Al-Fares, Loukissas & Vahdat, SIGCOMM'08", moore_fattree_params, moore_fattree_build,
      moore_fattree_counts, moore_fattree_plan },
    { "dragonfly", "Dragonfly: full-mesh groups of a switches, h global links each, g groups",
      "Kim, Dally, Scott & Abts, ISCA'08", moore_dragonfly_params, moore_dragonfly_build,
      moore_dragonfly_counts, moore_dragonfly_plan },
    { "hyperx", "HyperX: Hamming graph K_S^L, links trunked K times, diameter L",
      "Ahn, Binkert, Davis, McLaren & Schreiber, SC'09", moore_hyperx_params,
      moore_hyperx_build, moore_hyperx_counts, moore_hyperx_plan },
    { "torus", "torus with wrap-around links, dims AxBx...",
      "Dally, IEEE Trans. Computers 39(6), 1990 (k-ary n-cubes)", moore_torus_params, moore_torus_build,
      moore_torus_counts, moore_torus_plan },
    { "polarfly", "PolarFly: Erdos-Renyi polarity graph ER_q, q^2+q+1 switches, diameter 2",
      "Lakhotia, Besta, Monroe, Isham, Iff, Hoefler & Petrini, SC'22", moore_polarfly_params,
      moore_polarfly_build, moore_polarfly_counts, moore_polarfly_plan },
    { "hypercube", "hypercube Q_n: 2^n switches, degree and diameter n", "Seitz, CACM 28(1), 1985 "
      "(the Cosmic Cube)", moore_hypercube_params, moore_hypercube_build, moore_hypercube_counts,
      moore_hypercube_plan },
    { "mesh", "mesh (torus without wrap-around links), dims AxBx...",
      "Dally, IEEE Trans. Computers 39(6), 1990 (k-ary n-cubes)", moore_mesh_params,
      moore_mesh_build, moore_mesh_counts, moore_mesh_plan },
    { "flatbutterfly", "flattened butterfly: k-ary n-fly with each row merged, k^(n-1) switches",
      "Kim, Dally & Abts, ISCA'07", moore_flatbutterfly_params, moore_flatbutterfly_build,
      moore_flatbutterfly_counts, moore_flatbutterfly_plan },
    { "karyntree", "k-ary n-tree: n levels of k^(n-1) switches of 2k ports, k^n endpoints",
      "Petrini & Vanneschi, IPPS'97", moore_karyntree_params, moore_karyntree_build,
      moore_karyntree_counts, moore_karyntree_plan },
    { "xgft", "extended generalized fat-tree XGFT(h; m1..mh; w1..wh)",
      "Ohring, Ibel, Das & Kumar, IPPS'95", moore_xgft_params, moore_xgft_build,
      moore_xgft_counts, moore_xgft_plan },
    { "kautz", "undirected Kautz graph K(b,n): (b+1)b^(n-1) switches, diameter n",
      "Kautz, Bounds on directed (d,k) graphs, 1968", moore_kautz_params,
      moore_kautz_build, moore_kautz_counts, moore_kautz_plan },
    { "arrangement", "arrangement graph A(n,k): k-permutations of n symbols, degree k(n-k)",
      "Day & Tripathi, Inf. Proc. Letters 42(5), 1992", moore_arrangement_params, moore_arrangement_build,
      moore_arrangement_counts, moore_arrangement_plan },
    { "tofu", "Tofu 6-D mesh/torus: XxYxZ torus of 2x3x2 units, 12XYZ switches",
      "Ajima, Sumimoto & Shimizu, IEEE Computer 42(11), 2009", moore_tofu_params,
      moore_tofu_build, moore_tofu_counts, moore_tofu_plan },
    { "mlfm", "Multi-Layer Full-Mesh: h layers of h+1 local routers, h(h+1)/2 global routers",
      "Kathareios, Minkenberg, Prisacari, Rodriguez & Hoefler, SC'15", moore_mlfm_params,
      moore_mlfm_build, moore_mlfm_counts, moore_mlfm_plan },
    { "oft", "two-level Orthogonal Fat-Tree on PG(2,k-1): 3(k^2-k+1) routers of radix 2k",
      "Kathareios, Minkenberg, Prisacari, Rodriguez & Hoefler, SC'15", moore_oft_params,
      moore_oft_build, moore_oft_counts, moore_oft_plan },
    { "megafly", "Megafly / Dragonfly+: groups of d/2 leaves and d/2 spines (K_{a,a}), g links "
      "between every two groups", "Flajslik, Borch & Parker, ISC'18", moore_megafly_params,
      moore_megafly_build, moore_megafly_counts, moore_megafly_plan },
    { "cascade", "Cray Cascade: groups of 6x16 Aries routers, triple black links, m (default 4) "
      "global links between every two groups", "Faanes et al., SC'12", moore_cascade_params,
      moore_cascade_build, moore_cascade_counts, moore_cascade_plan },
    { "spectralfly", "Spectralfly: LPS Ramanujan graph X^{s,q}, (s+1)-regular Cayley graph of "
      "PSL(2,q) or PGL(2,q)",
      "Young, Aksoy, Firoz, Gioiosa, Hagge, Kempton, Escobedo & Raugas, IPDPS'22",
      moore_spectralfly_params, moore_spectralfly_build, moore_spectralfly_counts,
      moore_spectralfly_plan },
    { "bundlefly", "Bundlefly: star product of the MMS graph (Slim Fly) and a Paley graph, "
      "diameter 3", "Lei et al., ICS'20", moore_bundlefly_params,
      moore_bundlefly_build, moore_bundlefly_counts, moore_bundlefly_plan },
    { "polarstar", "PolarStar: star product of ER_q (PolarFly) and a bdf or Paley joiner, "
      "diameter 3", "Lakhotia et al., SPAA'24",
      moore_polarstar_params, moore_polarstar_build, moore_polarstar_counts,
      moore_polarstar_plan },
    { "delorme", "Delorme graph: polarity graph of the generalized quadrangle W(q), "
      "q = 2^(2a-1), diameter 3", "Delorme, European J. Combinatorics 6, 1985",
      moore_delorme_params, moore_delorme_build, moore_delorme_counts, moore_delorme_plan },
    { "brown", "alias of polarfly: the Brown (Erdos-Renyi polarity) graph ER_q",
      "Brown, Canad. Math. Bull. 1966", moore_polarfly_params, moore_polarfly_build,
      moore_polarfly_counts, NULL },
    { "clos", "folded Clos of 2 or 3 tiers from radix-R switches, any server count, O:1 at the leaf",
      "Clos, Bell Syst. Tech. J. 1953; Leiserson, IEEE Trans. Computers 1985", moore_clos_params,
      moore_clos_build, moore_clos_counts, moore_clos_plan },
    { "lift", "what 'moore lift' writes: 2-lifts of another topology (of=, the last key)",
      "Bilu & Linial, Combinatorica 26(5), 2006", moore_lift_params, moore_lift_family_build,
      NULL, NULL },
    { "expand", "what 'moore expand' writes: switches added to another topology (of=, last)",
      "Singla, Hong, Popa & Godfrey, NSDI'12", moore_expand_params, moore_expand_family_build,
      NULL, NULL },
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
