/* registry.c — every family moore knows. `build`, `stats`, `families`, `plan`
 * and `compare` all read this table, so a new family is one file plus one line
 * here. Order is the order `moore families` and `moore plan` print. */
#include "families.h"

#include <string.h>

static const moore_family FAMILIES[] = {
    { "slimfly", "Slim Fly: MMS graph, 2q^2 switches, diameter 2",
      "Besta & Hoefler, SC'14; McKay, Miller & Siran 1998", fam_slimfly_params,
      fam_slimfly_build, fam_slimfly_counts, fam_slimfly_plan, 1 },
    { "complete", "complete graph K_n (reference)", "-", fam_complete_params,
      fam_complete_build, fam_complete_counts, NULL, 0 },
    { "petersen", "Petersen graph: 10 switches, degree 3, diameter 2 (reference Moore graph)",
      "Petersen 1898", fam_petersen_params, fam_petersen_build, NULL, NULL, 0 },
    { "hoffman-singleton",
      "Hoffman-Singleton graph by Robertson's pentagons and pentagrams (reference Moore graph)",
      "Hoffman & Singleton, IBM J. Res. Dev. 1960", fam_hoffman_singleton_params,
      fam_hoffman_singleton_build, NULL, NULL, 1 },
    { "xpander",
      "Xpander: meta-graph (default K_{d+1}) whose nodes become k-switch super-nodes joined by "
      "perfect matchings",
      "Valadarsky, Shahaf, Dinitz & Schapira, CoNEXT'16", fam_xpander_params,
      fam_xpander_build, fam_xpander_counts, fam_xpander_plan, 1 },
    { "jellyfish", "Jellyfish: random regular graph, simple and connected",
      "Singla, Hong, Popa & Godfrey, NSDI'12", fam_jellyfish_params, fam_jellyfish_build,
      fam_jellyfish_counts, fam_jellyfish_plan, 0 },
    { "fattree", "3-level k-ary fat-tree: 5k^2/4 switches, k^3/4 endpoints on edge switches",
      "Al-Fares, Loukissas & Vahdat, SIGCOMM'08", fam_fattree_params, fam_fattree_build,
      fam_fattree_counts, fam_fattree_plan, 1 },
    { "dragonfly", "Dragonfly: full-mesh groups of a switches, h global links each, g groups",
      "Kim, Dally, Scott & Abts, ISCA'08", fam_dragonfly_params, fam_dragonfly_build,
      fam_dragonfly_counts, fam_dragonfly_plan, 1 },
    { "hyperx", "HyperX: Hamming graph K_S^L, links trunked K times, diameter L",
      "Ahn, Binkert, Davis, McLaren & Schreiber, SC'09", fam_hyperx_params,
      fam_hyperx_build, fam_hyperx_counts, fam_hyperx_plan, 1 },
    { "torus", "torus with wrap-around links, dims AxBx...",
      "Dally, IEEE Trans. Computers 39(6), 1990 (k-ary n-cubes)", fam_torus_params, fam_torus_build,
      fam_torus_counts, fam_torus_plan, 1 },
    { "polarfly", "PolarFly: Erdos-Renyi polarity graph ER_q, q^2+q+1 switches, diameter 2",
      "Lakhotia, Besta, Monroe, Isham, Iff, Hoefler & Petrini, SC'22", fam_polarfly_params,
      fam_polarfly_build, fam_polarfly_counts, fam_polarfly_plan, 1 },
    { "hypercube", "hypercube Q_n: 2^n switches, degree and diameter n", "Seitz, CACM 28(1), 1985 "
      "(the Cosmic Cube)", fam_hypercube_params, fam_hypercube_build, fam_hypercube_counts,
      fam_hypercube_plan, 1 },
    { "mesh", "mesh (torus without wrap-around links), dims AxBx...",
      "Dally, IEEE Trans. Computers 39(6), 1990 (k-ary n-cubes)", fam_mesh_params,
      fam_mesh_build, fam_mesh_counts, fam_mesh_plan, 1 },
    { "flatbutterfly", "flattened butterfly: k-ary n-fly with each row merged, k^(n-1) switches",
      "Kim, Dally & Abts, ISCA'07", fam_flatbutterfly_params, fam_flatbutterfly_build,
      fam_flatbutterfly_counts, fam_flatbutterfly_plan, 1 },
    { "karyntree", "k-ary n-tree: n levels of k^(n-1) switches of 2k ports, k^n endpoints",
      "Petrini & Vanneschi, IPPS'97", fam_karyntree_params, fam_karyntree_build,
      fam_karyntree_counts, fam_karyntree_plan, 1 },
    { "xgft", "extended generalized fat-tree XGFT(h; m1..mh; w1..wh)",
      "Ohring, Ibel, Das & Kumar, IPPS'95", fam_xgft_params, fam_xgft_build,
      fam_xgft_counts, fam_xgft_plan, 1 },
    { "kautz", "undirected Kautz graph K(b,n): (b+1)b^(n-1) switches, diameter n",
      "Kautz, Bounds on directed (d,k) graphs, 1968", fam_kautz_params,
      fam_kautz_build, fam_kautz_counts, fam_kautz_plan, 1 },
    { "arrangement", "arrangement graph A(n,k): k-permutations of n symbols, degree k(n-k)",
      "Day & Tripathi, Inf. Proc. Letters 42(5), 1992", fam_arrangement_params, fam_arrangement_build,
      fam_arrangement_counts, fam_arrangement_plan, 1 },
    { "tofu", "Tofu 6-D mesh/torus: XxYxZ torus of 2x3x2 units, 12XYZ switches",
      "Ajima, Sumimoto & Shimizu, IEEE Computer 42(11), 2009", fam_tofu_params,
      fam_tofu_build, fam_tofu_counts, fam_tofu_plan, 1 },
    { "mlfm", "Multi-Layer Full-Mesh: h layers of h+1 local routers, h(h+1)/2 global routers",
      "Kathareios, Minkenberg, Prisacari, Rodriguez & Hoefler, SC'15", fam_mlfm_params,
      fam_mlfm_build, fam_mlfm_counts, fam_mlfm_plan, 1 },
    { "oft", "two-level Orthogonal Fat-Tree on PG(2,k-1): 3(k^2-k+1) routers of radix 2k",
      "Kathareios, Minkenberg, Prisacari, Rodriguez & Hoefler, SC'15", fam_oft_params,
      fam_oft_build, fam_oft_counts, fam_oft_plan, 1 },
    { "megafly", "Megafly / Dragonfly+: groups of d/2 leaves and d/2 spines (K_{a,a}), g links "
      "between every two groups", "Flajslik, Borch & Parker, ISC'18", fam_megafly_params,
      fam_megafly_build, fam_megafly_counts, fam_megafly_plan, 1 },
    { "cascade", "Cray Cascade: groups of 6x16 Aries routers, triple black links, m (default 4) "
      "global links between every two groups", "Faanes et al., SC'12", fam_cascade_params,
      fam_cascade_build, fam_cascade_counts, fam_cascade_plan, 1 },
    { "spectralfly", "Spectralfly: LPS Ramanujan graph X^{s,q}, (s+1)-regular Cayley graph of "
      "PSL(2,q) or PGL(2,q)",
      "Young, Aksoy, Firoz, Gioiosa, Hagge, Kempton, Escobedo & Raugas, IPDPS'22",
      fam_spectralfly_params, fam_spectralfly_build, fam_spectralfly_counts,
      fam_spectralfly_plan, 1 },
    { "bundlefly", "Bundlefly: star product of the MMS graph (Slim Fly) and a Paley graph, "
      "diameter 3", "Lei et al., ICS'20", fam_bundlefly_params,
      fam_bundlefly_build, fam_bundlefly_counts, fam_bundlefly_plan, 1 },
    { "polarstar", "PolarStar: star product of ER_q (PolarFly) and a bdf or Paley joiner, "
      "diameter 3", "Lakhotia et al., SPAA'24",
      fam_polarstar_params, fam_polarstar_build, fam_polarstar_counts,
      fam_polarstar_plan, 1 },
    { "delorme", "Delorme graph: polarity graph of the generalized quadrangle W(q), "
      "q = 2^(2a-1), diameter 3", "Delorme, European J. Combinatorics 6, 1985",
      fam_delorme_params, fam_delorme_build, fam_delorme_counts, fam_delorme_plan, 1 },
    { "brown", "alias of polarfly: the Brown (Erdos-Renyi polarity) graph ER_q",
      "Brown, Canad. Math. Bull. 1966", fam_polarfly_params, fam_polarfly_build,
      fam_polarfly_counts, NULL, 1 },
    { "clos", "folded Clos of 2 to 6 tiers from radix-R switches, any server count, O:1 at the leaf",
      "Clos, Bell Syst. Tech. J. 1953; Leiserson, IEEE Trans. Computers 1985", fam_clos_params,
      fam_clos_build, fam_clos_counts, fam_clos_plan, 1 },
    { "lift", "what 'moore lift' writes: 2-lifts of another topology (of=, the last key)",
      "Bilu & Linial, Combinatorica 26(5), 2006", fam_lift_params, fam_lift_build,
      NULL, NULL, 0 },
    { "expand", "what 'moore expand' writes: switches added to another topology (of=, last)",
      "Singla, Hong, Popa & Godfrey, NSDI'12", fam_expand_params, fam_expand_build,
      NULL, NULL, 0 },
    { NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0 }
};

const moore_family *moore_families(void) { return FAMILIES; }

const moore_family *moore_family_find(const char *name)
{
    for (const moore_family *f = FAMILIES; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}
